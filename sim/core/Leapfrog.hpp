#pragma once
// Leapfrog (kick-drift-kick) integration on the CPU.
//
// Design note: KDK is symplectic and time-reversible, so energy errors stay bounded instead of drifting, and it needs
// one force evaluation per step: the accelerations computed at the end of one step are the first kick of the next.
//   v += a(x) dt/2;  x += v dt;  a = a(x);  v += a(x) dt/2
// In double precision (bodies with low parts, Precision.hpp) the pair versions do the same in double on the joined
// pairs (LeapfrogPairs.cpp).
#include <gravlab/sim/Bodies.hpp>

namespace gravlab {

/// v += a * duration
void kickCpu(Bodies& bodies, const Vec3Arrays<float>& accelerations, float duration);
/// x += v * duration
void driftCpu(Bodies& bodies, float duration);

/// v += a * duration in double on the velocity pairs; a is accelerations + accelerationLow where accelerationLow holds
/// low parts (an fp64 solver's), accelerations alone where it is empty. Bodies must carry low parts.
void kickPairsCpu(Bodies& bodies, const Vec3Arrays<float>& accelerations, const Vec3Arrays<float>& accelerationLow,
                  double duration);
/// x += v * duration in double on the position and velocity pairs. Bodies must carry low parts.
void driftPairsCpu(Bodies& bodies, double duration);

} // namespace gravlab
