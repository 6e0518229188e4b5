#pragma once
// The per-body potential source of the potential colour mode, on each device: the one place a potential computation
// is plugged in.
//
// Design note: the potential colour map needs phi_i = -G sum_j m_j / sqrt(r_ij^2 + eps^2) per body; its scale, legend
// and fallback are already in place (BodyScalarsCpu, the CUDA backend's colour scalars). Until a potential walk is
// wired into these functions they return false with the reason, and the mode shows the component colours with that
// reason, as leaf-depth does under a solver without a tree.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>

#include <string>
#include <vector>

namespace gravlab {

/// The potential of every body into out (resized to N), in velocity units squared; false with reason set when no
/// potential source is available.
bool computeBodyPotentialsCpu(const Bodies& bodies, const GravityParams& gravity, std::vector<float>& out,
                              std::string& reason);

} // namespace gravlab
