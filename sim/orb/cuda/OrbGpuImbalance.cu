// Loads of the ORB domains on the GPU: per leaf cell its body count and weight sum, then the largest and the totals.
// Read from the device cell array, so it also measures the domains after migration has moved their boundaries.
// Sums are in double, in a fixed order (one block per leaf, a fixed reduction tree), so the result is deterministic.
#include "device/cuda/CudaCheck.hpp"
#include "orb/cuda/OrbGpuKernels.hpp"

#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

namespace gravlab {
namespace {

constexpr unsigned kLoadThreads = 256;

// One block per cell; per body of a leaf, 16 bytes read (one float of a float4: a whole sector) when weighted.
__global__ void orbLeafLoadKernel(const OrbCell* cells, const float4* acceleration, double* leafLoads) {
    using Reduce = cub::BlockReduce<double, kLoadThreads>;
    __shared__ typename Reduce::TempStorage storage;
    const OrbCell cell = cells[blockIdx.x];
    double weight = 0;
    if ((cell.leftChild < 0) && acceleration != nullptr)
        for (std::uint64_t i = std::uint64_t(cell.begin) + threadIdx.x; i < cell.end; i += kLoadThreads)
            weight += double(acceleration[i].w);
    weight = Reduce(storage).Sum(weight);
    if (threadIdx.x == 0) {
        const double count = (cell.leftChild < 0) ? double(cell.end) - double(cell.begin) : -1.0;
        leafLoads[2 * blockIdx.x] = count;
        leafLoads[2 * blockIdx.x + 1] = acceleration != nullptr ? weight : count;
    }
}

// One block: per cell 16 bytes read. Inner cells carry count -1 and are skipped.
__global__ void orbLoadSummaryKernel(const double* leafLoads, std::uint32_t cellCount, double* results) {
    using Reduce = cub::BlockReduce<double, kLoadThreads>;
    __shared__ typename Reduce::TempStorage storage;
    double largestCount = 0, largestWeight = 0, totalCount = 0, totalWeight = 0, leaves = 0;
    for (std::uint32_t c = threadIdx.x; c < cellCount; c += kLoadThreads) {
        const double count = leafLoads[2 * c], weight = leafLoads[2 * c + 1];
        if (count < 0)
            continue;
        largestCount = fmax(largestCount, count);
        largestWeight = fmax(largestWeight, weight);
        totalCount += count;
        totalWeight += weight;
        leaves += 1;
    }
    double values[5] = {largestCount, largestWeight, totalCount, totalWeight, leaves};
    for (int k = 0; k < 5; ++k) {
        const double reduced =
            k < 2 ? Reduce(storage).Reduce(values[k], cuda::maximum<>{}) : Reduce(storage).Sum(values[k]);
        if (threadIdx.x == 0)
            results[k] = reduced;
        __syncthreads();
    }
}

} // namespace

void launchOrbLeafLoads(const OrbCell* cells, std::uint32_t cellCount, const float4* acceleration, double* leafLoads,
                        double* results, cudaStream_t stream) {
    orbLeafLoadKernel<<<cellCount, kLoadThreads, 0, stream>>>(cells, acceleration, leafLoads);
    checkLaunch("orbLeafLoadKernel");
    orbLoadSummaryKernel<<<1, kLoadThreads, 0, stream>>>(leafLoads, cellCount, results);
    checkLaunch("orbLoadSummaryKernel");
}

} // namespace gravlab
