#pragma once
// The force-solver interface of the CPU backend (private to gravlab_sim).
//
// Design note: CpuBackend owns the bodies, the integrator and the ORB domains; a CpuForceSolver only turns positions
// into accelerations, created by name from the registry (SolverRegistration.hpp). A solver that builds a structure
// from the positions (the octree) keeps it until invalidate(), so the overlay and leaf-depth colours can show the
// structure the last evaluation used.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/SimulationBackend.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace gravlab {

/// What one force evaluation reads: gravity and, for solvers that use it, the opening criterion.
struct ForceParams {
    GravityParams gravity;
    float openingAngle = 0.5f;
    OpeningCriterion openingCriterion = OpeningCriterion::Geometric;
    float forceAccuracy = 0.0025f;
    /// Whether the accelerations handed to the evaluation hold the previous evaluation's, for these bodies in this
    /// order: the relative criterion reads them, and falls back to the geometric one without them.
    bool previousAccelerations = false;

    /// The criterion this evaluation uses.
    bool relativeOpening() const { return openingCriterion == OpeningCriterion::Relative && previousAccelerations; }
};

class CpuForceSolver {
public:
    virtual ~CpuForceSolver() = default;
    /// accelerations (with G) of every body, and in work the interactions each body's sum evaluated (ORB's work
    /// weights); adds the milliseconds of its phases (SolverInfo::cpuPhases) to times. Bodies are finite.
    virtual void computeAccelerations(const Bodies& bodies, const ForceParams& params, Vec3Arrays<float>& accelerations,
                                      std::vector<float>& work, std::vector<PhaseTiming>& times) = 0;
    /// As computeAccelerations, for the bodies listed in targets only (distinct indices, any order) against all
    /// bodies: accelerations and work (both already N long) are written at the listed indices and kept elsewhere.
    /// Hierarchical time steps need, at each sub-step, the forces of the bodies whose step ends there.
    virtual void computeAccelerationsOf(const Bodies& bodies, const ForceParams& params,
                                        std::span<const std::uint32_t> targets, Vec3Arrays<float>& accelerations,
                                        std::vector<float>& work, std::vector<PhaseTiming>& times) = 0;
    /// Low parts of the last evaluation's accelerations, so that double(a) + double(low) is the solver's fp64 sum
    /// (Precision.hpp): a solver that sums in fp64 fills out and returns true when the bodies it read carried low
    /// parts; float solvers return false and leave out alone (their accelerations are float).
    virtual bool readAccelerationLowParts(Vec3Arrays<float>& out) const {
        (void)out;
        return false;
    }
    /// The bodies changed other than through this solver's last evaluation: drop what was built from them.
    virtual void invalidate() {}
    /// Cells matching query of the structure the last evaluation built (cleared first; empty without one).
    virtual void collectTreeCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const {
        (void)query;
        out.clear();
    }
    /// Depth of each body's leaf in that structure, in body order; false (out untouched) without one.
    virtual bool leafDepths(std::vector<std::uint8_t>& out) const {
        (void)out;
        return false;
    }
};

} // namespace gravlab
