// What every backend shares: the wording of the non-finite-state error, phase-time bookkeeping, and the fallback
// body lookup and inspection, and tree potentials (host copies of every body; backends override them).
#include <gravlab/sim/SimulationBackend.hpp>

namespace gravlab {
namespace {

std::string describeNonFiniteState(std::uint64_t step, std::size_t affectedBodies, std::size_t bodyCount,
                                   std::uint64_t restoredStep) {
    return "step " + std::to_string(step) + ": " + std::to_string(affectedBodies) + " of " + std::to_string(bodyCount) +
           " bodies have non-finite positions or velocities (time step too large?); the state was restored to step " +
           std::to_string(restoredStep);
}

} // namespace

void addPhaseTime(std::vector<PhaseTiming>& times, std::string_view phase, double milliseconds) {
    for (PhaseTiming& timing : times)
        if (timing.phase == phase) {
            timing.milliseconds += milliseconds;
            return;
        }
    times.push_back({std::string(phase), milliseconds});
}

NonFiniteStateError::NonFiniteStateError(std::uint64_t step, std::size_t affectedBodies, std::size_t bodyCount,
                                         std::uint64_t restoredStep)
    : std::runtime_error(describeNonFiniteState(step, affectedBodies, bodyCount, restoredStep)), m_step(step),
      m_affectedBodies(affectedBodies), m_bodyCount(bodyCount) {}

void SimulationBackend::setPrecision(Precision precision) {
    Bodies bodies;
    readBodies(bodies);
    if (precisionOf(bodies) == precision || bodies.size() == 0)
        return;
    convertPrecision(bodies, precision);
    load(bodies);
}

BodyIdentity SimulationBackend::bodyIdentity(std::size_t index) const {
    Bodies bodies;
    readBodies(bodies);
    if (index >= bodies.size())
        throw std::out_of_range("bodyIdentity: body " + std::to_string(index) + " of " + std::to_string(bodies.size()));
    return {bodies.id[index], bodies.component[index]};
}

std::optional<BodyInspection> SimulationBackend::inspectBody(const SimParams& params, std::uint64_t id) const {
    Bodies bodies;
    readBodies(bodies);
    std::vector<OrbCell> cells;
    visuals().collectOrbCells(cells);
    return inspectBodyOnHost(bodies, nullptr, cells, params.gravity(), id);
}

std::vector<std::optional<BodyPosition>> SimulationBackend::bodyPositions(std::span<const std::uint64_t> ids) const {
    Bodies bodies;
    readBodies(bodies);
    return bodyPositionsOnHost(bodies, ids);
}

Diagnostics SimulationBackend::measureDiagnostics(const SimParams& params, PotentialMethod method) {
    if (method == PotentialMethod::DirectFp64)
        return diagnostics(params);
    Bodies bodies;
    readBodies(bodies);
    return computeTreeDiagnosticsCpu(bodies, params.gravity(), params.openingAngle);
}

void SimulationBackend::readPotentials(const SimParams& params, std::vector<float>& out) {
    Bodies bodies;
    readBodies(bodies);
    computeTreePotentialsCpu(bodies, params.gravity(), params.openingAngle, out);
}

} // namespace gravlab
