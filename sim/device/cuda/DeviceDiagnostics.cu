#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceBuffer.hpp"
#include "device/cuda/DeviceDiagnostics.hpp"
#include "device/cuda/LaunchSize.hpp"
#include "direct/cuda/ForceMath.cuh"

#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <vector>

namespace gravlab {
namespace {

constexpr int kThreads = 256;
/// Grid-stride cap for the per-body pass: enough blocks to fill any current GPU, few partials to add on the host.
constexpr unsigned kMaxBodySumBlocks = 1024;

struct BodySums {
    double kineticEnergy;
    double linearMomentum[3];
    double angularMomentum[3];
};

struct AddBodySums {
    __device__ BodySums operator()(const BodySums& a, const BodySums& b) const {
        BodySums sum;
        sum.kineticEnergy = a.kineticEnergy + b.kineticEnergy;
        for (int axis = 0; axis < 3; ++axis) {
            sum.linearMomentum[axis] = a.linearMomentum[axis] + b.linearMomentum[axis];
            sum.angularMomentum[axis] = a.angularMomentum[axis] + b.angularMomentum[axis];
        }
        return sum;
    }
};

// Work per body: about 26 fp64 flops; 32 bytes read (64 with low parts). One BodySums (56 bytes) written per block.
__global__ void __launch_bounds__(kThreads)
    bodySumsKernel(const float4* __restrict__ positionMass, const float4* __restrict__ velocityColor,
                   DeviceLowParts low, unsigned bodyCount, BodySums* __restrict__ blockSums) {
    BodySums sums{};
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (unsigned i = blockIdx.x * kThreads + threadIdx.x; i < bodyCount; i += gridDim.x * kThreads) {
        const float4 p = positionMass[i];
        const float4 v = velocityColor[i];
        const float4 pLow = low.position ? low.position[i] : zero;
        const float4 vLow = low.velocity ? low.velocity[i] : zero;
        const double m = p.w;
        const double x = double(p.x) + pLow.x, y = double(p.y) + pLow.y, z = double(p.z) + pLow.z;
        const double vx = double(v.x) + vLow.x, vy = double(v.y) + vLow.y, vz = double(v.z) + vLow.z;
        sums.kineticEnergy += 0.5 * m * (vx * vx + vy * vy + vz * vz);
        sums.linearMomentum[0] += m * vx;
        sums.linearMomentum[1] += m * vy;
        sums.linearMomentum[2] += m * vz;
        sums.angularMomentum[0] += m * (y * vz - z * vy);
        sums.angularMomentum[1] += m * (z * vx - x * vz);
        sums.angularMomentum[2] += m * (x * vy - y * vx);
    }
    using BlockReduce = cub::BlockReduce<BodySums, kThreads>;
    __shared__ typename BlockReduce::TempStorage storage;
    const BodySums blockTotal = BlockReduce(storage).Reduce(sums, AddBodySums{});
    if (threadIdx.x == 0)
        blockSums[blockIdx.x] = blockTotal;
}

// Work per ordered pair: 3 FADD + 3 FFMA + 1 MUFU.RSQ + 1 FMUL in fp32, then a conversion and an fp64 add;
// 16-byte broadcast shared load per source. Device memory: 16 bytes per body per block read, 8 bytes per block
// written.
__global__ void __launch_bounds__(kThreads) potentialKernel(const float4* __restrict__ positionMass, unsigned bodyCount,
                                                            float softening2, double* __restrict__ blockSums) {
    __shared__ float4 tile[kThreads];
    const unsigned target = blockIdx.x * kThreads + threadIdx.x;
    const float4 self = target < bodyCount ? positionMass[target] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    double sum = 0.0;
    for (unsigned tileBegin = 0; tileBegin < bodyCount; tileBegin += kThreads) {
        const unsigned source = tileBegin + threadIdx.x;
        tile[threadIdx.x] = source < bodyCount ? positionMass[source] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < kThreads; ++k) {
            const float4 other = tile[k];
            const float dx = other.x - self.x;
            const float dy = other.y - self.y;
            const float dz = other.z - self.z;
            const float distance2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, softening2)));
            const float term = other.w * force::rsqrtApprox(distance2);
            // Selected, not multiplied: with eps = 0 the own term (and a massless padding body at the target's
            // position) is inf or NaN.
            const unsigned source = tileBegin + k;
            sum += source == target || source >= bodyCount ? 0.0 : double(term);
        }
        __syncthreads();
    }
    using BlockReduce = cub::BlockReduce<double, kThreads>;
    __shared__ typename BlockReduce::TempStorage storage;
    const double blockTotal = BlockReduce(storage).Sum(double(self.w) * sum);
    if (threadIdx.x == 0)
        blockSums[blockIdx.x] = blockTotal;
}

// Work per body: one fp64 multiply-add; 20 bytes read. One double written per block.
__global__ void __launch_bounds__(kThreads)
    weightedPotentialKernel(const float4* __restrict__ positionMass, const float* __restrict__ potential,
                            unsigned bodyCount, double* __restrict__ blockSums) {
    double sum = 0.0;
    for (unsigned i = blockIdx.x * kThreads + threadIdx.x; i < bodyCount; i += gridDim.x * kThreads)
        sum += double(positionMass[i].w) * double(potential[i]);
    using BlockReduce = cub::BlockReduce<double, kThreads>;
    __shared__ typename BlockReduce::TempStorage storage;
    const double blockTotal = BlockReduce(storage).Sum(sum);
    if (threadIdx.x == 0)
        blockSums[blockIdx.x] = blockTotal;
}

Diagnostics addBodySums(const std::vector<BodySums>& partials) {
    Diagnostics result;
    for (const BodySums& partial : partials) {
        result.kineticEnergy += partial.kineticEnergy;
        for (int axis = 0; axis < 3; ++axis) {
            result.linearMomentum[axis] += partial.linearMomentum[axis];
            result.angularMomentum[axis] += partial.angularMomentum[axis];
        }
    }
    return result;
}

} // namespace

Diagnostics computeDiagnosticsDevice(const float4* positionMass, const float4* velocityColor, std::size_t bodyCount,
                                     const GravityParams& gravity, cudaStream_t stream, DeviceLowParts low) {
    if (bodyCount == 0)
        return {};
    const unsigned count = static_cast<unsigned>(bodyCount);

    const unsigned bodyBlocks = std::min(launchSize1d(bodyCount, kThreads).blocks, kMaxBodySumBlocks);
    DeviceBuffer<BodySums> bodyPartials(bodyBlocks);
    bodySumsKernel<<<bodyBlocks, kThreads, 0, stream>>>(positionMass, velocityColor, low, count, bodyPartials.data());
    checkLaunch("bodySumsKernel");

    static_assert(kPairPotentialThreads == kThreads, "both potential kernels leave one partial per kThreads bodies");
    const unsigned potentialBlocks = launchSize1d(bodyCount, kThreads).blocks;
    DeviceBuffer<double> potentialPartials(potentialBlocks);
    const double softening2 = gravity.softeningLength * gravity.softeningLength;
    if (low.position) {
        launchPairPotential(positionMass, low.position, bodyCount, softening2, potentialPartials.data(), stream);
    } else {
        potentialKernel<<<potentialBlocks, kThreads, 0, stream>>>(positionMass, count, float(softening2),
                                                                  potentialPartials.data());
        checkLaunch("potentialKernel");
    }

    std::vector<BodySums> hostBodyPartials(bodyBlocks);
    std::vector<double> hostPotentialPartials(potentialBlocks);
    bodyPartials.download(hostBodyPartials, stream);
    potentialPartials.download(hostPotentialPartials, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));

    Diagnostics result = addBodySums(hostBodyPartials);
    double pairSum = 0.0;
    for (const double partial : hostPotentialPartials)
        pairSum += partial;
    result.potentialEnergy = -0.5 * gravity.gravitationalConstant * pairSum;
    return result;
}

Diagnostics computeBodySumsDevice(const float4* positionMass, const float4* velocityColor, std::size_t bodyCount,
                                  cudaStream_t stream, DeviceLowParts low) {
    if (bodyCount == 0)
        return {};
    const unsigned blocks = std::min(launchSize1d(bodyCount, kThreads).blocks, kMaxBodySumBlocks);
    DeviceBuffer<BodySums> partials(blocks);
    bodySumsKernel<<<blocks, kThreads, 0, stream>>>(positionMass, velocityColor, low, unsigned(bodyCount),
                                                    partials.data());
    checkLaunch("bodySumsKernel");
    std::vector<BodySums> hostPartials(blocks);
    partials.download(hostPartials, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return addBodySums(hostPartials);
}

double potentialEnergyFromDevicePotentials(const float4* positionMass, const float* potential, std::size_t bodyCount,
                                           cudaStream_t stream) {
    if (bodyCount == 0)
        return 0.0;
    const unsigned blocks = std::min(launchSize1d(bodyCount, kThreads).blocks, kMaxBodySumBlocks);
    DeviceBuffer<double> partials(blocks);
    weightedPotentialKernel<<<blocks, kThreads, 0, stream>>>(positionMass, potential, unsigned(bodyCount),
                                                             partials.data());
    checkLaunch("weightedPotentialKernel");
    std::vector<double> hostPartials(blocks);
    partials.download(hostPartials, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    double sum = 0.0;
    for (const double partial : hostPartials)
        sum += partial;
    return 0.5 * sum;
}

} // namespace gravlab
