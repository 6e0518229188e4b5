#pragma once
// The per-body colour quantities of the CPU backend: computed when stale (ScalarColoring), mapped to colour scalars.
//
// Design note: the CPU backend's visual source hands its state to write() with each vertex write; write() computes the
// mode's values only when ScalarColoring says they are stale (OpenMP loops of BodyScalarsCpu.hpp and
// DensityGrid.hpp), keeps them for the next frames, and maps them into the vertices' colour scalars. A mode that
// cannot be shown leaves the component colours in place and records why. Force errors are reused across states for a
// while (ScalarColoring), during which ORB may permute the bodies: the ids they were computed for are kept, and when
// the bodies' order no longer matches, the errors follow their bodies by id, so every body keeps its own.
#include "color/ScalarColoring.hpp"

#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/SolverRegistry.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gravlab {

/// What the CPU backend's state offers the colour quantities.
struct CpuColorInputs {
    const Bodies& bodies;
    const Vec3Arrays<float>* accelerations; ///< of the last force evaluation; nullptr when none is current
    GravityParams gravity;                  ///< what the accelerations were computed with
    const SolverInfo* solver;               ///< the solver that computed them; nullptr before the first evaluation
    std::uint64_t stateVersion;             ///< changes whenever the state or the accelerations change
    double openingAngle;                    ///< of the tree the potentials are measured with
};

class ScalarColorsCpu {
public:
    ScalarColoring& coloring() { return m_coloring; }
    const ScalarColoring& coloring() const { return m_coloring; }
    /// For a scalar mode: maps the mode's values (computed first when stale) into out's colour scalars, or leaves the
    /// component colours already there and records why. out holds one vertex per body.
    void write(const CpuColorInputs& inputs, std::span<RenderVertex> out);
    /// The values of the last write, one per body (NaN where a body has none).
    const std::vector<float>& values() const { return m_values; }

private:
    /// Reorders the force errors in m_values from the bodies m_forceErrorIds names to the bodies `ids` names.
    void followBodiesById(const std::vector<std::uint64_t>& ids);
    /// Computes m_values for the current (scalar) mode and records them in m_coloring.
    void computeValues(const CpuColorInputs& inputs);

    ScalarColoring m_coloring;
    std::vector<float> m_values;
    std::vector<std::uint64_t> m_forceErrorIds; ///< the ids of the bodies m_values holds force errors of, in order
};

} // namespace gravlab
