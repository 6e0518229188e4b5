// Kernels of the GPU migration between ORB domains; the design note is in OrbMigrationGpu.hpp.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/LaunchSize.hpp"
#include "orb/OrbLocate.hpp"
#include "orb/cuda/OrbMigrationGpu.hpp"
#include "tree/cuda/TreeSorting.hpp"

#include <gravlab/sim/SimParams.hpp>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

constexpr unsigned kFullWarp = 0xffffffffu;
constexpr unsigned long long kStayer = ~0ull;
constexpr unsigned kRangesThreads = 1024; // one thread per domain: kMaxOrbDomains
static_assert(kMaxOrbDomains <= kRangesThreads);

// Counters layout: [0] moved total, [1, 1 + np) departures, [1 + np, 1 + 2 np) arrivals.
__device__ __forceinline__ std::uint32_t* departuresOf(std::uint32_t* counters) {
    return counters + 1;
}
__device__ __forceinline__ std::uint32_t* arrivalsOf(std::uint32_t* counters, std::uint32_t domainCount) {
    return counters + 1 + domainCount;
}

/// The float-to-unsigned map with the same order, so min/max are integer atomics. Unlike OrbGpu's keys it leaves -0
/// below +0, which is harmless here: a bound decodes back to a float equal to either.
__device__ __forceinline__ std::uint32_t orderedKey(float value) {
    const std::uint32_t bits = __float_as_uint(value);
    return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}
__device__ __forceinline__ float fromOrderedKey(std::uint32_t key) {
    return __uint_as_float((key & 0x80000000u) ? key & 0x7fffffffu : ~key);
}

/// The domain whose range holds body i: the last d with domainBegin[d] <= i (empty domains are skipped over).
__device__ __forceinline__ std::uint32_t domainOfBody(const std::uint32_t* domainBegin, std::uint32_t domainCount,
                                                      std::uint32_t i) {
    std::uint32_t low = 0, high = domainCount; // first d with domainBegin[d] > i, minus one
    while (low < high) {
        const std::uint32_t middle = (low + high) / 2;
        if (domainBegin[middle] <= i)
            low = middle + 1;
        else
            high = middle;
    }
    return low - 1;
}

/// Block-wide: the bodies' bounds into bounds (low keys of x, y, z, then high keys), one set of atomics per block: per
/// warp, 32k atomics on each of the six addresses at 2^20 bodies would queue in L2 for tens of microseconds.
__device__ void foldBounds(float4 p, std::uint32_t* bounds) {
    __shared__ std::uint32_t warpBounds[6][32];
    const float coordinates[3] = {p.x, p.y, p.z};
    for (int axis = 0; axis < 3; ++axis) {
        std::uint32_t low = orderedKey(coordinates[axis]), high = low;
        for (int offset = 16; offset > 0; offset /= 2) {
            low = min(low, __shfl_xor_sync(kFullWarp, low, offset));
            high = max(high, __shfl_xor_sync(kFullWarp, high, offset));
        }
        if ((threadIdx.x & 31) == 0) {
            warpBounds[axis][threadIdx.x / 32] = low;
            warpBounds[3 + axis][threadIdx.x / 32] = high;
        }
    }
    __syncthreads();
    if (threadIdx.x >= 6)
        return;
    const unsigned entry = threadIdx.x;
    std::uint32_t value = warpBounds[entry][0];
    for (unsigned warp = 1; warp < blockDim.x / 32; ++warp)
        value = entry < 3 ? min(value, warpBounds[entry][warp]) : max(value, warpBounds[entry][warp]);
    if (entry < 3)
        atomicMin(&bounds[entry], value);
    else
        atomicMax(&bounds[entry], value);
}

// Per body: a 16-byte load, a binary search over np + 1 cached words, the stay test against one cached cell, a
// descent of log2(np) cells for leavers; two atomics per leaver, one per warp with leavers, six per block for the
// bounds.
__global__ void orbClassifyKernel(const float4* positionMass, std::uint32_t bodyCount, const OrbCell* cells,
                                  const std::uint32_t* domainBegin, const std::uint32_t* leafOfDomain,
                                  std::uint32_t domainCount, std::uint32_t* counters, std::uint32_t* bounds,
                                  unsigned long long* leaverTag, std::uint32_t* stayFlags) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    // Lanes past the end repeat the last body so whole warps reach the bounds' shuffles.
    const float4 p = positionMass[min(i, bodyCount - 1)];
    foldBounds(p, bounds);
    const bool valid = i < bodyCount;
    const std::uint32_t own = valid ? domainOfBody(domainBegin, domainCount, i) : 0u;
    std::uint32_t destination = own;
    if (valid && !orbLeafHolds(cells[leafOfDomain[own]], cells[0], p.x, p.y, p.z))
        destination = cells[orbDescend(cells, p.x, p.y, p.z)].firstDomain;
    // The moved total by one atomic per warp: one per leaver would queue on a single address.
    const unsigned leavers = __ballot_sync(kFullWarp, destination != own);
    if ((threadIdx.x & 31) == 0 && leavers != 0)
        atomicAdd(&counters[0], unsigned(__popc(leavers)));
    if (!valid)
        return;
    if (destination == own) {
        leaverTag[i] = kStayer;
        stayFlags[i] = 1;
        return;
    }
    const std::uint32_t slot = atomicAdd(&arrivalsOf(counters, domainCount)[destination], 1u);
    atomicAdd(&departuresOf(counters)[own], 1u);
    leaverTag[i] = (static_cast<unsigned long long>(destination) << 32) | slot;
    stayFlags[i] = 0;
}

// One block of kRangesThreads: new domain ranges by a block scan, then every cell's range and outer faces.
__global__ void orbRangesKernel(OrbCell* cells, std::uint32_t cellCount, std::uint32_t* domainBegin,
                                std::uint32_t domainCount, const std::uint32_t* counters, const std::uint32_t* bounds,
                                std::uint32_t* stayersOf) {
    using BlockScan = cub::BlockScan<std::uint32_t, kRangesThreads>;
    __shared__ typename BlockScan::TempStorage scanStorage;
    __shared__ OrbCell oldRoot;
    const std::uint32_t d = threadIdx.x;
    std::uint32_t newCount = 0;
    if (d < domainCount) {
        const std::uint32_t stayers = domainBegin[d + 1] - domainBegin[d] - counters[1 + d];
        stayersOf[d] = stayers;
        newCount = stayers + counters[1 + domainCount + d];
    }
    std::uint32_t newBegin = 0;
    BlockScan(scanStorage).ExclusiveSum(newCount, newBegin);
    if (d == 0)
        oldRoot = cells[0];
    __syncthreads(); // every thread has read the old domainBegin before any writes it
    if (d < domainCount)
        domainBegin[d] = newBegin; // domainBegin[domainCount] stays N
    __syncthreads();
    float lower[3], upper[3];
    for (int axis = 0; axis < 3; ++axis) {
        lower[axis] = fminf(oldRoot.lower[axis], fromOrderedKey(bounds[axis]));
        upper[axis] = fmaxf(oldRoot.upper[axis], fromOrderedKey(bounds[3 + axis]));
    }
    for (std::uint32_t c = threadIdx.x; c < cellCount; c += blockDim.x) {
        OrbCell cell = cells[c];
        cell.begin = domainBegin[cell.firstDomain];
        cell.end = domainBegin[cell.firstDomain + cell.domainCount];
        orbGrowOuterFaces(cell, oldRoot, lower, upper);
        cells[c] = cell;
    }
}

// Per body: 8 + 8 bytes read (tag, stay rank), np-sized cached reads, 4 written: the body's new index.
__global__ void orbPlaceKernel(std::uint32_t bodyCount, const unsigned long long* leaverTag,
                               const std::uint32_t* stayBefore, const std::uint32_t* oldDomainBegin,
                               const std::uint32_t* newDomainBegin, const std::uint32_t* stayersOf,
                               std::uint32_t domainCount, std::uint32_t* newIndex) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const unsigned long long tag = leaverTag[i];
    if (tag == kStayer) {
        const std::uint32_t own = domainOfBody(oldDomainBegin, domainCount, i);
        newIndex[i] = newDomainBegin[own] + stayBefore[i] - stayBefore[oldDomainBegin[own]];
    } else {
        const auto destination = std::uint32_t(tag >> 32), slot = std::uint32_t(tag);
        newIndex[i] = newDomainBegin[destination] + stayersOf[destination] + slot;
    }
}

template <typename Value>
__global__ void orbScatterBodiesKernel(const Value* source, const std::uint32_t* newIndex, std::uint32_t bodyCount,
                                       Value* target) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < bodyCount)
        target[newIndex[i]] = source[i];
}

__global__ void orbDomainIndexKernel(const OrbCell* cells, std::uint32_t cellCount, std::uint32_t bodyCount,
                                     std::uint32_t* domainBegin, std::uint32_t* leafOfDomain) {
    const std::uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c == 0)
        domainBegin[cells[0].domainCount] = bodyCount;
    if (c >= cellCount || !cells[c].isLeaf())
        return;
    leafOfDomain[cells[c].firstDomain] = c;
    domainBegin[cells[c].firstDomain] = cells[c].begin;
}

// One block per domain: its count and its weight sum (in double, so a million weights of ~1e4 add exactly enough).
__global__ void orbDomainLoadsKernel(const float4* acceleration, const std::uint32_t* domainBegin,
                                     std::uint32_t* counts, double* work) {
    using BlockReduce = cub::BlockReduce<double, 256>;
    __shared__ typename BlockReduce::TempStorage storage;
    const std::uint32_t d = blockIdx.x, begin = domainBegin[d], end = domainBegin[d + 1];
    double sum = 0;
    for (std::uint32_t i = begin + threadIdx.x; i < end; i += blockDim.x)
        sum += acceleration[i].w;
    sum = BlockReduce(storage).Sum(sum);
    if (threadIdx.x == 0) {
        counts[d] = end - begin;
        work[d] = sum;
    }
}

__global__ void orbDomainVerticesKernel(const float4* positionMass, const std::uint32_t* domainBegin,
                                        std::uint32_t domainCount, float4* vertices, std::uint32_t bodyCount) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const float4 p = positionMass[i];
    vertices[i] = make_float4(p.x, p.y, p.z, orbDomainColorScalar(domainOfBody(domainBegin, domainCount, i)));
}

} // namespace

void OrbMigrationGpu::reserve(std::size_t bodyCount, std::uint32_t domainCount) {
    if (domainCount < 1 || domainCount > kMaxOrbDomains)
        throw std::invalid_argument("ORB migration: " + std::to_string(domainCount) + " domains, allowed 1 to " +
                                    std::to_string(kMaxOrbDomains));
    if (m_leaverTag.size() != bodyCount) {
        m_leaverTag.resize(bodyCount);
        m_stayFlags.resize(bodyCount);
        m_stayBefore.resize(bodyCount);
    }
    m_counters.resize(1 + 2 * std::size_t(domainCount));
    m_stayersOf.resize(domainCount);
    m_bounds.resize(6);
}

void OrbMigrationGpu::migrate(DeviceBodies& bodies, DeviceBuffer<float4>& scratch, OrbCell* cells,
                              std::uint32_t cellCount, std::uint32_t* domainBegin, const std::uint32_t* leafOfDomain,
                              std::uint32_t domainCount, cudaStream_t stream) {
    const auto bodyCount = std::uint32_t(bodies.size());
    if (m_leaverTag.size() != bodyCount || m_stayersOf.size() != domainCount || scratch.size() != bodyCount)
        throw std::logic_error("OrbMigrationGpu::migrate: reserve() was not called for these bodies and domains");
    const std::uint32_t initialBounds[6] = {~0u, ~0u, ~0u, 0, 0, 0};
    CUDA_CHECK(cudaMemcpyAsync(m_bounds.data(), initialBounds, sizeof initialBounds, cudaMemcpyHostToDevice, stream));
    m_counters.zero(stream);
    const LaunchSize perBody = launchSize1d(bodyCount);
    orbClassifyKernel<<<perBody.blocks, perBody.threadsPerBlock, 0, stream>>>(
        bodies.positionMass.data(), bodyCount, cells, domainBegin, leafOfDomain, domainCount, m_counters.data(),
        m_bounds.data(), m_leaverTag.data(), m_stayFlags.data());
    checkLaunch("orbClassifyKernel");
    exclusiveSum(m_stayFlags.data(), m_stayBefore.data(), bodyCount, m_scanScratch, stream);
    // The place pass needs the old ranges and the ranges pass overwrites them: keep a copy in the scratch array, which
    // is free until the scatter (np + 1 <= 1025 words fit in its N float4s since np <= N).
    auto* oldDomainBegin = reinterpret_cast<std::uint32_t*>(scratch.data());
    CUDA_CHECK(cudaMemcpyAsync(oldDomainBegin, domainBegin, (domainCount + 1) * sizeof(std::uint32_t),
                               cudaMemcpyDeviceToDevice, stream));
    orbRangesKernel<<<1, kRangesThreads, 0, stream>>>(cells, cellCount, domainBegin, domainCount, m_counters.data(),
                                                      m_bounds.data(), m_stayersOf.data());
    checkLaunch("orbRangesKernel");
    std::uint32_t* newIndex = m_stayFlags.data();
    orbPlaceKernel<<<perBody.blocks, perBody.threadsPerBlock, 0, stream>>>(
        bodyCount, m_leaverTag.data(), m_stayBefore.data(), oldDomainBegin, domainBegin, m_stayersOf.data(),
        domainCount, newIndex);
    checkLaunch("orbPlaceKernel");
    for (DeviceBuffer<float4>* array : bodies.reorderedArrays()) {
        orbScatterBodiesKernel<<<perBody.blocks, perBody.threadsPerBlock, 0, stream>>>(array->data(), newIndex,
                                                                                       bodyCount, scratch.data());
        checkLaunch("orbScatterBodiesKernel");
        std::swap(*array, scratch);
    }
    // The load order moves through the scratch array too (4 of its 16 bytes per body), then is copied back, since
    // the two buffers differ in type.
    auto* orderScratch = reinterpret_cast<std::uint32_t*>(scratch.data());
    orbScatterBodiesKernel<<<perBody.blocks, perBody.threadsPerBlock, 0, stream>>>(bodies.loadOrder.data(), newIndex,
                                                                                   bodyCount, orderScratch);
    checkLaunch("orbScatterBodiesKernel");
    CUDA_CHECK(cudaMemcpyAsync(bodies.loadOrder.data(), orderScratch, bodyCount * sizeof(std::uint32_t),
                               cudaMemcpyDeviceToDevice, stream));
}

void launchOrbDomainIndex(const OrbCell* cells, std::uint32_t cellCount, std::uint32_t bodyCount,
                          std::uint32_t* domainBegin, std::uint32_t* leafOfDomain, cudaStream_t stream) {
    const LaunchSize size = launchSize1d(cellCount);
    orbDomainIndexKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(cells, cellCount, bodyCount, domainBegin,
                                                                           leafOfDomain);
    checkLaunch("orbDomainIndexKernel");
}

void launchOrbDomainLoads(const float4* acceleration, const std::uint32_t* domainBegin, std::uint32_t domainCount,
                          std::uint32_t* counts, double* work, cudaStream_t stream) {
    orbDomainLoadsKernel<<<domainCount, 256, 0, stream>>>(acceleration, domainBegin, counts, work);
    checkLaunch("orbDomainLoadsKernel");
}

void launchWriteOrbDomainVertices(const float4* positionMass, const std::uint32_t* domainBegin,
                                  std::uint32_t domainCount, float4* vertices, std::uint32_t bodyCount,
                                  cudaStream_t stream) {
    const LaunchSize size = launchSize1d(bodyCount);
    orbDomainVerticesKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(positionMass, domainBegin, domainCount,
                                                                              vertices, bodyCount);
    checkLaunch("orbDomainVerticesKernel");
}

} // namespace gravlab
