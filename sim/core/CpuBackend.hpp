#pragma once
// The CPU fallback backend: leapfrog KDK on host vectors around any solver the registry has a CPU implementation of
// (CpuForceSolver.hpp: the float OpenMP direct sum, the Barnes-Hut octree).
//
// Design note: the accelerations of the last force evaluation are cached together with what they were computed with
// (solver, G, softening and, for solvers that read it, theta), so each KDK step needs one force evaluation; the cache
// is dropped on load() and whenever one of those differs. Every step() call first copies the state (O(N), next to the
// force evaluation): when a step leaves a non-finite position or velocity the copy is put back and NonFiniteStateError
// is thrown, so a too-large time step never destroys the user's system; any other exception (the octree running out of
// memory) also puts the copy back before it propagates.
// The solver instance is created from the registry when the requested solver changes; what it built from the
// positions (the octree) is dropped whenever the state changes other than by its own evaluation. Reported phases:
// the solver's (SolverInfo::cpuPhases), then "integrate", then "orb" while ORB is on. Non-finite positions are never
// handed to a solver: the evaluation then yields NaN accelerations, so the step's finiteness check reports and rolls
// back. In double precision (the bodies carry low parts, Precision.hpp) the kicks and drifts run on the pairs in double
// and the accelerations of an fp64 solver keep their low parts (CpuForceSolver::readAccelerationLowParts); the
// rollback copy is a copy of the Bodies, so it holds the low parts too.
// With hierarchical time steps (SimParams::timeSteps) each step() base step is HierarchicalStepperCpu's sequence of
// sub-steps around this backend's solver and domains (CpuBackendTimeSteps.cpp); it ends synchronised like a KDK step,
// so the cache, the rollback and the finiteness check work unchanged.
#include "color/ScalarColorsCpu.hpp"
#include "core/HierarchicalStepper.hpp"
#include "orb/OrbDomainsCpu.hpp"
#include "solvers/SolverForceSettings.hpp"
#include "solvers/CpuForceSolver.hpp"

#include <gravlab/sim/SimulationBackend.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>

namespace gravlab {

/// Bodies whose position (or, unless positionsOnly, velocity) is not finite; one O(N) pass.
std::size_t countNonFiniteBodies(const Bodies& bodies, bool positionsOnly);

class CpuBackend final : public SimulationBackend {
public:
    /// Host bytes per body of a run on this backend (for MemoryBudget.hpp): what stays allocated between steps, and
    /// the most a load or a step allocates on top of it for a while.
    struct HostBytesPerBody {
        std::uint64_t resident = 0;
        std::uint64_t transient = 0;
    };
    /// Counted from the members below and the octree's and ORB's buffers, for params' solver and ORB setting.
    static HostBytesPerBody hostBytesPerBody(const SimParams& params);

    CpuBackend() = default;
    /// why: a note appended to description(), e.g. why the CUDA backend was not chosen.
    explicit CpuBackend(std::string why) : m_why(std::move(why)) {}

    std::string description() const override;
    Device device() const override { return Device::Cpu; }
    void load(const Bodies& bodies) override;
    /// In place; drops the cached accelerations (an fp64 solver's gain or lose their low parts).
    void setPrecision(Precision precision) override;
    void step(const SimParams& params, int stepCount) override;
    void reverseVelocities() override;
    void readBodies(Bodies& out) const override;
    BodyIdentity bodyIdentity(std::size_t index) const override;
    /// On the backend's own arrays, no copies.
    std::optional<BodyInspection> inspectBody(const SimParams& params, std::uint64_t id) const override;
    std::vector<std::optional<BodyPosition>> bodyPositions(std::span<const std::uint64_t> ids) const override {
        return bodyPositionsOnHost(m_bodies, ids);
    }
    Diagnostics diagnostics(const SimParams& params) const override;
    /// The tree potential of the host state, without copying it.
    Diagnostics measureDiagnostics(const SimParams& params, PotentialMethod method) override;
    void readPotentials(const SimParams& params, std::vector<float>& out) override;
    void readAccelerations(const SimParams& params, Vec3Arrays<float>& out) override;
    std::vector<PhaseTiming> lastStepTimings() const override;
    void updateOrbDomains(const SimParams& params) override;
    /// Levels as the next base step starts them and the work of the last step() call (CpuBackendTimeSteps.cpp).
    TimeStepStatistics timeStepStatistics() const override;
    VisualSource& visuals() override { return m_visuals; }
    const VisualSource& visuals() const override { return m_visuals; }

    // The visual source holds a reference to this backend.
    CpuBackend(const CpuBackend&) = delete;
    CpuBackend& operator=(const CpuBackend&) = delete;

private:
    /// What cached accelerations were computed with.
    using ForceSettings = SolverForceSettings;

    static ForceSettings forceSettingsOf(const SimParams& params);
    /// Recomputes m_accelerations unless they are valid for settings; phase times are added to times.
    void ensureAccelerations(const ForceSettings& settings, std::vector<PhaseTiming>& times);
    /// Computes m_accelerations for the current positions with settings' solver (created when it is a new one).
    void computeAccelerations(const ForceSettings& settings, std::vector<PhaseTiming>& times);
    /// One KDK step, with the ORB update between the drift and the force evaluation.
    void stepOnce(const ForceSettings& settings, const SimParams& params, std::vector<PhaseTiming>& times);
    void dropCachedForces();
    /// One base step of hierarchical time steps (HierarchicalStepper.hpp) around this backend's solver and ORB domains.
    void stepHierarchical(const ForceSettings& settings, const SimParams& params, std::vector<PhaseTiming>& times);
    /// Accelerations and work of the listed bodies only (all of them: computeAccelerations).
    void computeAccelerationsOf(const ForceSettings& settings, std::span<const std::uint32_t> targets,
                                std::vector<PhaseTiming>& times);
    /// ORB's work weights: interactions per evaluation, times the evaluations per base step under hierarchical steps.
    std::vector<float> orbWorkWeights() const;
    /// Whether m_hierarchical's levels describe the bodies as they are (no load, rollback or re-order since).
    bool levelsCurrent() const;
    /// Each body's colour scalar level / maxLevel into out when the levels are current; false (out untouched) if not.
    bool writeTimeStepLevelColors(std::span<RenderVertex> out) const;

    /// What is drawn of the backend's host state; the colour mode is its own.
    class Visuals final : public VisualSource {
    public:
        explicit Visuals(const CpuBackend& backend) : m_backend(backend) {}
        std::size_t vertexCount() const override { return m_backend.m_bodies.size(); }
        /// out must hold exactly vertexCount() vertices.
        void writeVertices(std::span<RenderVertex> out) const override;
        void setColorMode(ColorMode mode) override { m_scalars.coloring().setMode(mode); }
        ColorMode colorMode() const override { return m_scalars.coloring().mode(); }
        void setColorScaleChoice(ColorScaleChoice choice) override { m_scalars.coloring().setScaleChoice(choice); }
        ColorScaleChoice colorScaleChoice() const override { return m_scalars.coloring().scaleChoice(); }
        ColorScale colorScale(const UnitSystem& units) const override { return m_scalars.coloring().scale(units); }
        void readColorValues(std::vector<float>& out) const override;
        bool drawsTreeCells() const override {
            return m_backend.m_solverInfo && m_backend.m_solverInfo->drawsTreeCells && m_backend.m_accelerationsValid;
        }
        void collectTreeCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const override;
        void collectOrbCells(std::vector<OrbCell>& out) const override { out = m_backend.m_orb.cells(); }
        /// As of the end of the last step(), load() or updateOrbDomains() (the panel asks every frame: no O(N) here).
        OrbStatus orbStatus() const override { return m_backend.m_orbStatus; }

    private:
        /// Leaf depths, ORB domains or a per-body quantity into out's colour scalars, as the colour mode says.
        void writeModeColors(std::span<RenderVertex> out) const;

        const CpuBackend& m_backend;
        /// The colour mode and its per-body values, kept between frames (a vertex write is logically const).
        mutable ScalarColorsCpu m_scalars;
    };

    std::string m_why;
    Bodies m_bodies;
    Vec3Arrays<float> m_accelerations;
    /// Low parts of m_accelerations when the solver sums in fp64 and the state is in double precision; else empty.
    Vec3Arrays<float> m_accelerationLow;
    std::vector<float> m_work; ///< interactions per body of the last force evaluation: ORB's work weights
    bool m_accelerationsValid = false;
    /// m_accelerations hold an evaluation's results for the bodies in their current order, however far they have
    /// moved since: what the relative opening criterion reads (ORB's permutations carry them).
    bool m_accelerationsInBodyOrder = false;
    ForceSettings m_accelerationsSettings;
    std::unique_ptr<CpuForceSolver> m_solver;
    const SolverInfo* m_solverInfo = nullptr; ///< what m_solver is
    OrbDomainsCpu m_orb;
    OrbStatus m_orbStatus; ///< m_orb.status(m_work) when the domains or the work last changed
    std::uint64_t m_stepsSinceLoad = 0;
    /// Counts changes of the state or of the accelerations, so the colour quantities know when they are stale.
    std::uint64_t m_stateVersion = 0;
    std::vector<PhaseTiming> m_lastTimings;
    TimeStepMode m_lastTimeStepMode = TimeStepMode::Fixed; ///< of the last step() call
    HierarchicalStepperCpu m_hierarchical;
    std::uint64_t m_levelsStateVersion = 0; ///< m_stateVersion when m_hierarchical's levels were last assigned
    Visuals m_visuals{*this};
};

} // namespace gravlab
