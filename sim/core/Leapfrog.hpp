#pragma once
// Leapfrog (kick-drift-kick) integration on the CPU.
//
// Design note: KDK is symplectic and time-reversible, so energy errors stay bounded instead of drifting, and it needs
// one force evaluation per step: the accelerations computed at the end of one step are the first kick of the next.
//   v += a(x) dt/2;  x += v dt;  a = a(x);  v += a(x) dt/2
#include <gravlab/sim/Bodies.hpp>

namespace gravlab {

/// v += a * duration
void kickCpu(Bodies& bodies, const Vec3Arrays<float>& accelerations, float duration);
/// x += v * duration
void driftCpu(Bodies& bodies, float duration);

} // namespace gravlab
