#include "tree/cuda/TreeCudaSolver.hpp"

#include <memory>

namespace gravlab {
namespace {

/// Where each part of an evaluation is booked: the indices of the tree's phases as registered
/// ("box", "build", "summary", "sort", "force"; TreeSolver.cpp).
constexpr DeviceTree::PhaseMarks kTreePhases{.box = 0, .build = 1, .sort = 3, .summary = 2, .force = 4};

TreeOpening treeOpeningOf(const ForceParams& params) {
    return {params.openingAngle, params.relativeOpening() ? params.forceAccuracy : 0.0f};
}

} // namespace

unsigned TreeCudaSolver::computeAccelerations(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch,
                                              const ForceParams& params, cudaStream_t stream, PhaseTimeline& timeline) {
    return m_tree.computeAccelerations(bodies, bodyScratch, params.gravity, treeOpeningOf(params), stream, timeline,
                                       kTreePhases);
}

unsigned TreeCudaSolver::computeAccelerationsOf(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch,
                                                const ForceParams& params, const DeviceTargets& targets,
                                                cudaStream_t stream, PhaseTimeline& timeline) {
    return m_tree.computeAccelerationsOf(bodies, bodyScratch, params.gravity, treeOpeningOf(params), targets, stream,
                                         timeline, kTreePhases);
}

void TreeCudaSolver::collectTreeCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out,
                                      cudaStream_t stream) const {
    m_tree.collectCells(query, out, stream);
}

bool TreeCudaSolver::writeLeafDepthVertices(const float4* positionMass, RenderVertex* vertices, std::size_t bodyCount,
                                            cudaStream_t stream) const {
    if (!m_tree.built())
        return false;
    m_tree.writeLeafDepthVertices(positionMass, vertices, bodyCount, stream);
    return true;
}

bool TreeCudaSolver::writePotentials(const float4* positionMass, float4* treeOrderedScratch,
                                     const GravityParams& gravity, float openingAngle, float* potential,
                                     cudaStream_t stream) const {
    if (!m_tree.built() || m_tree.cellOpeningAngle() != openingAngle)
        return false;
    m_tree.writePotentials(positionMass, treeOrderedScratch, gravity, potential, stream);
    return true;
}

std::vector<SolverStatistic> TreeCudaSolver::statistics(cudaStream_t stream) const {
    if (!m_tree.built())
        return {};
    return {{"treeCells", "octree cells", double(m_tree.cellCount())},
            {"walkGroups", "walk groups", double(m_tree.walkGroupCount(stream))}};
}

std::unique_ptr<CudaForceSolver> makeTreeCudaSolver() {
    return std::make_unique<TreeCudaSolver>();
}

} // namespace gravlab
