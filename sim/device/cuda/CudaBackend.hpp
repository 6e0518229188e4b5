#pragma once
// The CUDA core as a SimulationBackend: bodies live on the device, steps run there, the host sees copies on demand.
//
// Design note: one non-blocking stream carries all work, in order: kick-drift, the ORB update while ORB is on
// (OrbDomainsGpu.hpp), forces by the solver the registry creates for params.solver (CudaForceSolver.hpp), kick
// (DeviceLeapfrog.hpp), with CUDA events between the phases for lastStepTimings() (device time summed over the last
// step() call, including the force evaluation that a fresh load or changed force settings need before the first kick):
// the solver's phases (SolverInfo::cudaPhases), then "integrate", plus "orb" while ORB is on. Accelerations
// stay on the device between steps, so each step costs one force evaluation. Every step() call first copies positions
// and velocities aside (32 bytes per body, one device copy); when a step leaves a body with a NaN or inf, the call
// restores that copy and throws, naming the step and the count, so a blown-up run loses nothing and can continue with a
// smaller dt. The tree notices non-finite positions before it builds (DeviceTree's status read); the kick counts
// non-finite velocities at the end of each step. The bodies keep the order they were loaded in, or, while ORB is on,
// the domain-major order its re-partitions and migrations give them (docs/ARCHITECTURE.md, "Body order"): the tree
// solver sorts a copy of the positions (in the scratch array) and writes each acceleration back to its body through its
// permutation. A rolled-back step also drops the domains (the saved copy predates any migration), so the next step
// re-partitions. What is drawn is offered by visuals(): a host copy of the vertices (writeVertices, staged in the
// scratch array the tree uses for its permutation) or, through CUDA-GL interop, a write into a device pointer to the
// mapped GL buffer (writeVerticesOnDevice), which never leaves the GPU.
// Hierarchical time steps (SimParams::timeSteps) replace each KDK step by a base step of sub-steps
// (CudaBackendTimeSteps.cpp, DeviceHierarchicalLeapfrog.hpp) that ends synchronised, with every body's closing kick
// counting non-finite bodies, so rollback and the cached accelerations work as for fixed steps.
// Double precision (Precision.hpp): the bodies gain low-part arrays (DeviceBodies.hpp), the kicks and drifts run on
// the pairs in double (DeviceLeapfrogPairs.hpp) with the fp64 solver's acceleration low parts, the rollback copy holds
// the position and velocity low parts too (32 bytes per body more), and the diagnostics read the pairs. Single
// precision allocates none of it.
#include "color/cuda/ScalarColorsGpu.hpp"
#include "device/cuda/CudaStream.hpp"
#include "device/cuda/DeviceBodies.hpp"
#include "device/cuda/DeviceBodyInspection.hpp"
#include "device/cuda/DeviceBodyLookup.hpp"
#include "device/cuda/PhaseTimeline.hpp"
#include "device/cuda/StepRollback.hpp"
#include "orb/cuda/OrbDomainsGpu.hpp"
#include "solvers/cuda/CudaForceSolver.hpp"
#include "tree/cuda/DeviceTree.hpp"

#include <gravlab/sim/DeviceInfo.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <cstdint>
#include <memory>
#include <string_view>

namespace gravlab {

class CudaBackend final : public SimulationBackend {
public:
    /// Device bytes per body: state (52), the rollback copy (36 with ORB, StepRollback.hpp), the scratch array (16)
    /// and the tree solver's buffers (at most 48: 13 per body, about 0.12 cells of 87 bytes per body for a Plummer
    /// sphere, and walk groups, with room for more clustered sets). Measured by `gravlab bench --solver tree` on an
    /// H100: 116 to 118 bytes per body in all at N = 2^24 (without ORB).
    static constexpr std::uint64_t kDeviceBytesPerBody =
        DeviceBodies::kBytesPerBody + StepRollback::kBytesPerBodyWithReorder + 16 + 48;
    /// Hierarchical time steps add a level and an active flag (1 byte each) and an active-list entry (4) per body;
    /// the tree's second walk queue is within its 48.
    static constexpr std::uint64_t kHierarchicalBytesPerBody = 1 + 1 + 4;

    /// Uses the current CUDA device; throws std::runtime_error when there is none.
    CudaBackend();

    std::string description() const override;
    Device device() const override { return Device::Cuda; }
    /// Throws std::runtime_error naming N and the memory needed when the bodies do not fit; the old state is kept.
    void load(const Bodies& bodies) override;
    /// Allocates (zeros) or frees the low parts on the device, in place; the cached accelerations are dropped.
    void setPrecision(Precision precision) override;
    /// Any solver registered for CUDA; throws InvalidParameterError for others. Throws NonFiniteStateError, naming the
    /// step and the count, when a step left a non-finite position or velocity, after restoring the state from before
    /// this call.
    void step(const SimParams& params, int stepCount) override;
    /// One kernel on the backend's stream; the cached accelerations stay current (positions did not move).
    void reverseVelocities() override;
    void readBodies(Bodies& out) const override;
    BodyIdentity bodyIdentity(std::size_t index) const override;
    /// Recomputes the accelerations first when they are stale for params (solver, G, softening, theta for the tree).
    /// out follows the order readBodies() returns (only ORB re-partitions and migrations reorder the bodies).
    void readAccelerations(const SimParams& params, Vec3Arrays<float>& out) override;
    /// The id's load index from the host table, then a device search for where ORB has moved that body, then a copy
    /// of its three float4 and the device's fp64 potential (DeviceBodyInspection.hpp).
    std::optional<BodyInspection> inspectBody(const SimParams& params, std::uint64_t id) const override;
    /// Load indices from the host table (cached per id until the next load), one device pass for where they are now,
    /// then one 16-byte copy per body found.
    std::vector<std::optional<BodyPosition>> bodyPositions(std::span<const std::uint64_t> ids) const override;
    Diagnostics diagnostics(const SimParams& params) const override;
    /// Tree: the potentials of computePotentialsOnDevice(), reduced on the device in fp64.
    Diagnostics measureDiagnostics(const SimParams& params, PotentialMethod method) override;
    void readPotentials(const SimParams& params, std::vector<float>& out) override;
    /// Computes phi_i (with G) of every body by the tree at params.openingAngle into a device buffer the backend owns,
    /// in body order (the order of the vertices and of readBodies()), queued on stream(); the pointer stays valid until
    /// the next call, load() or the backend's end. Reuses the tree solver's octree when it is current for params,
    /// else builds a separate one (CudaBackendPotentials.cpp). For the potential colour map and the energy plots; const
    /// (the buffer and the separate octree are caches, like the scratch array) so that visuals() can call it.
    const float* computePotentialsOnDevice(const SimParams& params) const;
    std::vector<PhaseTiming> lastStepTimings() const override { return m_lastTimings; }
    void updateOrbDomains(const SimParams& params) override;
    /// Levels as the next base step starts them and the work of the last step() call (CudaBackendTimeSteps.cpp);
    /// host copies, no device access.
    TimeStepStatistics timeStepStatistics() const override;
    VisualSource& visuals() override { return m_visuals; }
    const VisualSource& visuals() const override { return m_visuals; }

    // The visual source holds a reference to this backend.
    CudaBackend(const CudaBackend&) = delete;
    CudaBackend& operator=(const CudaBackend&) = delete;

    /// The implementation of solver name, created now unless it is the current one, for tests that reach into it
    /// (the octree's walk-group override, its host copy) before or after stepping with it.
    CudaForceSolver& prepareSolver(std::string_view name) {
        useSolver(findSolver(name));
        return *m_solver;
    }
    /// Solver-specific figures of the last evaluation (octree cells, walk groups), for reports.
    std::vector<SolverStatistic> solverStatistics() const override;
    std::size_t bodyCount() const { return m_bodies.size(); }
    cudaStream_t stream() const { return m_stream.get(); }
    const DeviceSummary& deviceSummary() const { return m_device; }
    /// Device memory held for the bodies and the solvers, in bytes.
    std::uint64_t allocatedBytes() const;

private:
    /// What is drawn of the device state; the colour mode is its own. Tree and ORB cells are copied from the device on
    /// each call (call it when the overlay changes or a frame needs it, not more).
    class Visuals final : public VisualSource {
    public:
        explicit Visuals(const CudaBackend& backend) : m_backend(backend) {}
        std::size_t vertexCount() const override { return m_backend.m_bodies.size(); }
        void writeVertices(std::span<RenderVertex> out) const override;
        bool canWriteVerticesOnDevice() const override { return true; }
        /// The backend's stream.
        StreamHandle deviceStream() const override { return {m_backend.m_stream.get()}; }
        void writeVerticesOnDevice(RenderVertex* vertices, std::size_t capacity, StreamHandle stream) const override;
        void setColorMode(ColorMode mode) override { m_scalars.coloring().setMode(mode); }
        ColorMode colorMode() const override { return m_scalars.coloring().mode(); }
        void setColorScaleChoice(ColorScaleChoice choice) override { m_scalars.coloring().setScaleChoice(choice); }
        ColorScaleChoice colorScaleChoice() const override { return m_scalars.coloring().scaleChoice(); }
        ColorScale colorScale(const UnitSystem& units) const override { return m_scalars.coloring().scale(units); }
        void readColorValues(std::vector<float>& out) const override;
        std::uint64_t allocatedBytes() const { return m_scalars.allocatedBytes(); }
        bool drawsTreeCells() const override {
            return m_backend.m_solverInfo && m_backend.m_solverInfo->drawsTreeCells && m_backend.m_accelerationsCurrent;
        }
        void collectTreeCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const override;
        void collectOrbCells(std::vector<OrbCell>& out) const override;
        OrbStatus orbStatus() const override { return m_backend.m_orbDomains.status(); }

    private:
        /// bodyCount vertices in the colour mode's colours into vertices (a device pointer), queued on stream.
        void writeOnStream(RenderVertex* vertices, cudaStream_t stream) const;

        /// Leaf depths or ORB domains into vertices when the mode asks for them and they exist; false otherwise.
        bool writeTreeOrDomainColors(RenderVertex* vertices, cudaStream_t stream) const;

        const CudaBackend& m_backend;
        /// The colour mode and its per-body values, kept between frames (a vertex write is logically const).
        mutable ScalarColorsGpu m_scalars;
    };

    struct ForceSettings {
        const SolverInfo* solver;
        GravityParams gravity;
        double openingAngle;
        OpeningCriterion openingCriterion;
        double forceAccuracy;
        bool operator==(const ForceSettings& other) const;
    };
    static ForceSettings forceSettingsOf(const SimParams& params);
    /// Creates solver's implementation unless it is the current one; sets up the phases it and the step time.
    void useSolver(const SolverInfo& solver);
    /// The phases of the current solver, the integrator and ORB ("orb" only while it is on) with their times.
    std::vector<PhaseTiming> timingsOf(const SimParams& params, const std::vector<double>& totals) const;

    /// Evaluates forces with settings; returns 0, or the count of bodies with non-finite positions the solver found.
    unsigned refreshAccelerations(const ForceSettings& settings);
    bool accelerationsCurrentFor(const ForceSettings& settings) const;
    /// The step's ORB update, after the drift and before the force evaluation (which follows the new order).
    void updateOrbAfterDrift(const SimParams& params);
    /// One base step of hierarchical time steps (DeviceHierarchicalLeapfrog.hpp), step stepIndex of this call.
    void stepHierarchical(const ForceSettings& settings, const SimParams& params, int stepIndex);
    /// Forces of the activeCount bodies the sub-step's opening pass listed (all of them: refreshAccelerations).
    unsigned evaluateActive(const ForceSettings& settings, std::size_t activeCount);
    /// The device histogram of levels, after the stream's work so far (waits for it).
    void readLevelHistogram();
    /// m_earlierAccelerations for a symmetric or tidal base step: kept when they describe the state, else cleared.
    float4* prepareEarlierAccelerations();
    /// Whether m_levelOfLoad describes the state (a hierarchical step was the last change).
    bool levelsCurrent() const;
    /// Kick-drift (the first half of a step) and the closing kick with its non-finite count, in the state's precision.
    void kickDrift(float halfStep, float timeStep, double timeStepFp64);
    void kickAndCount(float halfStep, double timeStepFp64, unsigned* nonFiniteCount);
    /// Puts back the state m_rollback kept at the start of the step() call.
    void restoreState();
    /// Restores the state and throws for the first step of this call whose kick left non-finite bodies, or else for
    /// step stepIndex, whose tree found nonFiniteBodies.
    [[noreturn]] void failBeforeBuild(int stepIndex, unsigned nonFiniteBodies);
    void throwIfNonFinite(const std::vector<unsigned>& nonFiniteCounts);
    /// The coincident pair the solver met under softening 0 since the last call, named by id (CoincidentBodies.hpp).
    std::optional<CoincidentPair> takeCoincidentPair();
    /// Restores the saved state and throws CoincidentBodiesError when the step's evaluations met a coincident pair.
    void throwIfCoincident();

    DeviceSummary m_device;
    CudaStream m_stream;
    DeviceBodies m_bodies;
    StepRollback m_rollback; ///< the state at the start of the current step() call
    /// One float4 per body: the tree's permutation buffer during a step, the host render path's staging between steps.
    mutable DeviceBuffer<float4> m_bodyScratch;
    DeviceBuffer<unsigned> m_nonFiniteCounts; ///< one counter per step of the current step() call
    std::unique_ptr<CudaForceSolver> m_solver;
    const SolverInfo* m_solverInfo = nullptr;
    std::vector<std::string_view> m_phaseNames; ///< the solver's phases, then "integrate" and "orb"
    std::size_t m_integratePhase = 0;
    std::size_t m_orbPhase = 0;
    OrbDomainsGpu m_orbDomains;
    mutable CudaEvent m_stateReady;      ///< device vertex write: the caller's stream waits for the last step
    mutable CudaEvent m_verticesWritten; ///< device vertex write: the next step waits for it
    PhaseTimeline m_timeline{0};
    std::vector<PhaseTiming> m_lastTimings;
    bool m_accelerationsCurrent = false;
    /// m_bodies.acceleration holds an evaluation's results for the bodies in their current order (ORB carries them),
    /// however far the bodies have moved since: what the relative opening criterion reads.
    bool m_accelerationsInBodyOrder = false;
    ForceSettings m_accelerationSettings{};
    std::uint64_t m_stepsTaken = 0;
    /// Load indices of ids asked for since the last load: a linear search of the id table per frame and trail would
    /// cost O(N) on the host each time.
    mutable DeviceBodyLookup m_lookup; ///< who a body is and where an id is: inspections, trails, follow
    /// Counts changes of the state or of the accelerations, so the colour quantities know when they are stale.
    std::uint64_t m_stateVersion = 0;
    mutable DeviceBuffer<float> m_potential; ///< per body, computePotentialsOnDevice()
    /// Built on request while the stepping solver has no current tree.
    mutable std::unique_ptr<DeviceTree> m_potentialTree;
    // Hierarchical time steps (allocated on first use: 6 bytes per body).
    DeviceBuffer<std::uint8_t> m_levelOfLoad;         ///< level per body, in load order (ORB moves leave it valid)
    DeviceBuffer<std::uint8_t> m_isTarget;            ///< per body: active in the current sub-step
    DeviceBuffer<std::uint32_t> m_activeList;         ///< the active bodies' indices
    DeviceBuffer<unsigned> m_levelCounters;           ///< bodies per level (17), then the active count
    DeviceBuffer<unsigned long long> m_surplusBodies; ///< tree groups' inactive bodies walked in this call
    std::vector<unsigned> m_levelHistogram;           ///< host copy of the device histogram
    /// The memory of the symmetric and tidal level choices (DeviceHierarchicalLeapfrog.hpp; 16 bytes per body,
    /// allocated on its first use) and whether it describes the state: dropped by a load, a rollback, reversed
    /// velocities and any step taken under neither choice.
    DeviceBuffer<float4> m_earlierAccelerations;
    bool m_earlierAccelerationsCurrent = false;
    TimeStepMode m_lastTimeStepMode = TimeStepMode::Fixed;
    std::uint32_t m_levelsMaxLevel = 0;
    std::uint64_t m_levelsStateVersion = 0;
    std::uint64_t m_baseStepsInCall = 0, m_subStepsInCall = 0, m_forceEvaluationsInCall = 0, m_surplusInCall = 0;
    Visuals m_visuals{*this};
};

} // namespace gravlab
