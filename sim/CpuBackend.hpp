#pragma once
// The CPU fallback backend: float direct summation or the Barnes-Hut octree (OpenMP), and leapfrog KDK on host
// vectors.
//
// Design note: the accelerations of the last force evaluation are cached together with what they were computed with
// (solver, G, softening and, for the tree, theta), so each KDK step needs one force evaluation; the cache is dropped
// on load() and whenever one of those differs. Every step() call first copies the state (O(N), next to the force
// evaluation): when a step leaves a non-finite position or velocity the copy is put back and NonFiniteStateError is
// thrown, so a too-large time step never destroys the user's system; any other exception (the octree running out of
// memory) also puts the copy back before it propagates.
// SolverKind::Tree builds, summarizes and walks the CPU octree (phases "build", "summary", "force", "integrate");
// Direct and DirectSymmetric both run the direct sum (the pair-once variant only pays off on the GPU). The octree of
// the last tree evaluation stays for what is drawn (visuals(): the overlay's cells and the leaf-depth colours); it
// describes the current positions, since every step ends with a force evaluation, and it is dropped whenever the
// state or the solver changes. Non-finite positions are never handed to the octree: the tree path then yields NaN
// accelerations, so the step's finiteness check reports and rolls back.
#include "DirectSumCpu.hpp"
#include "OctreeCpu.hpp"
#include "OrbDomainsCpu.hpp"
#include "SimulationBackend.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace gravlab {

class CpuBackend final : public SimulationBackend {
public:
    CpuBackend() = default;
    /// why: a note appended to description(), e.g. why the CUDA backend was not chosen.
    explicit CpuBackend(std::string why) : m_why(std::move(why)) {}

    std::string description() const override;
    void load(const Bodies& bodies) override;
    void step(const SimParams& params, int stepCount) override;
    void readBodies(Bodies& out) const override;
    Diagnostics diagnostics(const SimParams& params) const override;
    void readAccelerations(const SimParams& params, Vec3Arrays<float>& out) override;
    std::vector<PhaseTiming> lastStepTimings() const override;
    void updateOrbDomains(const SimParams& params) override;
    VisualSource& visuals() override { return m_visuals; }
    const VisualSource& visuals() const override { return m_visuals; }

    // The visual source holds a reference to this backend.
    CpuBackend(const CpuBackend&) = delete;
    CpuBackend& operator=(const CpuBackend&) = delete;

private:
    /// What cached accelerations were computed with.
    struct ForceSettings {
        SolverKind solver = SolverKind::Direct;
        double gravitationalConstant = 0;
        double softeningLength = 0;
        double openingAngle = 0; ///< only compared for SolverKind::Tree

        bool sameForces(const ForceSettings& other) const;
    };
    /// Milliseconds spent in the phases of force evaluations.
    struct ForceTimes {
        double build = 0, summary = 0, force = 0;
        ForceTimes& operator+=(const ForceTimes& other);
    };

    static ForceSettings forceSettingsOf(const SimParams& params);
    /// Recomputes m_accelerations unless they are valid for settings.
    ForceTimes ensureAccelerations(const ForceSettings& settings);
    /// Computes m_accelerations for the current positions.
    ForceTimes computeAccelerations(const ForceSettings& settings);
    ForceTimes computeTreeAccelerations(const ForceSettings& settings);
    /// One KDK step, with the ORB update between the drift and the force evaluation; adds its integration time to
    /// integrateMs and its ORB time to orbMs.
    ForceTimes stepOnce(const ForceSettings& settings, const SimParams& params, double& integrateMs, double& orbMs);
    void dropCachedForces();

    /// What is drawn of the backend's host state; the colour mode is its own.
    class Visuals final : public VisualSource {
    public:
        explicit Visuals(const CpuBackend& backend) : m_backend(backend) {}
        std::size_t vertexCount() const override { return m_backend.m_bodies.size(); }
        /// out must hold exactly vertexCount() vertices.
        void writeVertices(std::span<RenderVertex> out) const override;
        void setColorMode(ColorMode mode) override { m_colorMode = mode; }
        ColorMode colorMode() const override { return m_colorMode; }
        bool drawsTreeCells() const override { return m_backend.m_treeValid; }
        void collectTreeCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const override;
        void collectOrbCells(std::vector<OrbCell>& out) const override { out = m_backend.m_orb.cells(); }
        /// As of the end of the last step(), load() or updateOrbDomains() (the panel asks every frame: no O(N) here).
        OrbStatus orbStatus() const override { return m_backend.m_orbStatus; }

    private:
        const CpuBackend& m_backend;
        ColorMode m_colorMode = ColorMode::Component;
    };

    std::string m_why;
    Bodies m_bodies;
    Vec3Arrays<float> m_accelerations;
    std::vector<float> m_work; ///< interactions per body of the last force evaluation: ORB's work weights
    bool m_accelerationsValid = false;
    ForceSettings m_accelerationsSettings;
    OctreeCpu m_tree;
    bool m_treeValid = false; ///< m_tree was built from the current positions
    OrbDomainsCpu m_orb;
    OrbStatus m_orbStatus; ///< m_orb.status(m_work) when the domains or the work last changed
    std::uint64_t m_stepsSinceLoad = 0;
    std::vector<PhaseTiming> m_lastTimings;
    Visuals m_visuals{*this};
};

} // namespace gravlab
