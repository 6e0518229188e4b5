#pragma once
// Where the bodies live and how they are stepped: the seam between the CPU fallback and the CUDA core.
//
// Design note: Simulation owns one backend. A backend owns the current body state (host vectors for the CPU,
// device buffers for CUDA) and the accelerations from the last force evaluation, so consecutive KDK steps need one
// force evaluation each. This interface is physics only: what is drawn (vertices and their colours, octree and ORB
// cells) is offered by the backend's VisualSource (visuals()), and backends never touch GL.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/BodyInspection.hpp>
#include <gravlab/sim/CoincidentBodies.hpp>
#include <gravlab/sim/Diagnostics.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SolverRegistry.hpp>
#include <gravlab/sim/TimeStepStatistics.hpp>
#include <gravlab/sim/VisualSource.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gravlab {

/// Wall-clock or device time of one named phase of the last step, in milliseconds.
struct PhaseTiming {
    std::string phase;
    double milliseconds;
};

/// The sum of the phases' times: the whole step (or steps) they describe.
inline double totalMilliseconds(std::span<const PhaseTiming> phases) {
    double total = 0;
    for (const PhaseTiming& phase : phases)
        total += phase.milliseconds;
    return total;
}

/// A solver-specific figure of the last force evaluation for reports, e.g. {"treeCells", "octree cells", 241000}.
struct SolverStatistic {
    std::string key;  ///< camelCase, for JSON
    std::string name; ///< words, for text
    double value;
};

/// Adds milliseconds to phase's entry of times, appending the phase when it is not there yet (order of first use).
void addPhaseTime(std::vector<PhaseTiming>& times, std::string_view phase, double milliseconds);

/// Thrown by step() when bodies stop being finite (too large a time step, or an overflowing state that was loaded).
/// The backend has restored the state it had before that step() call, so nothing is lost and stepping may go on
/// with a smaller time step.
class NonFiniteStateError : public std::runtime_error {
public:
    /// step: the failing step, counted from load(); restoredStep: the step the state went back to.
    NonFiniteStateError(std::uint64_t step, std::size_t affectedBodies, std::size_t bodyCount,
                        std::uint64_t restoredStep);
    std::uint64_t step() const { return m_step; }
    std::size_t affectedBodies() const { return m_affectedBodies; }
    std::size_t bodyCount() const { return m_bodyCount; }

private:
    std::uint64_t m_step;
    std::size_t m_affectedBodies;
    std::size_t m_bodyCount;
};

class SimulationBackend {
public:
    virtual ~SimulationBackend() = default;
    /// Short human-readable description, e.g. "CPU (OpenMP, 2 threads)".
    virtual std::string description() const = 0;
    /// Where the steps run: which of a solver's implementations (SolverRegistry.hpp) this backend uses.
    virtual Device device() const = 0;
    /// Replace the state with these bodies. When it throws (e.g. not enough memory), the previous state is kept.
    virtual void load(const Bodies& bodies) = 0;
    /// Converts the current state to precision (Precision.hpp): low parts of zero added, or dropped. load() keeps the
    /// precision of the bodies it is given; step() first converts to params.precision. The default reads the bodies,
    /// converts and loads them again; backends override it to convert in place.
    virtual void setPrecision(Precision precision);
    /// Advance by stepCount leapfrog steps with params (already validated). Throws NonFiniteStateError, with the
    /// state rolled back to before the call, when a step leaves a position or velocity that is not finite, and
    /// CoincidentBodiesError, rolled back likewise, when a force evaluation with softening 0 met two bodies at r = 0.
    virtual void step(const SimParams& params, int stepCount) = 0;
    /// Negates every body's velocity in place (time reversal). Positions do not move, so the cached accelerations stay
    /// valid: the next kick uses a(x) of the current positions, which is what makes the KDK leapfrog retrace its steps.
    virtual void reverseVelocities() = 0;
    /// Copy the current state back to the host.
    virtual void readBodies(Bodies& out) const = 0;
    /// Who body index (in the current order, as readBodies() and the vertices have it) is: its id and component. The
    /// default reads every body; backends override it with a lookup.
    virtual BodyIdentity bodyIdentity(std::size_t index) const;
    /// The body whose id is id looked at closely (BodyInspection.hpp): the cached acceleration when it is current for
    /// params' forces, the potential with G and softening from params; empty when no body has that id (after a
    /// reload). O(N), and never a force evaluation. The default copies every body to the host and reports no
    /// acceleration; backends override it with a lookup.
    virtual std::optional<BodyInspection> inspectBody(const SimParams& params, std::uint64_t id) const;
    /// Current positions of the bodies with these ids (a few: trails, the followed body), one entry per id, empty
    /// where no body has the id. Costs one pass over the bodies, not one per id. The default copies every body.
    virtual std::vector<std::optional<BodyPosition>> bodyPositions(std::span<const std::uint64_t> ids) const;
    /// Diagnostics with the fp64 direct-sum potential (O(N^2); on the GPU a few milliseconds at 1e5 bodies).
    virtual Diagnostics diagnostics(const SimParams& params) const = 0;
    /// Diagnostics with W measured by method: DirectFp64 is diagnostics(params); Tree is the Barnes-Hut potential at
    /// params.openingAngle, O(N log N), whatever params.solver is (Diagnostics.hpp). The default reads the bodies to
    /// the host and uses the CPU octree; backends override it to measure where the bodies are.
    virtual Diagnostics measureDiagnostics(const SimParams& params, PotentialMethod method);
    /// Per-body potentials phi_i = -G sum_{j != i} m_j / sqrt(r_ij^2 + eps^2) by the tree at params.openingAngle, in
    /// the order readBodies() returns the bodies (out is resized to N), for colour maps and plots. Default: as above.
    virtual void readPotentials(const SimParams& params, std::vector<float>& out);
    /// Accelerations (with G) of the current state by params' solver, in the order readBodies() returns the bodies;
    /// computes them first when the cached ones are stale. For accuracy reports and tests.
    virtual void readAccelerations(const SimParams& params, Vec3Arrays<float>& out) = 0;
    /// Per-phase times of the last step() call.
    virtual std::vector<PhaseTiming> lastStepTimings() const = 0;
    /// Solver-specific figures of the last force evaluation (octree cells, walk groups), for reports; may wait for
    /// the device.
    virtual std::vector<SolverStatistic> solverStatistics() const { return {}; }
    /// Bodies per time-step level and the force evaluations of the last step() call (TimeStepStatistics.hpp);
    /// O(levels), cheap enough for every frame. Empty from backends that do not count.
    virtual TimeStepStatistics timeStepStatistics() const { return {}; }
    /// Brings the ORB domains up to params.orb now, without stepping (step() does it itself after every drift): a full
    /// re-partition when the domain count, the balance or the body count differ from the current domains', nothing
    /// otherwise. For a paused view whose ORB settings changed.
    virtual void updateOrbDomains(const SimParams& params) { (void)params; }
    /// What is drawn of the current state: vertices, colour mode, octree and ORB cells. Lives as long as the backend.
    virtual VisualSource& visuals() = 0;
    virtual const VisualSource& visuals() const = 0;
};

} // namespace gravlab
