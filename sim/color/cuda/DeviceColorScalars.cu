// Kernels of the per-body colour quantities (DeviceColorScalars.hpp).
#include "color/cuda/DeviceColorScalars.hpp"
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/LaunchSize.hpp"
#include "direct/cuda/DeviceForces.hpp"
#include "direct/cuda/ForceMath.cuh"

#include <gravlab/sim/ColorScale.hpp>

#include <cmath>
#include <stdexcept>

namespace gravlab {
namespace {

/// Sources per shared-memory tile of the error kernel (one per thread of a block).
constexpr unsigned kErrorThreads = 128;

__device__ __forceinline__ std::size_t sampledIndex(std::size_t k, std::size_t sampleCount, std::size_t bodyCount) {
    return std::size_t(std::uint64_t(k) * std::uint64_t(bodyCount) / std::uint64_t(sampleCount));
}

// Per body: 16 bytes read, 4 written, 5 flops and a square root.
__global__ void speedsKernel(const float4* __restrict__ velocityColor, float* __restrict__ out, unsigned bodyCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const float4 v = velocityColor[i];
    out[i] = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
}

// Per body: as speedsKernel.
__global__ void accelerationMagnitudesKernel(const float4* __restrict__ acceleration, float* __restrict__ out,
                                             unsigned bodyCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const float4 a = acceleration[i];
    out[i] = sqrtf(a.x * a.x + a.y * a.y + a.z * a.z);
}

// Per body: 16 bytes read, one atomic add into the grid (cells are few and hot in L2).
__global__ void depositMassKernel(const float4* __restrict__ positionMass, DensityGrid grid, float* cellMass,
                                  unsigned bodyCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const float4 p = positionMass[i];
    const std::int64_t cell = grid.cellOf(p.x, p.y, p.z);
    if (cell >= 0)
        atomicAdd(&cellMass[cell], p.w);
}

// Per body: 16 bytes read, one 4-byte gather from the grid, 4 written.
__global__ void readDensityKernel(const float4* __restrict__ positionMass, DensityGrid grid,
                                  const float* __restrict__ cellMass, float* __restrict__ out, unsigned bodyCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const float4 p = positionMass[i];
    const std::int64_t cell = grid.cellOf(p.x, p.y, p.z);
    out[i] = cell >= 0 ? cellMass[cell] * grid.inverseCellVolume : 0.0f;
}

__global__ void fillNanKernel(float* __restrict__ out, unsigned count) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = __int_as_float(0x7fc00000);
}

// Per target: N interactions of 13 instructions (ForceMath.cuh), sources read through shared-memory tiles of
// kErrorThreads bodies; then one 16-byte read of the tree's acceleration and 4 bytes written.
__global__ void __launch_bounds__(kErrorThreads)
    treeForceErrorsKernel(const float4* __restrict__ positionMass, const float4* __restrict__ acceleration,
                          const std::uint32_t* __restrict__ targets, unsigned targetCount, float* __restrict__ out,
                          unsigned bodyCount, float scaledSoftening2, float gravitationalConstant) {
    __shared__ float4 tile[kErrorThreads];
    const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned target = k < targetCount ? targets[k] : 0u;
    const float4 self = force::scaledPositionMass(positionMass[target]);
    const float3 position = make_float3(self.x, self.y, self.z);
    float3 sum = make_float3(0.0f, 0.0f, 0.0f);
    for (unsigned first = 0; first < bodyCount; first += kErrorThreads) {
        tile[threadIdx.x] = force::loadScaledOrMassless(positionMass, first + threadIdx.x, bodyCount);
        __syncthreads();
        for (unsigned j = 0; j < kErrorThreads; ++j)
            force::accumulateAttraction(position, tile[j], scaledSoftening2, sum);
        __syncthreads();
    }
    if (k >= targetCount)
        return;
    const float3 direct = force::unscaledAcceleration(sum, gravitationalConstant);
    const float4 tree = acceleration[target];
    const float ex = tree.x - direct.x, ey = tree.y - direct.y, ez = tree.z - direct.z;
    out[target] =
        sqrtf(ex * ex + ey * ey + ez * ez) / sqrtf(direct.x * direct.x + direct.y * direct.y + direct.z * direct.z);
}

__global__ void gatherSampleKernel(const float* __restrict__ values, float* __restrict__ sample, unsigned sampleCount,
                                   std::size_t bodyCount) {
    const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < sampleCount)
        sample[k] = values[sampledIndex(k, sampleCount, bodyCount)];
}

__global__ void gatherIndexedKernel(const float* __restrict__ values, const std::uint32_t* __restrict__ indices,
                                    float* __restrict__ sample, unsigned sampleCount) {
    const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < sampleCount)
        sample[k] = values[indices[k]];
}

__global__ void scatterIndexedKernel(const float* __restrict__ values, const std::uint32_t* __restrict__ indices,
                                     float* __restrict__ out, unsigned count) {
    const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count)
        out[indices[k]] = values[k];
}

__global__ void gatherPositionSampleKernel(const float4* __restrict__ positionMass, float4* __restrict__ sample,
                                           unsigned sampleCount, std::size_t bodyCount) {
    const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < sampleCount)
        sample[k] = positionMass[sampledIndex(k, sampleCount, bodyCount)];
}

// Per body: 20 bytes read, a few flops (two logarithms on a log scale), 16 bytes written as one vector store.
__global__ void writeScalarVerticesKernel(const float4* __restrict__ positionMass, const float* __restrict__ values,
                                          float low, float high, bool logarithmic, float4* __restrict__ vertices,
                                          unsigned bodyCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const float4 p = positionMass[i];
    vertices[i] = make_float4(p.x, p.y, p.z, mapToColorScalar(values[i], low, high, logarithmic));
}

} // namespace

void launchSpeeds(const float4* velocityColor, float* out, std::size_t bodyCount, cudaStream_t stream) {
    if (bodyCount == 0)
        return;
    const LaunchSize size = launchSize1d(bodyCount);
    speedsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(velocityColor, out, unsigned(bodyCount));
    checkLaunch("speedsKernel");
}

void launchAccelerationMagnitudes(const float4* acceleration, float* out, std::size_t bodyCount, cudaStream_t stream) {
    if (bodyCount == 0)
        return;
    const LaunchSize size = launchSize1d(bodyCount);
    accelerationMagnitudesKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(acceleration, out,
                                                                                   unsigned(bodyCount));
    checkLaunch("accelerationMagnitudesKernel");
}

void launchGridDensity(const float4* positionMass, const DensityGrid& grid, float* cellMass, float* out,
                       std::size_t bodyCount, cudaStream_t stream) {
    if (bodyCount == 0)
        return;
    CUDA_CHECK(cudaMemsetAsync(cellMass, 0, grid.cellCount() * sizeof(float), stream));
    const LaunchSize size = launchSize1d(bodyCount);
    depositMassKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(positionMass, grid, cellMass,
                                                                        unsigned(bodyCount));
    checkLaunch("depositMassKernel");
    readDensityKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(positionMass, grid, cellMass, out,
                                                                        unsigned(bodyCount));
    checkLaunch("readDensityKernel");
}

void launchTreeForceErrors(const float4* positionMass, const float4* acceleration, const std::uint32_t* targets,
                           std::size_t targetCount, float* out, std::size_t bodyCount, const GravityParams& gravity,
                           cudaStream_t stream) {
    if (bodyCount == 0)
        return;
    const LaunchSize all = launchSize1d(bodyCount);
    fillNanKernel<<<all.blocks, all.threadsPerBlock, 0, stream>>>(out, unsigned(bodyCount));
    checkLaunch("fillNanKernel");
    if (targetCount == 0)
        return;
    const LaunchSize size = launchSize1d(targetCount, kErrorThreads);
    treeForceErrorsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        positionMass, acceleration, targets, unsigned(targetCount), out, unsigned(bodyCount), scaledSoftening2(gravity),
        float(gravity.gravitationalConstant));
    checkLaunch("treeForceErrorsKernel");
}

void launchGatherSample(const float* values, float* sample, std::size_t sampleCount, std::size_t bodyCount,
                        cudaStream_t stream) {
    if (sampleCount == 0)
        return;
    const LaunchSize size = launchSize1d(sampleCount);
    gatherSampleKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(values, sample, unsigned(sampleCount),
                                                                         bodyCount);
    checkLaunch("gatherSampleKernel");
}

void launchGatherIndexed(const float* values, const std::uint32_t* indices, float* sample, std::size_t sampleCount,
                         cudaStream_t stream) {
    if (sampleCount == 0)
        return;
    const LaunchSize size = launchSize1d(sampleCount);
    gatherIndexedKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(values, indices, sample,
                                                                          unsigned(sampleCount));
    checkLaunch("gatherIndexedKernel");
}

void launchScatterIndexed(const float* values, const std::uint32_t* indices, float* out, std::size_t count,
                          cudaStream_t stream) {
    if (count == 0)
        return;
    const LaunchSize size = launchSize1d(count);
    scatterIndexedKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(values, indices, out, unsigned(count));
    checkLaunch("scatterIndexedKernel");
}

void launchGatherPositionSample(const float4* positionMass, float4* sample, std::size_t sampleCount,
                                std::size_t bodyCount, cudaStream_t stream) {
    if (sampleCount == 0)
        return;
    const LaunchSize size = launchSize1d(sampleCount);
    gatherPositionSampleKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(positionMass, sample,
                                                                                 unsigned(sampleCount), bodyCount);
    checkLaunch("gatherPositionSampleKernel");
}

void launchWriteScalarVertices(const float4* positionMass, const float* values, float low, float high, bool logarithmic,
                               RenderVertex* vertices, std::size_t bodyCount, cudaStream_t stream) {
    static_assert(sizeof(RenderVertex) == sizeof(float4));
    if (bodyCount == 0)
        return;
    if (reinterpret_cast<std::uintptr_t>(vertices) % alignof(float4) != 0)
        throw std::invalid_argument("launchWriteScalarVertices: the vertex pointer is not 16-byte aligned");
    const LaunchSize size = launchSize1d(bodyCount);
    writeScalarVerticesKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        positionMass, values, low, high, logarithmic, reinterpret_cast<float4*>(vertices), unsigned(bodyCount));
    checkLaunch("writeScalarVerticesKernel");
}

} // namespace gravlab
