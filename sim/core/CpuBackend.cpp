// CPU backend: KDK leapfrog over the float OpenMP direct sum or the CPU octree, with a non-finite check and rollback
// per step() call.
//
// Design note: see CpuBackend.hpp. The finiteness check is one O(N) pass after each step; a NaN or infinity anywhere
// spreads to every body through the next force evaluation, so checking every step pins the first bad step.
#include "core/CpuBackend.hpp"

#include "core/Leapfrog.hpp"
#include "core/Parallel.hpp"
#include "core/Stopwatch.hpp"
#include "solvers/SolverRegistration.hpp"
#include "tree/TreeListsSimd.hpp"

#include <gravlab/sim/CoincidentBodies.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <omp.h>
#include <stdexcept>
#include <string>
#include <utility>

namespace gravlab {
namespace {

void checkConsistentSizes(const Bodies& bodies) {
    if (!bodies.consistent())
        throw std::invalid_argument("load: the body arrays differ in length (" + std::to_string(bodies.size()) +
                                    " positions)");
}

} // namespace

std::size_t countNonFiniteBodies(const Bodies& bodies, bool positionsOnly) {
    const auto count = std::int64_t(bodies.size());
    std::int64_t nonFinite = 0;
#pragma omp parallel for schedule(static) reduction(+ : nonFinite) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        const bool finitePosition =
            std::isfinite(bodies.x[i]) && std::isfinite(bodies.y[i]) && std::isfinite(bodies.z[i]);
        const bool finiteVelocity = positionsOnly || (std::isfinite(bodies.vx[i]) && std::isfinite(bodies.vy[i]) &&
                                                      std::isfinite(bodies.vz[i]));
        nonFinite += finitePosition && finiteVelocity ? 0 : 1;
    }
    return std::size_t(nonFinite);
}

CpuBackend::HostBytesPerBody CpuBackend::hostBytesPerBody(const SimParams& params) {
    // Between steps: the state, the accelerations and the work weights.
    HostBytesPerBody bytes{Bodies::kBytesPerBody + 3 * sizeof(float) + sizeof(float), 0};
    // Double precision: the low parts of the state and of the accelerations (fp64 solvers), copied for the rollback.
    const std::uint64_t lowPartBytes =
        params.precision == Precision::Double ? Bodies::kLowPartBytesPerBody + 3 * sizeof(float) : 0;
    bytes.resident += lowPartBytes;
    const SolverInfo& solver = findSolver(params.solver);
    bytes.resident += solver.cpuResidentBytesPerBody;
    std::uint64_t stepScratch = solver.cpuScratchBytesPerBody;
    if (params.orb.domainCount > 0) {
        // Kept: OrbCpu's axis key (coordinate and index) per body. Scratch: a split's order and moved values, or a
        // migration's order, gather buffer (as wide as the widest body array, the 64-bit ids), arrivals and leaver
        // bits (rounded up to a byte).
        bytes.resident += sizeof(float) + sizeof(std::uint32_t);
        stepScratch = std::max<std::uint64_t>(stepScratch, 2 * sizeof(std::uint32_t) + sizeof(std::uint64_t) + 1);
    }
    if (params.timeSteps.mode == TimeStepMode::Hierarchical) {
        // Kept: a level and a place in the by-level list per body. Scratch: the ORB hook's weights, order and
        // permuted levels, or the tree's flag and slot per listed target.
        bytes.resident += sizeof(std::uint8_t) + sizeof(std::uint32_t);
        stepScratch += 2 * sizeof(float) + sizeof(std::uint32_t) + sizeof(std::uint8_t);
    }
    // A step copies the state for its rollback, then allocates the solver's or ORB's scratch; a load first copies
    // the bodies it is given, which is no more than that.
    bytes.transient = Bodies::kBytesPerBody + lowPartBytes + stepScratch;
    return bytes;
}

std::string CpuBackend::description() const {
    // The SIMD instruction set Highway dispatched to on this machine (the tree's interaction lists use it).
    const std::string base =
        "CPU (OpenMP, " + std::to_string(omp_get_max_threads()) + " threads, SIMD " + treeListsSimdTarget() + ")";
    return m_why.empty() ? base : base + "; " + m_why;
}

void CpuBackend::load(const Bodies& bodies) {
    checkConsistentSizes(bodies);
    Bodies copy = bodies; // copy first, so running out of memory leaves the current state whole
    m_bodies = std::move(copy);
    m_work.clear();
    m_orb.invalidate();
    m_orbStatus = {};
    dropCachedForces();
    m_stepsSinceLoad = 0;
    m_lastTimings.clear();
}

void CpuBackend::setPrecision(Precision precision) {
    if (precisionOf(m_bodies) == precision)
        return;
    convertPrecision(m_bodies, precision);
    // An fp64 solver's accelerations gain or lose their low parts: the next step evaluates them again.
    dropCachedForces();
}

CpuBackend::ForceSettings CpuBackend::forceSettingsOf(const SimParams& params) {
    return SolverForceSettings::of(params, "the CPU backend");
}

void CpuBackend::dropCachedForces() {
    ++m_stateVersion;
    m_accelerationsValid = false;
    m_accelerationsInBodyOrder = false;
    m_hierarchical.forgetHistory(); // the remembered accelerations belong to the state before
    if (m_solver)
        m_solver->invalidate();
}

void CpuBackend::ensureAccelerations(const ForceSettings& settings, std::vector<PhaseTiming>& times) {
    if (m_accelerationsValid && m_accelerationsSettings.sameForces(settings))
        return;
    m_hierarchical.forgetHistory(); // the remembered accelerations may come from other forces (G, softening, solver)
    computeAccelerations(settings, times);
}

void CpuBackend::computeAccelerations(const ForceSettings& settings, std::vector<PhaseTiming>& times) {
    m_accelerationsValid = false; // until they are complete: a throwing solver must not leave stale ones "valid"
    ++m_stateVersion;
    if (m_solverInfo != settings.solver) {
        m_solver = findSolverRegistration(settings.solver->name).makeCpu();
        m_solverInfo = settings.solver;
    }
    if (countNonFiniteBodies(m_bodies, true) > 0) {
        // A solver cannot place such bodies; NaN forces make the step's check report and roll back the step.
        m_solver->invalidate();
        m_accelerationLow = {};
        m_accelerations.resize(m_bodies.size());
        for (std::vector<float>* component : {&m_accelerations.x, &m_accelerations.y, &m_accelerations.z})
            std::fill(component->begin(), component->end(), std::numeric_limits<float>::quiet_NaN());
        return;
    }
    ForceParams forces = settings.forces;
    forces.previousAccelerations = m_accelerationsInBodyOrder;
    m_accelerationsInBodyOrder = false; // until the evaluation completes
    m_solver->computeAccelerations(m_bodies, forces, m_accelerations, m_work, times);
    m_accelerationsInBodyOrder = true;
    if (!m_bodies.hasLowParts() || !m_solver->readAccelerationLowParts(m_accelerationLow))
        m_accelerationLow = {};
    m_accelerationsSettings = settings;
    m_accelerationsValid = true;
}

void CpuBackend::stepOnce(const ForceSettings& settings, const SimParams& params, std::vector<PhaseTiming>& times) {
    const auto timeStep = float(params.timeStep);
    const bool pairs = m_bodies.hasLowParts();
    const auto kick = [&] {
        if (pairs)
            kickPairsCpu(m_bodies, m_accelerations, m_accelerationLow, 0.5 * params.timeStep);
        else
            kickCpu(m_bodies, m_accelerations, 0.5f * timeStep);
    };
    ensureAccelerations(settings, times);
    const Stopwatch drift;
    kick();
    if (pairs)
        driftPairsCpu(m_bodies, params.timeStep);
    else
        driftCpu(m_bodies, timeStep);
    addPhaseTime(times, "integrate", drift.elapsedMilliseconds());

    const Stopwatch orb;
    if (countNonFiniteBodies(m_bodies, true) == 0) { // a blown-up drift is reported by the check after the step
        // The relative opening criterion reads the previous accelerations: they follow their bodies.
        std::vector<std::uint32_t> order;
        if (params.orb.domainCount == 0 && !m_orb.active())
            m_orb.update(m_bodies, m_work, params.orb); // nothing to permute
        else if (updateOrbReportingOrder(m_orb, m_bodies, m_work, params.orb, order) && m_accelerationsInBodyOrder)
            permuteAccelerations(m_accelerations, order);
    }
    if (params.orb.domainCount > 0)
        addPhaseTime(times, "orb", orb.elapsedMilliseconds());

    computeAccelerations(settings, times);

    const Stopwatch lastKick;
    kick();
    addPhaseTime(times, "integrate", lastKick.elapsedMilliseconds());
}

void CpuBackend::step(const SimParams& params, int stepCount) {
    if (stepCount <= 0)
        return;
    const ForceSettings settings = forceSettingsOf(params);
    setPrecision(params.precision);
    const Bodies before = m_bodies;
    const std::uint64_t stepsBefore = m_stepsSinceLoad;
    const auto restoreState = [&] {
        m_bodies = before;
        m_stepsSinceLoad = stepsBefore;
        m_orb.invalidate(); // migration may have reordered the bodies since `before`
        m_orbStatus = {};
        dropCachedForces();
    };
    // The solver's phases first, in its order, then the integrator's and ORB's.
    std::vector<PhaseTiming> times;
    for (const std::string_view phase : settings.solver->cpuPhases)
        addPhaseTime(times, phase, 0.0);
    addPhaseTime(times, "integrate", 0.0);
    if (params.orb.domainCount > 0)
        addPhaseTime(times, "orb", 0.0);
    const bool hierarchical = params.timeSteps.mode == TimeStepMode::Hierarchical;
    if (!hierarchical)
        m_hierarchical.forgetHistory(); // fixed steps (and their ORB permutations) leave the remembered slopes behind
    m_hierarchical.resetCounters();
    m_lastTimeStepMode = params.timeSteps.mode;
    for (int s = 0; s < stepCount; ++s) {
        try {
            if (hierarchical)
                stepHierarchical(settings, params, times);
            else
                stepOnce(settings, params, times);
        } catch (const CoincidentBodiesError& error) {
            restoreState();
            throw CoincidentBodiesError(error.pair(), stepsBefore);
        } catch (...) {
            restoreState(); // e.g. the octree ran out of memory: nothing of this call stays
            throw;
        }
        ++m_stepsSinceLoad;
        const Stopwatch check;
        const std::size_t nonFinite = countNonFiniteBodies(m_bodies, false);
        addPhaseTime(times, "integrate", check.elapsedMilliseconds());
        if (nonFinite > 0) {
            const std::uint64_t failedStep = m_stepsSinceLoad;
            restoreState();
            throw NonFiniteStateError(failedStep, nonFinite, m_bodies.size(), stepsBefore);
        }
    }
    m_lastTimings = std::move(times);
    m_orbStatus = m_orb.status(orbWorkWeights());
}

void CpuBackend::updateOrbDomains(const SimParams& params) {
    if (countNonFiniteBodies(m_bodies, true) == 0 && m_orb.refresh(m_bodies, m_work, params.orb)) {
        // The bodies were permuted: accelerations, the tree's body order and (under count balance) the work weights no
        // longer match; the next step evaluates all three again.
        dropCachedForces();
        m_work.clear();
    }
    m_orbStatus = m_orb.status(m_work);
}

void CpuBackend::reverseVelocities() {
    // Positions and the body order stay as they are, so the cached accelerations, the octree and the domains still
    // describe this state; the remembered accelerations (symmetric and tidal level choices) belong to the other way.
    m_hierarchical.forgetHistory();
    for (std::vector<float>* velocity :
         {&m_bodies.vx, &m_bodies.vy, &m_bodies.vz, &m_bodies.vxLow, &m_bodies.vyLow, &m_bodies.vzLow})
        for (float& component : *velocity)
            component = -component;
}

BodyIdentity CpuBackend::bodyIdentity(std::size_t index) const {
    if (index >= m_bodies.size())
        throw std::out_of_range("bodyIdentity: body " + std::to_string(index) + " of " +
                                std::to_string(m_bodies.size()));
    return {m_bodies.id[index], m_bodies.component[index]};
}

void CpuBackend::readBodies(Bodies& out) const {
    out = m_bodies;
}

Diagnostics CpuBackend::diagnostics(const SimParams& params) const {
    return computeDiagnosticsCpu(m_bodies, params.gravity());
}

Diagnostics CpuBackend::measureDiagnostics(const SimParams& params, PotentialMethod method) {
    const GravityParams gravity = params.gravity();
    if (method == PotentialMethod::DirectFp64)
        return computeDiagnosticsCpu(m_bodies, gravity);
    return computeTreeDiagnosticsCpu(m_bodies, gravity, params.openingAngle);
}

void CpuBackend::readPotentials(const SimParams& params, std::vector<float>& out) {
    computeTreePotentialsCpu(m_bodies, params.gravity(), params.openingAngle, out);
}

void CpuBackend::readAccelerations(const SimParams& params, Vec3Arrays<float>& out) {
    std::vector<PhaseTiming> ignored;
    ensureAccelerations(forceSettingsOf(params), ignored);
    out = m_accelerations;
}

std::optional<BodyInspection> CpuBackend::inspectBody(const SimParams& params, std::uint64_t id) const {
    const bool accelerationsCurrent =
        m_accelerationsValid && m_accelerationsSettings.sameForces(forceSettingsOf(params));
    // The cells describe the arrays only while the domains are active (a rolled-back step invalidates them).
    const std::span<const OrbCell> cells =
        m_orb.active() ? std::span<const OrbCell>(m_orb.cells()) : std::span<const OrbCell>();
    return inspectBodyOnHost(m_bodies, accelerationsCurrent ? &m_accelerations : nullptr, cells, params.gravity(), id);
}

void CpuBackend::Visuals::writeVertices(std::span<RenderVertex> out) const {
    const Bodies& bodies = m_backend.m_bodies;
    if (out.size() != bodies.size())
        throw std::invalid_argument("render vertices: buffer holds " + std::to_string(out.size()) + " vertices for " +
                                    std::to_string(bodies.size()) + " bodies");
    const auto count = std::int64_t(bodies.size());
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        out[i] = {bodies.x[i], bodies.y[i], bodies.z[i], bodies.colorKey[i]};
    }
    writeModeColors(out);
}

void CpuBackend::Visuals::writeModeColors(std::span<RenderVertex> out) const {
    const ColorMode mode = colorMode();
    ScalarColoring& coloring = m_scalars.coloring();
    std::vector<std::uint8_t> leafDepth;
    if (isScalarColorMode(mode)) {
        const CpuBackend& b = m_backend;
        m_scalars.write({b.m_bodies, b.m_accelerationsValid ? &b.m_accelerations : nullptr,
                         b.m_accelerationsSettings.forces.gravity, b.m_accelerationsSettings.solver, b.m_stateVersion,
                         b.m_accelerationsSettings.forces.openingAngle},
                        out);
    } else if (mode == ColorMode::LeafDepth && m_backend.m_solver && m_backend.m_solver->leafDepths(leafDepth)) {
        for (std::size_t i = 0; i < leafDepth.size(); ++i)
            out[i].colorScalar = std::min(float(leafDepth[i]) / float(kMaxTreeDepthForColor), 1.0f);
        coloring.showLeafDepth();
    } else if (mode == ColorMode::TimeStepLevel && m_backend.writeTimeStepLevelColors(out)) {
        coloring.showTimeStepLevels(m_backend.m_hierarchical.maxLevel());
    } else if (mode == ColorMode::OrbDomain && m_backend.m_orb.active()) {
        m_backend.m_orb.writeDomainColors(out);
        coloring.showDomains();
    } else {
        coloring.showComponents(mode == ColorMode::LeafDepth       ? "the solver builds no tree, or none is built yet"
                                : mode == ColorMode::OrbDomain     ? "ORB is off"
                                : mode == ColorMode::TimeStepLevel ? "no hierarchical step since the state changed"
                                                                   : "");
    }
}

void CpuBackend::Visuals::readColorValues(std::vector<float>& out) const {
    if (m_scalars.coloring().showsValues())
        out = m_scalars.values();
    else
        out.clear();
}

void CpuBackend::Visuals::collectTreeCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const {
    if (m_backend.m_solver)
        m_backend.m_solver->collectTreeCells(query, out);
    else
        out.clear();
}

std::vector<PhaseTiming> CpuBackend::lastStepTimings() const {
    return m_lastTimings;
}

} // namespace gravlab
