// What the viewer asks of the CUDA octree, computed on demand: cell boxes for the overlay and leaf-depth colours.
//
// Design note: boxes are not stored (DeviceOctree.hpp); a cell's box follows from the Morton key of its first body
// and its depth, so the overlay's copy costs one small kernel and a 20-byte download per cell, only when asked.
// The path to a point descends from the root through the child whose box contains the point (closed boxes, the first
// match on a shared face), one thread, at most kTreeLevelCount cells.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/LaunchSize.hpp"
#include "tree/cuda/TreeKernels.hpp"
#include "tree/cuda/TreeKeys.cuh"

namespace gravlab {
namespace {

__device__ TreeCellBox overlayBox(const OctreeView& tree, const std::uint64_t* keys, const TreeFrame& frame,
                                  unsigned cell) {
    const int depth = tree.level[cell];
    const tree::CellBox box = tree::cellBoxOf(frame, keys[tree.bodyRange[cell].x], depth);
    return {box.centerX, box.centerY, box.centerZ, box.halfSize, depth};
}

__device__ bool contains(const TreeCellBox& box, float3 point) {
    return fabsf(point.x - box.centerX) <= box.halfSize && fabsf(point.y - box.centerY) <= box.halfSize &&
           fabsf(point.z - box.centerZ) <= box.halfSize;
}

// Work per cell: ~20 integer ops and 6 flops; 17 bytes read, 20 written.
__global__ void cellBoxesKernel(OctreeView tree, const std::uint64_t* __restrict__ keys,
                                const TreeFrame* __restrict__ frame, unsigned first, unsigned count,
                                TreeCellBox* __restrict__ boxes) {
    const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count)
        boxes[k] = overlayBox(tree, keys, *frame, first + k);
}

// Work: one thread, at most 8 box tests per level.
__global__ void cellPathKernel(OctreeView tree, const std::uint64_t* __restrict__ keys,
                               const TreeFrame* __restrict__ frame, float3 point, TreeCellBox* __restrict__ boxes,
                               unsigned* __restrict__ boxCount) {
    unsigned found = 0;
    TreeCellBox box = overlayBox(tree, keys, *frame, 0);
    bool inside = contains(box, point);
    unsigned cell = 0;
    while (inside) {
        boxes[found++] = box;
        const uint2 content = tree.content[cell];
        if ((content.y & kLeafFlag) != 0)
            break;
        inside = false;
        for (unsigned child = content.x; child < content.x + content.y && !inside; ++child) {
            box = overlayBox(tree, keys, *frame, child);
            inside = contains(box, point);
            cell = child;
        }
    }
    *boxCount = found;
}

// One thread per tree slot, so the leaf depths and the permutation are read in order and the body's position and
// vertex are the gather and the scatter. Work per body: one multiply; 21 bytes read, 16 written.
__global__ void leafDepthVerticesKernel(const float4* __restrict__ positionMass, const unsigned* __restrict__ treeOrder,
                                        const std::uint8_t* __restrict__ leafDepth, float4* __restrict__ vertices,
                                        unsigned bodyCount) {
    const unsigned slot = blockIdx.x * blockDim.x + threadIdx.x;
    if (slot >= bodyCount)
        return;
    const unsigned body = treeOrder[slot];
    const float4 p = positionMass[body];
    const float scalar = fminf(float(leafDepth[slot]) * (1.0f / float(kMaxTreeDepthForColor)), 1.0f);
    vertices[body] = make_float4(p.x, p.y, p.z, scalar);
}

} // namespace

void launchCellBoxes(const OctreeView& tree, const std::uint64_t* sortedKeys, const TreeFrame* frame, unsigned first,
                     unsigned count, TreeCellBox* boxes, cudaStream_t stream) {
    if (count == 0)
        return;
    const LaunchSize size = launchSize1d(count);
    cellBoxesKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(tree, sortedKeys, frame, first, count, boxes);
    checkLaunch("cellBoxesKernel");
}

void launchCellPath(const OctreeView& tree, const std::uint64_t* sortedKeys, const TreeFrame* frame, float3 point,
                    TreeCellBox* boxes, unsigned* boxCount, cudaStream_t stream) {
    cellPathKernel<<<1, 1, 0, stream>>>(tree, sortedKeys, frame, point, boxes, boxCount);
    checkLaunch("cellPathKernel");
}

void launchWriteLeafDepthVertices(const float4* positionMass, const unsigned* treeOrder, const std::uint8_t* leafDepth,
                                  RenderVertex* vertices, unsigned bodyCount, cudaStream_t stream) {
    if (bodyCount == 0)
        return;
    const LaunchSize size = launchSize1d(bodyCount);
    leafDepthVerticesKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        positionMass, treeOrder, leafDepth, reinterpret_cast<float4*>(vertices), bodyCount);
    checkLaunch("leafDepthVerticesKernel");
}

} // namespace gravlab
