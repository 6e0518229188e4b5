#pragma once
// The CUDA backend of a run spread over MPI ranks, one GPU per rank: each rank steps its own bodies on its GPU, forces
// come from every rank's.
//
// Design note: the structure of the distributed CPU backend (DistributedCpuBackend.hpp) with the bodies on the device
// and the per-step exchange through NCCL (NcclCommunicator.hpp), so nothing crosses the host in a step between
// re-partitions. Every rank holds one device array of all N bodies in rank order (DeviceBodies, 52 bytes per body as
// on one GPU): its own slice carries the state it steps; before each force evaluation the ranks' slices of positions
// and masses (16 bytes per body), and under the relative opening criterion their previous accelerations (16 more),
// are all-gathered into every rank's array by grouped NCCL broadcasts. The registered CUDA solver then evaluates the
// rank's slice against all bodies (CudaForceSolver::computeAccelerationsOf, the partial evaluation hierarchical time
// steps use): the tree is the global tree walked for the local walk groups, the direct sum the local rows. Each
// target's sum runs over the same bodies as on one GPU, so trajectories match one GPU to float rounding.
// Domains: one ORB domain per rank, cut at load and every --orb-every steps by every rank on its own GPU. A re-cut
// first all-gathers the rest of the state (velocities with colour keys, previous accelerations with the work weights
// the solver leaves in the acceleration's fourth lane), so every rank holds the same bodies; each then runs the same
// single-GPU build (OrbGpu) on its array of all bodies, which permutes that array into domain order. The build is
// deterministic (exact integer counts and fixed-point weights, a stable scatter), so every rank arrives at the same
// cuts and the same order without exchanging them, whatever its GPU; under count balance they are OrbCpu's cells of
// the whole set. Who a body is follows it as on one GPU: the build permutes the load order with the bodies, and the
// identity tables stay in load order (DeviceBodyLookup.hpp), so a re-cut moves nothing on the host. Between re-cuts
// the bodies stay on their ranks (the global tree makes any split correct; the domains only make walk groups
// rank-pure). Cutting on the GPUs replaced a cut on the host over MPI (download, collective radix select, all-to-all,
// upload): at 32M bodies on 2 H200s a re-cut took 5.5 s that way; docs/PERFORMANCE.md has both. The replicated tree
// build (O(N log N) on every GPU) and the O(N) gather per step bound the speed-up; docs/PERFORMANCE.md measures where.
// Collectives as in the CPU backend: load(), step(), diagnostics(), readBodies(), readAccelerations() and the defaults
// built on readBodies() are called by all ranks in the same order; what is drawn (every rank's array holds every
// position after each step) is read without communicating. A step that leaves a non-finite body on any rank restores
// the state of the call's start on every rank, which all throw the same NonFiniteStateError. Refused with the flag to
// change: what DistributedSupport.hpp lists, and softening 0 (the coincident-pair report is per process).
#include "color/ScalarColoring.hpp"
#include "device/cuda/CudaStream.hpp"
#include "device/cuda/DeviceBodies.hpp"
#include "device/cuda/DeviceBodyLookup.hpp"
#include "device/cuda/PhaseTimeline.hpp"
#include "distributed/DistributedOrb.hpp"
#include "distributed/RankSlices.hpp"
#include "distributed/cuda/NcclCommunicator.hpp"
#include "orb/cuda/OrbGpu.hpp"
#include "solvers/SolverForceSettings.hpp"
#include "solvers/cuda/CudaForceSolver.hpp"

#include <gravlab/sim/Communicator.hpp>
#include <gravlab/sim/DeviceInfo.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gravlab {

class DistributedCudaBackend final : public SimulationBackend {
public:
    /// Device bytes per body on every rank: the array of all bodies (52), the rollback copy of positions, velocities
    /// and load order (36), the solver's scratch array (16), the target flags and list (5), the tree's buffers (at most
    /// 48, as in CudaBackend) and the ORB build's records and load order (44 under work balance).
    static constexpr std::uint64_t kDeviceBytesPerBody =
        DeviceBodies::kBytesPerBody + 36 + 16 + 5 + 48 + OrbGpu::buildBytesPerBody(true);

    /// Collective (sets up NCCL); this rank's GPU must be current (selectRankDevice). communicator outlives the
    /// backend; why: a note appended to description().
    explicit DistributedCudaBackend(Communicator& communicator, std::string why = {});

    /// Throws InvalidParameterError naming the flag for what the distributed GPU step does not do.
    static void requireSupported(const SimParams& params);

    std::string description() const override;
    Device device() const override { return Device::Cuda; }
    /// Collective; every rank passes the same bodies. Throws naming N and the memory when they do not fit one GPU.
    void load(const Bodies& bodies) override;
    void setPrecision(Precision precision) override;
    /// Collective.
    void step(const SimParams& params, int stepCount) override;
    void reverseVelocities() override;
    /// Collective: every body in rank order, the same on every rank.
    void readBodies(Bodies& out) const override;
    BodyIdentity bodyIdentity(std::size_t index) const override;
    std::vector<std::optional<BodyPosition>> bodyPositions(std::span<const std::uint64_t> ids) const override;
    /// Collective: kinetic energy and momenta summed over the ranks' slices; the fp64 potential of all bodies, which
    /// every rank holds, computed on each GPU (the same there as on one GPU).
    Diagnostics diagnostics(const SimParams& params) const override;
    /// Collective: every body's acceleration, in readBodies' order.
    void readAccelerations(const SimParams& params, Vec3Arrays<float>& out) override;
    /// This rank's time per phase from CUDA events: the solver's, "exchange" (the NCCL all-gather, including the wait
    /// for the slowest rank), "integrate", and "orb" (re-cuts: the state's gather and the build; 0 in a
    /// call without one).
    std::vector<PhaseTiming> lastStepTimings() const override { return m_lastTimings; }
    std::vector<SolverStatistic> solverStatistics() const override;
    VisualSource& visuals() override { return m_visuals; }
    const VisualSource& visuals() const override { return m_visuals; }

    /// This rank's bodies' place in the array of all (for tests).
    RankSlice slice() const { return m_placement.slice; }
    const RankDomains& rankDomains() const { return m_placement.domains; }

    DistributedCudaBackend(const DistributedCudaBackend&) = delete;
    DistributedCudaBackend& operator=(const DistributedCudaBackend&) = delete;

private:
    /// The gathered positions as vertices with component or rank colours; the ranks' domains as ORB cells.
    class Visuals final : public VisualSource {
    public:
        explicit Visuals(const DistributedCudaBackend& backend) : m_backend(backend) {}
        std::size_t vertexCount() const override { return m_backend.m_all.size(); }
        void writeVertices(std::span<RenderVertex> out) const override;
        void setColorMode(ColorMode mode) override { m_coloring.setMode(mode); }
        ColorMode colorMode() const override { return m_coloring.mode(); }
        ColorScale colorScale(const UnitSystem& units) const override { return m_coloring.scale(units); }
        void collectOrbCells(std::vector<OrbCell>& out) const override { out = m_backend.m_placement.domains.cells; }
        OrbStatus orbStatus() const override;

    private:
        const DistributedCudaBackend& m_backend;
        mutable ScalarColoring m_coloring; ///< what the last vertex write showed
    };

    /// This rank's place among the domains: changed only by a re-cut.
    struct Placement {
        RankSlice slice;
        RankDomains domains; ///< with the bodies per rank, the slices' lengths
    };

    void useSolver(const SolverInfo& solver);
    /// params checked for what the step supports, their force settings, and their solver made current.
    SolverForceSettings prepareForces(const SimParams& params);
    /// This rank's slice as the solver's targets: the index list and the per-body flags, written on the device.
    void placeTargets();
    /// Cuts the domains on this rank's GPU over its array of all bodies, which must hold the same state on every rank,
    /// and puts the result in place: the array (load order included) permuted into domain order, this rank's slice.
    /// Collective in effect: every rank calls it with the same bodies.
    void cutDomains(OrbBalance balance);
    /// Gathers every rank's state into every rank's array and cuts the domains (cutDomains); returns 0, or, doing
    /// nothing, the number of bodies with a non-finite position (the same on every rank). Collective.
    std::uint64_t repartition(OrbBalance balance);
    /// The ranks' slices of positions (and previous accelerations when the criterion reads them) into every rank's
    /// array. Collective; queued on the stream.
    void exchange(bool withAccelerations);
    /// Exchange (unless the arrays are alike) and evaluate the local bodies; the count of non-finite positions (the
    /// same on every rank), 0 when done.
    unsigned refreshAccelerations(const SolverForceSettings& settings);
    /// Per-step non-finite counts of this call summed over ranks (waits for the stream). Collective.
    std::vector<std::uint64_t> nonFiniteCountsOnAllRanks(int steps);
    /// The state at the call's start back on every rank; throws NonFiniteStateError for step stepIndex of the call.
    [[noreturn]] void restoreAndThrow(int stepIndex, std::uint64_t affectedBodies);
    std::uint64_t allocatedBytes() const;
    /// This rank's slice of a per-body array of m_all.
    float4* local(DeviceBuffer<float4>& buffer) { return buffer.data() + m_placement.slice.begin; }
    const float4* local(const DeviceBuffer<float4>& buffer) const { return buffer.data() + m_placement.slice.begin; }

    Communicator& m_communicator;
    std::string m_why;
    DeviceSummary m_device;
    CudaStream m_stream;
    NcclCommunicator m_nccl;
    DeviceBodies m_all;                           ///< every body in rank order (see the design note)
    mutable DeviceBuffer<float4> m_scratch;       ///< the solver's per-body scratch; vertex staging between steps
    DeviceBuffer<std::uint32_t> m_targetIndex;    ///< this rank's bodies' indices in m_all
    DeviceBuffer<std::uint8_t> m_isTarget;        ///< per body of m_all: 1 on this rank's slice
    DeviceBuffer<unsigned> m_nonFiniteCounts;     ///< one per step of the current call
    DeviceBuffer<unsigned> m_lostBodies;          ///< a re-cut's count of non-finite positions
    OrbGpu m_orb;                                 ///< the ranks' domains, cut on every rank alike
    DeviceBuffer<float4> m_savedPositions;        ///< rollback: every position at the call's start
    DeviceBuffer<float4> m_savedVelocities;       ///< rollback: every velocity slot at the call's start
    DeviceBuffer<std::uint32_t> m_savedLoadOrder; ///< rollback: the load order before the call's first re-cut
    mutable DeviceBodyLookup m_lookup;            ///< who a body is and where an id is, through the load order
    Placement m_placement;
    std::optional<Placement> m_placementAtCallStart; ///< kept by the call's first re-partition, for a rollback
    std::uint64_t m_repartitions = 0;
    double m_lastRepartitionMilliseconds = 0;
    std::uint64_t m_stepsSinceRepartition = 0;
    std::uint64_t m_stepsSinceLoad = 0;
    std::unique_ptr<CudaForceSolver> m_solver;
    const SolverInfo* m_solverInfo = nullptr;
    std::vector<std::string_view> m_phaseNames; ///< the solver's, then "exchange", "integrate", "orb"
    std::size_t m_exchangePhase = 0, m_integratePhase = 0, m_orbPhase = 0;
    PhaseTimeline m_timeline{0};
    std::vector<PhaseTiming> m_lastTimings;
    /// Every rank's array holds the same positions and accelerations (after a cut, until this rank steps its slice):
    /// the force evaluation then needs no exchange.
    bool m_arraysAlike = false;
    bool m_accelerationsValid = false;
    bool m_accelerationsInBodyOrder = false; ///< the slice's accelerations are an evaluation's for these bodies
    SolverForceSettings m_accelerationsSettings;
    Visuals m_visuals{*this};
};

} // namespace gravlab
