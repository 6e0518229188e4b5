// The Barnes-Hut tree solver's registration and its CPU implementation.
//
// Design note: the CPU evaluation builds the octree of the current positions (OctreeCpu), summarises it for theta and
// walks it per body (TreeForcesCpu), timing the three as "build", "summary" and "force". The octree stays until the
// bodies change, for the overlay's cells and the leaf-depth colours; it describes the current positions, since every
// step ends with a force evaluation.
#include "core/Stopwatch.hpp"
#include "solvers/CpuForceSolver.hpp"
#include "solvers/SolverRegistration.hpp"
#include "tree/MortonKeys.hpp"
#include "tree/OctreeCpu.hpp"
#include "tree/TreeForcesCpu.hpp"

#include <gravlab/sim/SimParams.hpp>

#include <algorithm>

namespace gravlab {

std::unique_ptr<CudaForceSolver> makeTreeCudaSolver();

namespace {

class TreeCpuSolver final : public CpuForceSolver {
public:
    void computeAccelerations(const Bodies& bodies, const ForceParams& params, Vec3Arrays<float>& accelerations,
                              std::vector<float>& work, std::vector<PhaseTiming>& times) override {
        buildAndSummarize(bodies, params, times);
        const Stopwatch force;
        computeTreeAccelerationsCpu(m_tree, treeForceParams(params, accelerations), accelerations, &work);
        addPhaseTime(times, "force", force.elapsedMilliseconds());
        m_built = true;
    }
    /// The tree is built over every body (all of them are sources), then walked for the targets only.
    void computeAccelerationsOf(const Bodies& bodies, const ForceParams& params, std::span<const std::uint32_t> targets,
                                Vec3Arrays<float>& accelerations, std::vector<float>& work,
                                std::vector<PhaseTiming>& times) override {
        buildAndSummarize(bodies, params, times);
        const Stopwatch force;
        computeTreeAccelerationsCpu(m_tree, treeForceParams(params, accelerations), targets, accelerations, work);
        addPhaseTime(times, "force", force.elapsedMilliseconds());
        m_built = true;
    }
    void invalidate() override { m_built = false; }
    void collectTreeCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const override {
        if (m_built)
            m_tree.collectCells(query, out);
        else
            out.clear();
    }
    bool leafDepths(std::vector<std::uint8_t>& out) const override {
        if (m_built)
            m_tree.leafDepthOfBodies(out);
        return m_built;
    }

private:
    /// The walk's parameters; under the relative criterion it reads the previous accelerations, which the evaluation
    /// then overwrites.
    static TreeForceParams treeForceParams(const ForceParams& params, const Vec3Arrays<float>& accelerations) {
        TreeForceParams forces{params.gravity.gravitationalConstant, params.gravity.softeningLength};
        if (params.relativeOpening()) {
            forces.previousAccelerations = &accelerations;
            forces.forceAccuracy = params.forceAccuracy;
        }
        return forces;
    }
    void buildAndSummarize(const Bodies& bodies, const ForceParams& params, std::vector<PhaseTiming>& times) {
        m_built = false;
        const Stopwatch build;
        m_tree.build(bodies);
        addPhaseTime(times, "build", build.elapsedMilliseconds());
        const Stopwatch summary;
        m_tree.summarize(params.relativeOpening() ? kRelativeOpeningSafetyAngle : params.openingAngle);
        addPhaseTime(times, "summary", summary.elapsedMilliseconds());
    }

    OctreeCpu m_tree;
    bool m_built = false; ///< m_tree was built from the bodies as they are now
};

std::unique_ptr<CpuForceSolver> makeTreeCpuSolver() {
    return std::make_unique<TreeCpuSolver>();
}

// Memory of the CPU octree. Kept: sorted Morton key, body order, tree-ordered positions and masses; per cell the cell,
// its multipole and its opening radius. Scratch: the keyed bodies and the parallel sort's merge buffer, or the
// summary's fp64 moments (11 doubles per cell). Cells: 0.23 to 0.35 per body for the scenarios at 1e3 to 1e6 bodies;
// one per two bodies leaves room for more clustered sets.
constexpr std::uint64_t kBodiesPerCell = 2;
constexpr std::uint64_t kCellBytes = sizeof(OctreeCell) + sizeof(CellMultipole) + sizeof(float);
constexpr std::uint64_t kResidentBytesPerBody =
    sizeof(std::uint64_t) + sizeof(std::uint32_t) + 4 * sizeof(float) + kCellBytes / kBodiesPerCell;
constexpr std::uint64_t kScratchBytesPerBody =
    std::max<std::uint64_t>(2 * sizeof(KeyedBody), 11 * sizeof(double) / kBodiesPerCell);

} // namespace

SolverRegistration treeSolverRegistration() {
    return {{.name = "tree",
             .description = "Barnes-Hut octree, O(N log N): cells smaller than theta x distance act as one",
             .usesOpeningAngle = true,
             .drawsTreeCells = true,
             .minSoftening = kSmallestPositiveSoftening,
             .softeningNeed = "its multipole expansion and opening criterion are softened",
             .cpuPhases = {"build", "summary", "force"},
             .cudaPhases = {"box", "build", "summary", "sort", "force"},
             .cpuResidentBytesPerBody = kResidentBytesPerBody,
             .cpuScratchBytesPerBody = kScratchBytesPerBody},
            &makeTreeCpuSolver,
            GRAVLAB_CUDA_FACTORY(makeTreeCudaSolver)};
}

} // namespace gravlab
