#pragma once
// The precision of the body state and its integration: single (float) or double (float-float pairs).
//
// Design note: in double precision a coordinate is the unevaluated sum of two floats, high + low, with
// |low| <= ulp(high) / 2 (Dekker's double-float representation): 48 significant bits, within about 4e-15 of the fp64
// value it was split from, for 24 extra bytes per body instead of 48 for a second set of double arrays. The high part
// is the float state every float consumer (solvers, rendering, ORB, the float files) already reads, so single
// precision costs nothing and double precision changes only the integrator, the fp64 solver, the diagnostics and the
// files that store doubles. The integrator joins a pair to a double, updates it in double and splits it again
// (splitDouble, FloatPair.hpp), so the stored state is the fp64 result rounded to 48 bits at every step, far below the
// 1e-7 rounding of float. Bodies carry the low parts in the arrays xLow ... vzLow (Bodies.hpp), empty in single
// precision.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/EnumNames.hpp>
#include <gravlab/sim/FloatPair.hpp>

#include <array>
#include <cstddef>
#include <string_view>

namespace gravlab {

/// Precision of positions, velocities and their integration (SimParams::precision).
enum class Precision {
    Single, ///< float state and integration: the fastest, and 16 bytes per body less on the device
    Double, ///< float-float state integrated in double: energy errors of fp64 for the direct-fp64 solver
};

template <> struct EnumNames<Precision> {
    static constexpr std::string_view field = "precision";
    static constexpr std::array entries{
        EnumName<Precision>{Precision::Single, "single", "float state and integration"},
        EnumName<Precision>{Precision::Double, "double", "fp64 state and integration, fp64 forces with direct-fp64"}};
};

/// Double precision when bodies carry low parts (an empty set counts as single).
inline Precision precisionOf(const Bodies& bodies) {
    return bodies.hasLowParts() ? Precision::Double : Precision::Single;
}

/// Converts bodies in place: to double with zero low parts (the float state is exact as a pair), to single by dropping
/// the low parts (each coordinate rounds to its float). Nothing happens when bodies already have that precision or
/// are empty.
void convertPrecision(Bodies& bodies, Precision precision);

/// Position and velocity of body i in double: the pair's sum in double precision, the float in single.
std::array<double, 3> positionFp64(const Bodies& bodies, std::size_t i);
std::array<double, 3> velocityFp64(const Bodies& bodies, std::size_t i);

/// Stores a double position and velocity into body i: split into pairs when the bodies carry low parts, rounded to
/// float otherwise.
void storePositionFp64(Bodies& bodies, std::size_t i, const std::array<double, 3>& position);
void storeVelocityFp64(Bodies& bodies, std::size_t i, const std::array<double, 3>& velocity);

} // namespace gravlab
