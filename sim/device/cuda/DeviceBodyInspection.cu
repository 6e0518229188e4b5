#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceBodyInspection.hpp"
#include "device/cuda/DeviceBuffer.hpp"
#include "device/cuda/LaunchSize.hpp"

#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace gravlab {
namespace {

constexpr int kThreads = 256;
/// Grid-stride cap for the potential: enough blocks to fill any current GPU, few partials to add on the host.
constexpr unsigned kMaxPotentialBlocks = 512;
constexpr std::uint32_t kNotFound = std::numeric_limits<std::uint32_t>::max();

// Work per body: targetCount comparisons; 4 bytes read. Load orders are unique, so at most one thread writes an entry.
__global__ void findLoadOrdersKernel(const std::uint32_t* __restrict__ loadOrder, unsigned bodyCount,
                                     const std::uint32_t* __restrict__ targets, unsigned targetCount,
                                     std::uint32_t* __restrict__ found) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const std::uint32_t mine = loadOrder[i];
    for (unsigned k = 0; k < targetCount; ++k)
        if (targets[k] == mine)
            found[k] = i;
}

// Work per source body: about 12 fp64 flops and one fp64 sqrt; 16 bytes read. One double written per block.
__global__ void __launch_bounds__(kThreads)
    potentialAtBodyKernel(const float4* __restrict__ positionMass, unsigned bodyCount, unsigned target,
                          double softening2, double* __restrict__ blockSums) {
    const float4 self = positionMass[target];
    double sum = 0.0;
    for (unsigned j = blockIdx.x * kThreads + threadIdx.x; j < bodyCount; j += gridDim.x * kThreads) {
        if (j == target)
            continue;
        const float4 other = positionMass[j];
        const double dx = double(other.x) - double(self.x);
        const double dy = double(other.y) - double(self.y);
        const double dz = double(other.z) - double(self.z);
        sum += double(other.w) / sqrt(dx * dx + dy * dy + dz * dz + softening2);
    }
    using BlockReduce = cub::BlockReduce<double, kThreads>;
    __shared__ typename BlockReduce::TempStorage storage;
    const double blockTotal = BlockReduce(storage).Sum(sum);
    if (threadIdx.x == 0)
        blockSums[blockIdx.x] = blockTotal;
}

} // namespace

std::vector<std::optional<std::size_t>> findBodiesByLoadOrder(const std::uint32_t* loadOrder, std::size_t bodyCount,
                                                              std::span<const std::uint32_t> loadIndices,
                                                              BodySearchScratch& scratch, cudaStream_t stream) {
    if (loadIndices.size() > kMaxBodiesFound)
        throw std::invalid_argument("findBodiesByLoadOrder: " + std::to_string(loadIndices.size()) +
                                    " bodies asked for, at most " + std::to_string(kMaxBodiesFound) + " at once");
    std::vector<std::optional<std::size_t>> indices(loadIndices.size());
    if (bodyCount == 0 || loadIndices.empty())
        return indices;
    const auto targetCount = unsigned(loadIndices.size());
    CUDA_CHECK(cudaMemcpyAsync(scratch.targets.data(), loadIndices.data(), loadIndices.size_bytes(),
                               cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemsetAsync(scratch.found.data(), 0xff, targetCount * sizeof(std::uint32_t), stream)); // kNotFound
    const LaunchSize size = launchSize1d(bodyCount, kThreads);
    findLoadOrdersKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        loadOrder, unsigned(bodyCount), scratch.targets.data(), targetCount, scratch.found.data());
    checkLaunch("findLoadOrdersKernel");
    std::vector<std::uint32_t> hostFound(targetCount);
    CUDA_CHECK(cudaMemcpyAsync(hostFound.data(), scratch.found.data(), targetCount * sizeof(std::uint32_t),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    for (std::size_t k = 0; k < indices.size(); ++k)
        if (hostFound[k] != kNotFound)
            indices[k] = hostFound[k];
    return indices;
}

double potentialAtBodyDevice(const float4* positionMass, std::size_t bodyCount, std::size_t index,
                             const GravityParams& gravity, BodySearchScratch& scratch, cudaStream_t stream) {
    if (index >= bodyCount)
        throw std::out_of_range("potential of body " + std::to_string(index) + " of " + std::to_string(bodyCount));
    const unsigned blocks = std::min(launchSize1d(bodyCount, kThreads).blocks, kMaxPotentialBlocks);
    if (scratch.partials.size() < blocks)
        scratch.partials.resize(kMaxPotentialBlocks);
    potentialAtBodyKernel<<<blocks, kThreads, 0, stream>>>(positionMass, unsigned(bodyCount), unsigned(index),
                                                           gravity.softeningLength * gravity.softeningLength,
                                                           scratch.partials.data());
    checkLaunch("potentialAtBodyKernel");
    std::vector<double> hostPartials(blocks);
    CUDA_CHECK(cudaMemcpyAsync(hostPartials.data(), scratch.partials.data(), blocks * sizeof(double),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    double sum = 0.0;
    for (const double partial : hostPartials)
        sum += partial;
    return -gravity.gravitationalConstant * sum;
}

} // namespace gravlab
