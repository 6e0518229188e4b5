// Bounding box of the bodies and the root cube of the octree: the first kernel of every tree force evaluation.
//
// Design note (the classic Barnes-Hut bounding-box kernel, Burtscher & Pingali 2011): a fixed grid of blocks walks the
// bodies grid-stride, each thread keeping min and max of x, y, z in registers; the block then reduces in shared
// memory, halving the active threads each round, and thread 0 writes the block's box. Blocks finish in any order: each
// one publishes its result (__threadfence, then an atomic ticket), and the block that draws the last ticket combines
// all blocks' boxes the same way and initialises the root: a cube centred on the box whose half side is the largest
// half-extent plus a margin of 1e-3 (so no body lies on the outer faces), and a build status with no cells yet. A
// point-like set (one body, all bodies coincident) gets a small half side instead of zero, as the CPU octree does.
// The same pass counts bodies whose position is NaN or infinite; those are left out of the box, and the host reads
// the count before any cell is built (DeviceTree.cpp). The last block resets the ticket, so the next launch needs no
// memset.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/LaunchSize.hpp"
#include "tree/cuda/TreeKernels.hpp"

#include <algorithm>

namespace gravlab {
namespace {

constexpr int kThreads = 512; // a power of two: the shared-memory reduction halves it
constexpr float kMargin = 1e-3f;
/// Half side of a point-like set relative to the size of its coordinates (at least 1).
constexpr float kPointSetHalfSize = 1e-6f;

struct Bounds {
    float low[3];
    float high[3];
    unsigned nonFinite;
};

__device__ Bounds emptyBounds() {
    return {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}, 0u};
}

__device__ void include(Bounds& into, const Bounds& other) {
    for (int axis = 0; axis < 3; ++axis) {
        into.low[axis] = fminf(into.low[axis], other.low[axis]);
        into.high[axis] = fmaxf(into.high[axis], other.high[axis]);
    }
    into.nonFinite += other.nonFinite;
}

/// The block's combined bounds, valid in thread 0: each round the lower half of the active threads folds in the upper
/// half's values.
__device__ Bounds reduceBlock(Bounds mine, Bounds* shared) {
    shared[threadIdx.x] = mine;
    __syncthreads();
    for (int active = kThreads / 2; active > 0; active /= 2) {
        if (int(threadIdx.x) < active) {
            include(mine, shared[threadIdx.x + active]);
            shared[threadIdx.x] = mine;
        }
        __syncthreads();
    }
    return mine;
}

__device__ void writeRoot(const Bounds& bounds, TreeFrame* frame, TreeBuildStatus* status) {
    const bool anyFinite = bounds.low[0] <= bounds.high[0];
    float center[3], halfExtent = 0.0f, scale = 1.0f;
    for (int axis = 0; axis < 3; ++axis) {
        const float low = anyFinite ? bounds.low[axis] : 0.0f;
        const float high = anyFinite ? bounds.high[axis] : 0.0f;
        center[axis] = 0.5f * low + 0.5f * high; // halves first: no overflow near the largest floats
        halfExtent = fmaxf(halfExtent, 0.5f * high - 0.5f * low);
        scale = fmaxf(scale, fmaxf(fabsf(low), fabsf(high)));
    }
    const float halfSize = fmaxf(halfExtent * (1.0f + kMargin), kPointSetHalfSize * scale);
    frame->lowX = center[0] - halfSize;
    frame->lowY = center[1] - halfSize;
    frame->lowZ = center[2] - halfSize;
    frame->side = 2.0f * halfSize;
    frame->cellsPerLength = float(1u << kTreeMaxDepth) / frame->side;
    status->nonFiniteBodies = bounds.nonFinite;
    for (int level = 0; level < kTreeLevelCount; ++level)
        status->levelCellCounts[level] = 0; // the root is "not built": no cells, no multipoles yet
}

// Work per body: 6 min/max and 3 finiteness tests; 16 bytes read. Per block: a 28-byte result; the last block reads
// all of them (28 bytes per block).
__global__ void __launch_bounds__(kThreads)
    treeBoundingBoxKernel(const float4* __restrict__ positionMass, unsigned bodyCount, BoundingBoxScratch scratch,
                          TreeFrame* __restrict__ frame, TreeBuildStatus* __restrict__ status) {
    __shared__ Bounds shared[kThreads];
    __shared__ bool lastBlock;

    Bounds mine = emptyBounds();
    for (unsigned i = blockIdx.x * kThreads + threadIdx.x; i < bodyCount; i += gridDim.x * kThreads) {
        const float4 p = positionMass[i];
        if (isfinite(p.x) && isfinite(p.y) && isfinite(p.z))
            include(mine, {{p.x, p.y, p.z}, {p.x, p.y, p.z}, 0u});
        else
            ++mine.nonFinite;
    }
    mine = reduceBlock(mine, shared);
    if (threadIdx.x == 0) {
        for (int axis = 0; axis < 3; ++axis) {
            scratch.blockBounds[6 * blockIdx.x + axis] = mine.low[axis];
            scratch.blockBounds[6 * blockIdx.x + 3 + axis] = mine.high[axis];
        }
        scratch.blockNonFinite[blockIdx.x] = mine.nonFinite;
        __threadfence(); // the result is visible device-wide before the ticket says so
        lastBlock = atomicAdd(scratch.finishedBlocks, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!lastBlock)
        return;

    // The last block: every other block has published its result (fence before ticket); __ldcg reads through L2,
    // never a stale L1 line.
    Bounds all = emptyBounds();
    for (unsigned block = threadIdx.x; block < gridDim.x; block += kThreads) {
        Bounds other;
        for (int axis = 0; axis < 3; ++axis) {
            other.low[axis] = __ldcg(&scratch.blockBounds[6 * block + axis]);
            other.high[axis] = __ldcg(&scratch.blockBounds[6 * block + 3 + axis]);
        }
        other.nonFinite = __ldcg(&scratch.blockNonFinite[block]);
        include(all, other);
    }
    all = reduceBlock(all, shared);
    if (threadIdx.x == 0) {
        writeRoot(all, frame, status);
        *scratch.finishedBlocks = 0;
    }
}

} // namespace

void launchTreeBoundingBox(const float4* positionMass, unsigned bodyCount, const BoundingBoxScratch& scratch,
                           TreeFrame* frame, TreeBuildStatus* status, cudaStream_t stream) {
    const unsigned blocks = std::min(launchSize1d(bodyCount, kThreads).blocks, kMaxBoundingBoxBlocks);
    treeBoundingBoxKernel<<<blocks, kThreads, 0, stream>>>(positionMass, bodyCount, scratch, frame, status);
    checkLaunch("treeBoundingBoxKernel");
}

} // namespace gravlab
