// Simulation: parameter changes, time and energy bookkeeping around one backend; createBackend picks the backend.
//
// Design note: see Simulation.hpp. setParams() prepares everything that can fail (validation, a new backend, the new
// bodies loaded into the backend that will own them) before it changes any member, so a rejected change leaves the
// simulation exactly as it was. changeBetween() is the one statement of what an edit implies: it mirrors what the
// backends do with an edit (forces are cached per solver, G, softening and, for the tree, theta; a re-partition
// permutes the bodies and drops the octree; a new backend or new bodies start with neither tree nor domains).
#include "core/CpuBackend.hpp"
#include "distributed/DistributedCpuBackend.hpp"
#include "distributed/DistributedSupport.hpp"

#include <gravlab/sim/Communicator.hpp>
#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/Simulation.hpp>

#if defined(GRAVLAB_HAS_CUDA)
#include "device/cuda/CudaBackendFactory.hpp"
#endif
#if defined(GRAVLAB_HAS_NCCL)
#include "distributed/cuda/DistributedCudaBackend.hpp"
#include "distributed/cuda/RankDevice.hpp"
#endif

#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace gravlab {
namespace {

const SimParams& validated(const SimParams& params) {
    validateSimParams(params);
    return params;
}

/// Whether going from a to b asks for other initial conditions: another file (or its format or recentring) while a
/// file is named, another scenario, scenario parameters, count or seed while none is, or a switch between the two.
bool definesInitialConditions(const SimParams& a, const SimParams& b) {
    if (a.initialFile != b.initialFile)
        return true;
    if (!b.initialFile.empty())
        return a.initialFileFormat != b.initialFileFormat || a.recentre != b.recentre;
    return a.scenario != b.scenario || a.scenarioParams != b.scenarioParams || a.bodyCount != b.bodyCount ||
           a.seed != b.seed;
}

/// What replacing before by after implies downstream (see ParamsChange).
ParamsChange changeBetween(const SimParams& before, const SimParams& after) {
    ParamsChange change;
    change.reinitialised = definesInitialConditions(before, after);
    change.backendReplaced = after.backend != before.backend;
    change.backendChoiceMayHaveChanged = change.backendReplaced;
    const bool newState = change.reinitialised || change.backendReplaced;
    change.energyFunctionChanged =
        after.gravitationalConstant != before.gravitationalConstant || after.softeningLength != before.softeningLength;
    const bool solverChanged = after.solver != before.solver;
    // Theta and the criterion shape only the tree's walk, so under another solver they change nothing until the tree is
    // chosen.
    const bool openingChanged = after.openingAngle != before.openingAngle ||
                                after.openingCriterion != before.openingCriterion ||
                                after.forceAccuracy != before.forceAccuracy;
    const bool openingAngleMatters = findSolver(after.solver).usesOpeningAngle && openingChanged;
    // Only the count and the balance re-partition (updateOrbDomains); the rebuild interval and imbalance limit steer
    // later steps. New bodies or a new backend are partitioned from scratch while ORB is on.
    const bool partitionChanged = after.orb.domainCount != before.orb.domainCount ||
                                  (after.orb.domainCount > 0 && after.orb.balance != before.orb.balance);
    change.orbDomainsChanged = partitionChanged || (newState && after.orb.domainCount > 0);
    // A precision change keeps the bodies (converted in place) but not an fp64 solver's accelerations.
    const bool precisionChanged = after.precision != before.precision;
    change.forcesStale = newState || solverChanged || change.energyFunctionChanged || openingAngleMatters ||
                         change.orbDomainsChanged || precisionChanged;
    change.treeOverlayInvalidated = newState || solverChanged || change.orbDomainsChanged;
    change.orbOverlayInvalidated = newState || change.orbDomainsChanged;
    // Positions change only with new bodies; colour scalars with the solver (leaf depths) or the domains.
    change.verticesNeedRefeed = newState || solverChanged || change.orbDomainsChanged;
    return change;
}

/// The bodies of params.initialFile, read now (recentred when asked), or nothing when the scenario defines them. In
/// single precision the low parts a file of doubles gave are dropped at once: the copy kept for reset() stays at the
/// single-precision size the memory estimate counts.
std::optional<Snapshot> readInitialSnapshot(const SimParams& params) {
    if (params.initialFile.empty())
        return std::nullopt;
    Snapshot snapshot = readSnapshot(params.initialFile, params.initialFileFormat);
    if (params.precision == Precision::Single)
        convertPrecision(snapshot.bodies, Precision::Single);
    if (params.recentre)
        moveToCentreOfMassFrame(snapshot.bodies);
    return snapshot;
}

/// params as initial conditions define them: given bodies set the body count, and their units, where stated, the
/// units and G. A scenario is generated in N-body units, so choosing one after a file in physical units returns to
/// them (and to G = 1).
SimParams adoptedBy(SimParams params, const std::optional<Snapshot>& initial) {
    if (initial) {
        params.bodyCount = initial->bodies.size();
        if (initial->units) {
            params.units = *initial->units;
            params.gravitationalConstant = initial->units->gravitationalConstant();
        }
    } else if (params.units.physical()) {
        params.units = nbodyUnits();
        params.gravitationalConstant = 1.0;
    }
    return params;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

bool ParamsChange::any() const {
    return *this != ParamsChange{};
}

ParamsChange& ParamsChange::operator|=(const ParamsChange& other) {
    reinitialised |= other.reinitialised;
    backendReplaced |= other.backendReplaced;
    forcesStale |= other.forcesStale;
    energyFunctionChanged |= other.energyFunctionChanged;
    orbDomainsChanged |= other.orbDomainsChanged;
    treeOverlayInvalidated |= other.treeOverlayInvalidated;
    orbOverlayInvalidated |= other.orbOverlayInvalidated;
    verticesNeedRefeed |= other.verticesNeedRefeed;
    backendChoiceMayHaveChanged |= other.backendChoiceMayHaveChanged;
    return *this;
}

Simulation::Simulation(const SimParams& params, const CompanionMemory& companion, const MemorySource& memory)
    : Simulation(params, createBackend, companion, memory) {}

Simulation::Simulation(const SimParams& params, BackendFactory makeBackend, const CompanionMemory& companion,
                       const MemorySource& memory)
    : Simulation(params, readInitialSnapshot(validated(params)), std::move(makeBackend), companion, memory) {}

Simulation::Simulation(const SimParams& params, Snapshot initial, const CompanionMemory& companion,
                       const MemorySource& memory)
    : Simulation(params, std::optional<Snapshot>(std::move(initial)), createBackend, companion, memory) {}

Simulation::Simulation(const SimParams& params, std::optional<Snapshot> initial, BackendFactory makeBackend,
                       const CompanionMemory& companion, const MemorySource& memory)
    : m_makeBackend(std::move(makeBackend)), m_params(validated(adoptedBy(params, initial))), m_companion(companion),
      m_memory(&memory), m_initial(std::move(initial)), m_backend(m_makeBackend(m_params)) {
    // The backend holds no bodies yet: a run that cannot fit is refused before the scenario is generated.
    m_deviceFootprint = deviceFootprintFor(m_params);
    requireMemoryFor(m_params, m_deviceFootprint, m_companion, *m_memory);
    reset();
}

ParamsChange Simulation::setParams(const SimParams& requested) {
    validateSimParams(requested);
    const bool reinitialise = definesInitialConditions(m_params, requested);
    // A new file is read first: its bodies decide the body count, and its units the units and G, of what is applied.
    std::optional<Snapshot> newInitial = reinitialise ? readInitialSnapshot(requested) : std::nullopt;
    SimParams params = reinitialise ? adoptedBy(requested, newInitial) : requested;
    if (!reinitialise && m_initial)
        params.bodyCount = m_params.bodyCount; // a file's or the caller's bodies keep their count
    validateSimParams(params);
    const ParamsChange change = changeBetween(m_params, params);
    // Only the backend, ORB and the precision decide the device's share; asking again on every dt change would query
    // the driver.
    const bool placementMayChange = params.backend != m_params.backend || params.precision != m_params.precision ||
                                    (params.orb.domainCount > 0) != (m_params.orb.domainCount > 0);
    const std::optional<DeviceFootprint> footprint =
        placementMayChange ? deviceFootprintFor(params) : m_deviceFootprint;
    const MemoryEstimate held = estimateMemory(m_params, m_deviceFootprint, m_companion);
    const MemoryEstimate estimate = estimateMemory(params, footprint, m_companion);
    if (estimate.hostBytes > held.hostBytes || estimate.deviceBytes > held.deviceBytes)
        requireMemoryFor(params, footprint, m_companion, *m_memory, held);
    // Prepare: a new backend and the state it starts from. Anything that throws here leaves the simulation as it
    // was (load() keeps a backend's previous state when it fails).
    std::unique_ptr<SimulationBackend> replacement;
    if (change.backendReplaced)
        replacement = m_makeBackend(params);
    else if (params.solver != m_params.solver)
        requireSolverRunsOn(findSolver(params.solver), m_backend->device(), m_backend->description());
    SimulationBackend& target = replacement ? *replacement : *m_backend;
    if (reinitialise) {
        target.load(newInitial
                        ? newInitial->bodies
                        : generateScenario(params.scenario, params.bodyCount, params.seed, params.scenarioParams));
    } else if (replacement) {
        Bodies current;
        m_backend->readBodies(current);
        replacement->load(current);
    }
    target.setPrecision(params.precision);
    // Commit.
    if (replacement) {
        m_backend = std::move(replacement);
        m_stepCountAtLoad = m_stepCount;
    }
    m_params = params;
    m_deviceFootprint = footprint;
    if (reinitialise) {
        m_initial = std::move(newInitial);
        restartClockAndEnergy();
    } else if (change.energyFunctionChanged) {
        m_energyBaseline.reset();
    }
    m_backend->updateOrbDomains(m_params); // a paused view shows new domains at once
    return change;
}

void Simulation::reset() {
    m_backend->load(
        m_initial ? m_initial->bodies
                  : generateScenario(m_params.scenario, m_params.bodyCount, m_params.seed, m_params.scenarioParams));
    m_backend->setPrecision(m_params.precision);
    restartClockAndEnergy();
}

Snapshot Simulation::snapshot() const {
    Snapshot current;
    m_backend->readBodies(current.bodies);
    current.time = m_time;
    if (m_params.units.physical())
        current.units = m_params.units;
    if (m_initial) {
        current.redshift = m_initial->redshift;
        current.boxSize = m_initial->boxSize;
    }
    return current;
}

void Simulation::restartClockAndEnergy() {
    m_backend->updateOrbDomains(m_params);
    m_bodyCount = m_params.bodyCount;
    m_time = m_initial ? m_initial->time : 0.0;
    m_timeDirection = 1;
    m_stepCount = 0;
    m_stepCountAtLoad = 0;
    m_stepCountAtReversal = 0;
    m_energyBaseline.reset();
    if (m_bodyCount <= kEagerEnergyBaselineMaxBodies)
        (void)diagnostics(); // records E0
}

void Simulation::recordEnergyBaseline(const Diagnostics& now, double computeSeconds) const {
    m_energyBaseline = EnergyBaseline{now, m_stepCount, computeSeconds};
}

void Simulation::step(int stepCount) {
    if (stepCount <= 0)
        return;
    try {
        m_backend->step(m_params, stepCount);
    } catch (const NonFiniteStateError& error) {
        // The backend counts from its last load(); the user counts from reset.
        throw NonFiniteStateError(m_stepCountAtLoad + error.step(), error.affectedBodies(), error.bodyCount(),
                                  m_stepCount);
    } catch (const CoincidentBodiesError& error) {
        throw CoincidentBodiesError(error.pair(), m_stepCount);
    }
    m_stepCount += std::uint64_t(stepCount);
    m_time += double(m_timeDirection) * double(stepCount) * m_params.timeStep;
}

void Simulation::reverseTime() {
    m_backend->reverseVelocities();
    m_timeDirection = -m_timeDirection;
    m_stepCountAtReversal = m_stepCount;
}

Diagnostics Simulation::diagnostics() const {
    const auto start = std::chrono::steady_clock::now();
    const Diagnostics now = m_backend->diagnostics(m_params);
    if (!m_energyBaseline)
        recordEnergyBaseline(now, secondsSince(start));
    return now;
}

double Simulation::relativeEnergyDrift(const Diagnostics& now) const {
    if (!m_energyBaseline)
        return std::numeric_limits<double>::quiet_NaN();
    const double initial = m_energyBaseline->diagnostics.totalEnergy();
    return std::abs(now.totalEnergy() - initial) / std::abs(initial);
}

double Simulation::initialEnergy() const {
    return m_energyBaseline ? m_energyBaseline->diagnostics.totalEnergy() : std::numeric_limits<double>::quiet_NaN();
}

bool cudaBackendWouldBeChosen(const SimParams& params) {
#if defined(GRAVLAB_HAS_NCCL)
    if (const Communicator& world = worldCommunicator(); world.size() > 1)
        preferRankDevice(world); // the probe below then asks this rank's GPU
#endif
#if defined(GRAVLAB_HAS_CUDA)
    std::string reason;
    return (params.backend == BackendKind::Auto || params.backend == BackendKind::Cuda) && cudaDeviceAvailable(reason);
#else
    (void)params;
    return false;
#endif
}

namespace {

/// The CPU backend of this process: one process's, or, when mpirun started several ranks, the distributed one.
std::unique_ptr<SimulationBackend> makeCpuBackend(const SimParams& params, std::string why) {
    Communicator& world = worldCommunicator();
    if (world.size() == 1)
        return std::make_unique<CpuBackend>(std::move(why));
    requireDistributedSupport(params);
    return std::make_unique<DistributedCpuBackend>(world, std::move(why));
}

/// The backend of a run across ranks that asks for CUDA or lets Gravlab choose: on GPUs, one per rank, when every rank
/// has one (all ranks agree); otherwise auto steps on the CPU ranks and cuda is refused with the reason.
std::unique_ptr<SimulationBackend> createRankBackend(const SimParams& params, Communicator& world) {
#if defined(GRAVLAB_HAS_NCCL)
    const std::string unavailable = selectRankDevice(world);
    if (unavailable.empty()) {
        DistributedCudaBackend::requireSupported(params);
        return std::make_unique<DistributedCudaBackend>(world);
    }
#else
    (void)world;
    const std::string unavailable = "this build has no GPU ranks (it needs CUDA, MPI and NCCL when configured)";
#endif
    if (params.backend == BackendKind::Cuda)
        throw std::runtime_error("backend 'cuda' across MPI ranks is unavailable: " + unavailable +
                                 "; --backend cpu (or auto) steps on the CPU ranks instead");
    return makeCpuBackend(params, "GPU ranks unavailable: " + unavailable);
}

std::unique_ptr<SimulationBackend> createBackendForDevice(const SimParams& params) {
    if (Communicator& world = worldCommunicator();
        world.size() > 1 && (params.backend == BackendKind::Auto || params.backend == BackendKind::Cuda))
        return createRankBackend(params, world);
    switch (params.backend) {
    case BackendKind::Cpu:
        return makeCpuBackend(params, {});
    case BackendKind::Auto: {
#if defined(GRAVLAB_HAS_CUDA)
        std::string reason;
        if (cudaDeviceAvailable(reason))
            return createCudaBackend(params);
        return makeCpuBackend(params, "CUDA unavailable: " + reason);
#else
        return makeCpuBackend(params, "this build has no CUDA core");
#endif
    }
    case BackendKind::Cuda:
#if defined(GRAVLAB_HAS_CUDA)
        return createCudaBackend(params);
#else
        throw std::runtime_error("backend 'cuda' was requested, but this build of Gravlab has no CUDA backend: use "
                                 "--backend cpu (or auto), or rebuild with -DGRAVLAB_CUDA=ON on a machine with nvcc");
#endif
    case BackendKind::Gl:
        // Its buffers and shaders belong to a GL context, which sim never creates: the app passes Simulation a factory.
        throw std::runtime_error(
            "backend 'gl' needs a GL context, which the gravlab app creates for headless runs and bench: "
            "elsewhere use --backend cpu or cuda (or auto)");
    }
    throw std::invalid_argument("unknown backend kind " + std::to_string(int(params.backend)));
}

} // namespace

std::unique_ptr<SimulationBackend> createBackend(const SimParams& params) {
    std::unique_ptr<SimulationBackend> backend = createBackendForDevice(params);
    requireSolverRunsOn(findSolver(params.solver), backend->device(), backend->description());
    return backend;
}

} // namespace gravlab
