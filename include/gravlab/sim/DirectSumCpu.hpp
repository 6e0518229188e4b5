#pragma once
// Direct-summation gravity on the CPU: the fp64 reference oracle and the float SIMD + OpenMP solver.
//
// Design note: both use Plummer softening, a_i = G * sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2), with the
// j == i term contributing zero; eps may be 0 (the exact Newtonian sum). The fp64 version is the independent reference
// every other solver is tested against; it is deliberately simple (no blocking, no approximations). The float version
// is the CPU solver: OpenMP over blocks of targets, a SIMD kernel dispatched at run time to the widest vector unit.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/GravityParams.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace gravlab {

/// fp64 accelerations of every body (out is resized to N), from the position pairs when bodies carry low parts.
void computeAccelerationsFp64(const Bodies& bodies, const GravityParams& gravity, Vec3Arrays<double>& out);

/// fp64 accelerations of the bodies listed in targets only (out is resized to targets.size()), for sampled checks.
void computeAccelerationsFp64(const Bodies& bodies, const GravityParams& gravity, std::span<const std::size_t> targets,
                              Vec3Arrays<double>& out);

/// float accelerations of every body, OpenMP-parallel (out is resized to N). With zero softening a pair of distinct
/// bodies at one position (r^2 == 0) adds nothing, and the smallest index of a body in such a pair is returned (the
/// caller reports it, CoincidentBodies.hpp); nullopt otherwise.
std::optional<std::size_t> computeAccelerationsCpu(const Bodies& bodies, const GravityParams& gravity,
                                                   Vec3Arrays<float>& out);

/// float accelerations of the bodies listed in targets (distinct indices) against all bodies, written into out at
/// those indices (out must hold N entries; the others are kept), bit-identical to the all-body version's; with zero
/// softening, the smallest listed index with a coincident partner, as above.
std::optional<std::size_t> computeAccelerationsCpu(const Bodies& bodies, const GravityParams& gravity,
                                                   std::span<const std::uint32_t> targets, Vec3Arrays<float>& out);

} // namespace gravlab
