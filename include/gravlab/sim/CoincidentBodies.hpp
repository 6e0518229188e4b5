#pragma once
// Two distinct bodies at one position under zero softening: what the direct solvers report instead of a NaN.
//
// Design note: with softening eps = 0 (the exact Newtonian problem, allowed for the direct sums only) the pair force
// m / r^2 is infinite at r = 0, and 0 * inf poisons the sums with NaN. The solvers leave a body's own term out
// (r = 0 by construction) and count the pairs of distinct bodies with r^2 == 0 as they meet them; the first such
// pair is kept (ids and position) and the step that met it throws CoincidentBodiesError with the state rolled back,
// like NonFiniteStateError. A user can then soften, or move one of the bodies.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>

namespace gravlab {

/// Two distinct bodies found at one position (r^2 == 0 in the solver's arithmetic).
struct CoincidentPair {
    std::uint64_t firstId;
    std::uint64_t secondId;
    std::array<float, 3> position; ///< where the first body was when the pair was met
};

/// Thrown by step() (and by a force evaluation asked for outside a step) when a force evaluation with zero softening
/// met a coincident pair. The state is the one before the step() call.
class CoincidentBodiesError : public std::runtime_error {
public:
    /// restoredStep: the step the state went back to (counted as the thrower counts, see Simulation::step).
    CoincidentBodiesError(const CoincidentPair& pair, std::uint64_t restoredStep);
    const CoincidentPair& pair() const { return m_pair; }

private:
    CoincidentPair m_pair;
};

/// The body closest to body index other than itself (the smallest r^2 in double): the partner of a body the solvers
/// found coincident with another, named by its index. bodies holds at least two bodies.
std::size_t nearestOtherBody(std::span<const float> x, std::span<const float> y, std::span<const float> z,
                             std::size_t index);

} // namespace gravlab
