#pragma once
// The CUDA Barnes-Hut solver as a CudaForceSolver: DeviceTree's evaluation, with the tree kept for the overlay.
#include "solvers/cuda/CudaForceSolver.hpp"
#include "tree/cuda/DeviceTree.hpp"

namespace gravlab {

class TreeCudaSolver final : public CudaForceSolver {
public:
    unsigned computeAccelerations(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch, const ForceParams& params,
                                  cudaStream_t stream, PhaseTimeline& timeline) override;
    unsigned computeAccelerationsOf(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch, const ForceParams& params,
                                    const DeviceTargets& targets, cudaStream_t stream,
                                    PhaseTimeline& timeline) override;
    void invalidate() override { m_tree.invalidate(); }
    void release() override { m_tree.release(); }
    std::uint64_t allocatedBytes() const override { return m_tree.allocatedBytes(); }
    void collectTreeCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out,
                          cudaStream_t stream) const override;
    bool writeLeafDepthVertices(const float4* positionMass, RenderVertex* vertices, std::size_t bodyCount,
                                cudaStream_t stream) const override;
    bool writePotentials(const float4* positionMass, float4* treeOrderedScratch, const GravityParams& gravity,
                         float openingAngle, float* potential, cudaStream_t stream) const override;
    /// "octree cells" and "walk groups" of the last evaluation.
    std::vector<SolverStatistic> statistics(cudaStream_t stream) const override;

    /// The octree itself, for tests (walk-group capacity override, host snapshot).
    DeviceTree& tree() { return m_tree; }
    const DeviceTree& tree() const { return m_tree; }

private:
    DeviceTree m_tree;
};

} // namespace gravlab
