// The octree build from sorted Morton keys: which cells exist, and their breadth-first arrays.
//
// Design note. Bodies are sorted by Morton key (CUB radix sort of (key, index), DeviceTree.cpp), so a cell of depth
// L is a run of keys sharing their top 3 L bits. A cell splits while it holds more than B = kTreeLeafCapacity bodies
// and is shallower than kTreeMaxDepth. Everything below is one thread per body or per cell, with fixed work bounds:
//   Leaf depth of body i: the cell of depth L around i holds more than B bodies exactly when some run of B + 1
//     consecutive sorted bodies [a, a + B] containing i shares L levels of key, i.e. commonDepth(k_a, k_{a+B}) >= L.
//     So leafDepth(i) = min(kTreeMaxDepth, 1 + max over a in [i - B, i] of commonDepth(k_a, k_{a+B})) (0 when N <= B):
//     a sliding-window maximum over B + 1 values, computed per block in shared memory.
//   Cells started by body i: with m_i = commonDepth(k_{i-1}, k_i) (m_0 = -1), body i is the first body of the cells
//     of depths m_i + 1 .. leafDepth(i) that contain it, and of no other cell. An exclusive scan of these counts
//     numbers all cells in pre-order (by first body, then depth), parents before children, without any search.
//   Breadth-first order: a stable CUB radix sort of the pre-order cells by depth (5 key bits, one pass) makes every
//     depth contiguous, siblings contiguous and the first child of pre-order cell p the cell p + 1.
//   Extent of each cell: an exponential plus binary search of the sorted keys from its first body (cellEnd).
// Work is O(N) plus O(cells log N) and does not depend on the order threads run in, so the tree is a pure function of
// the sorted keys; coincident bodies share one key and end in one leaf at depth 21 (leafDepth is capped there).
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/LaunchSize.hpp"
#include "tree/cuda/TreeKernels.hpp"
#include "tree/cuda/TreeKeys.cuh"

namespace gravlab {
namespace {

constexpr int kLeafDepthThreads = 256;

// Work per body: 3 integer ops per key coordinate and the bit spreading (~40 integer ops); 16 bytes read, 12 written.
__global__ void mortonKeysKernel(const float4* __restrict__ positionMass, unsigned bodyCount,
                                 const TreeFrame* __restrict__ frame, std::uint64_t* __restrict__ keys,
                                 unsigned* __restrict__ order) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const TreeFrame cube = *frame;
    const float4 p = positionMass[i];
    keys[i] = tree::mortonKeyOf(cube, p.x, p.y, p.z);
    order[i] = i;
}

// Work per body: no arithmetic; 4 + 16 bytes read (the source read is a gather: one 32-byte sector per body when the
// caller's order is far from tree order), 16 bytes written.
__global__ void gatherBodiesKernel(const float4* __restrict__ source, const unsigned* __restrict__ order,
                                   float4* __restrict__ destination, unsigned bodyCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < bodyCount)
        destination[i] = source[order[i]];
}

// Work per body: 2 key comparisons (clz) plus a B + 1 wide maximum from shared memory and one shared atomic per cell
// started; 24 bytes of keys read (each key is read by about 3 threads, mostly from L1), 5 bytes written.
__global__ void __launch_bounds__(kLeafDepthThreads)
    leafDepthsKernel(const std::uint64_t* __restrict__ keys, unsigned bodyCount, std::uint8_t* __restrict__ leafDepth,
                     unsigned* __restrict__ cellsStarted, TreeBuildStatus* __restrict__ status) {
    constexpr int B = int(kTreeLeafCapacity);
    __shared__ signed char windowDepth[kLeafDepthThreads + B]; // commonDepth(k_a, k_{a+B}) for a = first - B + k
    __shared__ unsigned levelCounts[kTreeLevelCount];

    const long long first = (long long)blockIdx.x * kLeafDepthThreads;
    for (int k = threadIdx.x; k < kLeafDepthThreads + B; k += kLeafDepthThreads) {
        const long long a = first - B + k;
        const bool valid = a >= 0 && a + B < (long long)bodyCount;
        windowDepth[k] = valid ? (signed char)tree::commonDepth(keys[a], keys[a + B]) : (signed char)-1;
    }
    for (int level = threadIdx.x; level < kTreeLevelCount; level += kLeafDepthThreads)
        levelCounts[level] = 0;
    __syncthreads();

    const long long i = first + threadIdx.x;
    if (i < (long long)bodyCount) {
        int deepestCrowded = -1;
        for (int k = threadIdx.x; k <= int(threadIdx.x) + B; ++k)
            deepestCrowded = max(deepestCrowded, int(windowDepth[k]));
        const int depth = bodyCount <= unsigned(B) ? 0 : min(kTreeMaxDepth, deepestCrowded + 1);
        const int sharedWithPrevious = i == 0 ? -1 : tree::commonDepth(keys[i - 1], keys[i]);
        leafDepth[i] = std::uint8_t(depth);
        cellsStarted[i] = unsigned(max(0, depth - sharedWithPrevious));
        for (int level = sharedWithPrevious + 1; level <= depth; ++level)
            atomicAdd(&levelCounts[level], 1u);
    }
    __syncthreads();
    for (int level = threadIdx.x; level < kTreeLevelCount; level += kLeafDepthThreads)
        if (levelCounts[level] != 0)
            atomicAdd(&status->levelCellCounts[level], levelCounts[level]);
}

// Work per cell: no arithmetic; 9 bytes written; per body 17 bytes read.
__global__ void emitCellsKernel(const std::uint64_t* __restrict__ keys, const std::uint8_t* __restrict__ leafDepth,
                                const unsigned* __restrict__ firstCell, unsigned bodyCount,
                                std::uint8_t* __restrict__ cellDepth, unsigned* __restrict__ cellFirstBody,
                                unsigned* __restrict__ cellIndex) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const int shallowest = i == 0 ? 0 : tree::commonDepth(keys[i - 1], keys[i]) + 1;
    unsigned cell = firstCell[i];
    for (int depth = shallowest; depth <= int(leafDepth[i]); ++depth, ++cell) {
        cellDepth[cell] = std::uint8_t(depth);
        cellFirstBody[cell] = i;
        cellIndex[cell] = cell;
    }
}

// Work per cell: about 2 log2(bodies in the cell) dependent key loads (8 bytes each); 13 bytes read, 12 written.
__global__ void cellRangesKernel(const std::uint64_t* __restrict__ keys, unsigned bodyCount,
                                 const std::uint8_t* __restrict__ level, const unsigned* __restrict__ preorderOf,
                                 const unsigned* __restrict__ preorderFirstBody, unsigned cellCount,
                                 uint2* __restrict__ bodyRange, unsigned* __restrict__ breadthFirstOf) {
    const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= cellCount)
        return;
    const unsigned preorder = preorderOf[b];
    const unsigned first = preorderFirstBody[preorder];
    const int depth = level[b];
    const unsigned end = depth == 0 ? bodyCount : tree::cellEnd(keys, first, depth, bodyCount);
    bodyRange[b] = make_uint2(first, end - first);
    breadthFirstOf[preorder] = b;
}

// Work per cell: a leaf reads 10 bytes and writes 8; an inner cell also reads its first child's index and walks its
// siblings (at most 8, 9 bytes each).
__global__ void cellContentsKernel(const std::uint8_t* __restrict__ leafDepth, const std::uint8_t* __restrict__ level,
                                   const unsigned* __restrict__ preorderOf, const unsigned* __restrict__ breadthFirstOf,
                                   const uint2* __restrict__ bodyRange, unsigned cellCount,
                                   uint2* __restrict__ content) {
    const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= cellCount)
        return;
    const int depth = level[b];
    const uint2 bodies = bodyRange[b];
    if (leafDepth[bodies.x] == depth) {
        content[b] = make_uint2(bodies.x, bodies.y | kLeafFlag);
        return;
    }
    // Inner cell: its first child is the next pre-order cell; the siblings follow it in breadth-first order for as
    // long as they start inside this cell.
    const unsigned firstChild = breadthFirstOf[preorderOf[b] + 1];
    const unsigned end = bodies.x + bodies.y;
    unsigned children = 1;
    while (children < 8 && firstChild + children < cellCount && level[firstChild + children] == depth + 1 &&
           bodyRange[firstChild + children].x < end)
        ++children;
    content[b] = make_uint2(firstChild, children);
}

} // namespace

void launchMortonKeys(const float4* positionMass, unsigned bodyCount, const TreeFrame* frame, std::uint64_t* keys,
                      unsigned* order, cudaStream_t stream) {
    const LaunchSize size = launchSize1d(bodyCount);
    mortonKeysKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(positionMass, bodyCount, frame, keys, order);
    checkLaunch("mortonKeysKernel");
}

void launchGatherBodies(const float4* source, const unsigned* order, float4* destination, unsigned bodyCount,
                        cudaStream_t stream) {
    const LaunchSize size = launchSize1d(bodyCount);
    gatherBodiesKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(source, order, destination, bodyCount);
    checkLaunch("gatherBodiesKernel");
}

void launchLeafDepths(const std::uint64_t* sortedKeys, unsigned bodyCount, std::uint8_t* leafDepth,
                      unsigned* cellsStarted, TreeBuildStatus* status, cudaStream_t stream) {
    const LaunchSize size = launchSize1d(bodyCount, kLeafDepthThreads);
    leafDepthsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(sortedKeys, bodyCount, leafDepth, cellsStarted,
                                                                       status);
    checkLaunch("leafDepthsKernel");
}

void launchEmitCells(const std::uint64_t* sortedKeys, const std::uint8_t* leafDepth, const unsigned* firstCell,
                     unsigned bodyCount, std::uint8_t* cellDepth, unsigned* cellFirstBody, unsigned* cellIndex,
                     cudaStream_t stream) {
    const LaunchSize size = launchSize1d(bodyCount);
    emitCellsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(sortedKeys, leafDepth, firstCell, bodyCount,
                                                                      cellDepth, cellFirstBody, cellIndex);
    checkLaunch("emitCellsKernel");
}

void launchCellRanges(const std::uint64_t* sortedKeys, unsigned bodyCount, const std::uint8_t* level,
                      const unsigned* preorderOf, const unsigned* preorderFirstBody, unsigned cellCount,
                      uint2* bodyRange, unsigned* breadthFirstOf, cudaStream_t stream) {
    const LaunchSize size = launchSize1d(cellCount);
    cellRangesKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        sortedKeys, bodyCount, level, preorderOf, preorderFirstBody, cellCount, bodyRange, breadthFirstOf);
    checkLaunch("cellRangesKernel");
}

void launchCellContents(const std::uint8_t* leafDepth, const std::uint8_t* level, const unsigned* preorderOf,
                        const unsigned* breadthFirstOf, const uint2* bodyRange, unsigned cellCount, uint2* content,
                        cudaStream_t stream) {
    const LaunchSize size = launchSize1d(cellCount);
    cellContentsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(leafDepth, level, preorderOf, breadthFirstOf,
                                                                         bodyRange, cellCount, content);
    checkLaunch("cellContentsKernel");
}

} // namespace gravlab
