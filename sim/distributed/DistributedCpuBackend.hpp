#pragma once
// The CPU backend of a run spread over MPI ranks: each rank steps its own bodies, forces come from every rank's.
//
// Design note: rank r owns the bodies of ORB domain r (DistributedOrb.hpp: cut collectively at load and every
// --orb-every steps, with --orb-balance, or sooner when the imbalance passes --orb-imbalance; in between, bodies that
// left their rank's domain migrate after each drift, carrying their previous acceleration) and steps them with the
// KDK leapfrog of the CPU backend (Leapfrog.hpp). Before the first re-partition the loaded set is split into
// contiguous slices (RankSlices.hpp). Forces: every rank all-gathers the positions and
// masses of all ranks (one message per rank per evaluation, 28 bytes a body: position, mass and the body's previous
// acceleration, which the relative opening criterion reads), so every rank holds the same global set in load order,
// and evaluates its own bodies against all of them with the registered CPU solver's partial evaluation
// (CpuForceSolver::computeAccelerationsOf, targets = its slice of the gathered set, which is in rank order): the tree
// is the global tree walked for the local bodies, the direct sum the local rows of the global sum. Each target's sum
// runs over the same bodies as in one process, in another order, so trajectories match one process to float rounding;
// with spatial domains a rank's bodies fill whole walk groups of the global tree, which the tree walks alone.
// The exchange costs O(N) bytes per rank per step, next to O(N^2 / K) or O(N log N / K) force work; every rank builds
// the whole tree (O(N log N) each), which bounds the speed-up of the tree solver until a spatial decomposition with
// local trees replaces it.
// Collectives: load() (every rank is handed the same bodies and keeps its slice), step(), diagnostics(),
// readBodies(), readAccelerations() and the defaults built on readBodies() (measureDiagnostics' tree potential,
// readPotentials, inspectBody) must be called by all ranks in the same order. What is drawn is not: the gathered
// positions of the last evaluation are the current positions (the closing kick moves none), so visuals(),
// bodyIdentity() and bodyPositions() answer on every rank without communicating. A step that leaves a non-finite body
// on any rank is rolled back on every rank, which all throw the same NonFiniteStateError (the count is reduced).
// Refused for now, with the flag to change (DistributedSupport.hpp): hierarchical time steps, ORB domains of one's
// own (the ranks' are automatic) and double precision.
#include "color/ScalarColoring.hpp"
#include "distributed/DistributedOrb.hpp"
#include "distributed/RankSlices.hpp"
#include "solvers/SolverForceSettings.hpp"
#include "solvers/CpuForceSolver.hpp"

#include <gravlab/sim/Communicator.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace gravlab {

class DistributedCpuBackend final : public SimulationBackend {
public:
    /// communicator outlives the backend; why: a note appended to description(), e.g. why the CUDA backend was not
    /// chosen.
    explicit DistributedCpuBackend(Communicator& communicator, std::string why = {});

    std::string description() const override;
    Device device() const override { return Device::Cpu; }
    /// Collective; every rank passes the same bodies.
    void load(const Bodies& bodies) override;
    /// Single precision only: double throws (the flag to change named), single is what load() keeps.
    void setPrecision(Precision precision) override;
    /// Collective.
    void step(const SimParams& params, int stepCount) override;
    void reverseVelocities() override;
    /// Collective: every body, in rank order (each rank's bodies as its domain holds them), the same on every rank.
    void readBodies(Bodies& out) const override;
    BodyIdentity bodyIdentity(std::size_t index) const override;
    std::vector<std::optional<BodyPosition>> bodyPositions(std::span<const std::uint64_t> ids) const override;
    /// Collective: kinetic energy and momenta of the local bodies and the fp64 direct-sum potential of the local
    /// bodies against all, summed over ranks.
    Diagnostics diagnostics(const SimParams& params) const override;
    /// Collective: every body's acceleration, in readBodies' order.
    void readAccelerations(const SimParams& params, Vec3Arrays<float>& out) override;
    /// This rank's phases: the solver's, "exchange" (the all-gather and the reduction of the finiteness check,
    /// including the wait for the slowest rank), "orb" (re-partition or migration), "integrate".
    std::vector<PhaseTiming> lastStepTimings() const override { return m_lastTimings; }
    VisualSource& visuals() override { return m_visuals; }
    const VisualSource& visuals() const override { return m_visuals; }

    /// This rank's bodies (for tests).
    const Bodies& localBodies() const { return m_local; }
    /// The ranks' domains (for tests and the ORB overlay).
    const RankDomains& rankDomains() const { return m_domains; }

    // The visual source holds a reference to this backend.
    DistributedCpuBackend(const DistributedCpuBackend&) = delete;
    DistributedCpuBackend& operator=(const DistributedCpuBackend&) = delete;

private:
    /// What cached accelerations were computed with.
    using ForceSettings = SolverForceSettings;
    static ForceSettings forceSettingsOf(const SimParams& params);

    /// Re-partitions (repartition, with balance) or migrates the bodies across ranks, their work weights and previous
    /// accelerations travelling with them, then learns the new order of the gathered set. Collective.
    void placeBodies(bool repartition, OrbBalance balance);
    /// After a drift: re-partitions every params.orb.rebuildInterval steps or when the imbalance passed its limit,
    /// migrates otherwise; timed as "orb". Collective.
    void updateDomains(const SimParams& params, std::vector<PhaseTiming>& times);
    /// All-gathers every rank's ids, colour keys and components into m_all (sized to N) and sets this rank's slice
    /// of it. Collective.
    void exchangeIdentities();
    /// All-gathers every rank's positions, masses and previous accelerations into m_all and m_allAccelerations.
    void exchangePositions(std::vector<PhaseTiming>& times);
    /// The local bodies' accelerations against the gathered set (exchanged first).
    void computeAccelerations(const ForceSettings& settings, std::vector<PhaseTiming>& times);
    void ensureAccelerations(const ForceSettings& settings, std::vector<PhaseTiming>& times);
    void stepOnce(const ForceSettings& settings, const SimParams& params, std::vector<PhaseTiming>& times);
    /// Non-finite local bodies summed over ranks: every rank gets the same count. The local pass is timed as
    /// "integrate", the reduction as "exchange".
    std::uint64_t countNonFiniteOnAllRanks(std::vector<PhaseTiming>& times) const;
    void dropCachedForces();

    /// The gathered positions as vertices, with each body's colour key or its rank's domain colour; the ranks'
    /// domains as the ORB overlay's cells.
    class Visuals final : public VisualSource {
    public:
        explicit Visuals(const DistributedCpuBackend& backend) : m_backend(backend) {}
        std::size_t vertexCount() const override { return m_backend.m_all.size(); }
        void writeVertices(std::span<RenderVertex> out) const override;
        void setColorMode(ColorMode mode) override { m_coloring.setMode(mode); }
        ColorMode colorMode() const override { return m_coloring.mode(); }
        ColorScale colorScale(const UnitSystem& units) const override { return m_coloring.scale(units); }
        void collectOrbCells(std::vector<OrbCell>& out) const override { out = m_backend.m_domains.cells; }
        OrbStatus orbStatus() const override;

    private:
        const DistributedCpuBackend& m_backend;
        mutable ScalarColoring m_coloring; ///< what the last vertex write showed
    };

    Communicator& m_communicator;
    std::string m_why;
    RankSlice m_slice; ///< this rank's bodies' place in the gathered set
    Bodies m_local;
    std::vector<float> m_localWork; ///< interactions of the last evaluation per local body (ORB's work weights)
    RankDomains m_domains;
    std::uint64_t m_stepsSinceRepartition = 0;
    std::uint64_t m_repartitions = 0;     ///< since load()
    std::uint64_t m_migratedLastStep = 0; ///< bodies that changed rank in the last step's migration
    double m_lastRepartitionMilliseconds = 0;
    /// Every rank's bodies as of the last exchange, in rank order: positions, masses (the solver reads these), ids,
    /// colour keys and components (gathered when bodies changed rank); velocities are not exchanged and stay zero.
    Bodies m_all;
    Vec3Arrays<float> m_allAccelerations; ///< N long: the previous evaluation's, then this rank's slice written
    std::vector<float> m_allWork;         ///< N long: interactions per body, this rank's slice written
    std::vector<std::uint32_t> m_targets; ///< this rank's slice as indices into m_all
    Vec3Arrays<float> m_accelerations;    ///< the local bodies'
    bool m_accelerationsValid = false;
    bool m_accelerationsInBodyOrder = false; ///< m_accelerations are an evaluation's for these bodies (see CpuBackend)
    ForceSettings m_accelerationsSettings;
    std::unique_ptr<CpuForceSolver> m_solver;
    const SolverInfo* m_solverInfo = nullptr;
    std::uint64_t m_stepsSinceLoad = 0;
    std::vector<PhaseTiming> m_lastTimings;
    Visuals m_visuals{*this};
};

} // namespace gravlab
