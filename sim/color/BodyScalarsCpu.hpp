#pragma once
// The per-body quantities of the colour maps on the CPU: speed, |a|, and the tree force's error against the direct
// sum. (Density: DensityGrid.hpp; potential: the tree potential walk, computeTreePotentialsCpu.)
//
// Design note: OpenMP loops over the bodies, one value per body. The error's reference is a direct sum in double
// over float positions with the same G and Plummer softening as the tree (DirectSumCpu.hpp's formula), for the
// bodies ForceErrorSample.hpp picks; the others get NaN, which the colour mapping turns into the "not sampled" grey.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>

#include <cstddef>
#include <vector>

namespace gravlab {

/// |v| of every body into out (resized to N).
void computeSpeedsCpu(const Bodies& bodies, std::vector<float>& out);

/// |a| of every acceleration into out (resized to their count).
void computeAccelerationMagnitudesCpu(const Vec3Arrays<float>& accelerations, std::vector<float>& out);

/// |a_tree - a_direct| / |a_direct| of the bodies forceErrorTargets(N, kForceErrorAllBodiesLimitCpu) picks, NaN for
/// the others, into out (resized to N); treeAccelerations in body order. Returns the count of bodies checked.
std::size_t computeTreeForceErrorsCpu(const Bodies& bodies, const Vec3Arrays<float>& treeAccelerations,
                                      const GravityParams& gravity, std::vector<float>& out);

} // namespace gravlab
