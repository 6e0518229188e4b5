#pragma once
// The distance between two states of the same bodies, body by body matched by id, and the half-mass radius that
// gives it a scale.
//
// Design note: backends may hand the bodies back in any order (ORB permutes them), so bodies are matched by their
// stable 64-bit id, never by index. Building an id -> index map of a million bodies at every sample would cost more
// than the comparison itself, so ByIdPairing keeps the pairing of the last call and only verifies it (one pass
// comparing ids); it is rebuilt, with an unordered_map, only when either side was reordered. Sums are fp64, so the
// rms of fp32 positions is exact to well below their own rounding. Two states whose ids differ as sets are not the
// same bodies: that throws, naming an id, instead of returning a meaningless number.
#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <vector>

namespace gravlab {

struct PositionDivergence {
    double rms = 0; ///< sqrt(mean |x_a - x_b|^2) over all bodies
    double max = 0; ///< largest |x_a - x_b|
};

/// Pairs the bodies of two states by id and measures how far apart they are.
class ByIdPairing {
public:
    /// Throws std::invalid_argument when a and b differ in size or hold different ids (naming one).
    PositionDivergence measure(const Bodies& a, const Bodies& b);

private:
    /// Whether m_indexInB still pairs a's body i with the body of b carrying the same id, for every i.
    bool pairingHolds(const Bodies& a, const Bodies& b) const;
    void pair(const Bodies& a, const Bodies& b);

    std::vector<std::size_t> m_indexInB; ///< for a's body i, the index of the same id in b
};

/// Radius around the centre of mass inside which half the mass lies (fp64; the length unit of the bodies). 0 for no
/// bodies.
double halfMassRadius(const Bodies& bodies);

} // namespace gravlab
