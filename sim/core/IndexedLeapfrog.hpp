#pragma once
// The leapfrog kick for a list of bodies, on the CPU: hierarchical time steps kick the bodies of one level together.
//
// Design note: the same update as kickCpu (Leapfrog.hpp), v += a * duration per body, so a list holding every body
// gives kickCpu's bits; it is its own function, beside the all-body one, so that a change of the kick's arithmetic
// (its precision) is made in both places side by side.
#include <gravlab/sim/Bodies.hpp>

#include <cstdint>
#include <span>

namespace gravlab {

/// v_i += a_i * duration for each i in indices (distinct, each < N).
void kickListCpu(Bodies& bodies, const Vec3Arrays<float>& accelerations, std::span<const std::uint32_t> indices,
                 float duration);

} // namespace gravlab
