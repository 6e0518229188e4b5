// The fp64 pair potential of a double-precision state, for the diagnostics (DeviceDiagnostics.hpp).
//
// Design note: the tiled O(N^2) pass of the fp32 potential kernel, with every term in fp64 from positions joined from
// their float-float pairs, so the potential energy of an fp64 state is measured to fp64 rounding. Sources are staged
// through shared memory one block-sized tile at a time, joined once per tile; the self term is skipped by index, so
// the sum is right for any softening.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceDiagnostics.hpp"
#include "device/cuda/LaunchSize.hpp"

#include <cub/block/block_reduce.cuh>

namespace gravlab {
namespace {

constexpr unsigned kThreads = kPairPotentialThreads;

struct PointFp64 {
    double x, y, z, mass;
};

__device__ inline PointFp64 joinedPoint(const float4* positionMass, const float4* positionLow, unsigned i) {
    const float4 p = positionMass[i];
    const float4 low = positionLow[i];
    return {double(p.x) + low.x, double(p.y) + low.y, double(p.z) + low.z, p.w};
}

// Work per ordered pair: 3 DADD, 3 DFMA, one fp64 rsqrt, one DFMA; a 32-byte broadcast shared load per source.
// Device memory: 32 bytes per body per block read, 8 bytes per block written.
__global__ void __launch_bounds__(kThreads)
    pairPotentialKernel(const float4* __restrict__ positionMass, const float4* __restrict__ positionLow,
                        unsigned bodyCount, double softening2, double* __restrict__ blockSums) {
    __shared__ PointFp64 tile[kThreads];
    const unsigned target = blockIdx.x * kThreads + threadIdx.x;
    const PointFp64 self = target < bodyCount ? joinedPoint(positionMass, positionLow, target) : PointFp64{};
    double sum = 0.0;
    for (unsigned tileBegin = 0; tileBegin < bodyCount; tileBegin += kThreads) {
        const unsigned source = tileBegin + threadIdx.x;
        tile[threadIdx.x] = source < bodyCount ? joinedPoint(positionMass, positionLow, source) : PointFp64{};
        __syncthreads();
        const unsigned sourcesInTile = min(kThreads, bodyCount - tileBegin);
        for (unsigned k = 0; k < sourcesInTile; ++k) {
            const PointFp64 other = tile[k];
            const double dx = other.x - self.x, dy = other.y - self.y, dz = other.z - self.z;
            const double term = other.mass * rsqrt(fma(dx, dx, fma(dy, dy, fma(dz, dz, softening2))));
            sum += tileBegin + k == target ? 0.0 : term;
        }
        __syncthreads();
    }
    using BlockReduce = cub::BlockReduce<double, kThreads>;
    __shared__ typename BlockReduce::TempStorage storage;
    const double blockTotal = BlockReduce(storage).Sum(self.mass * sum);
    if (threadIdx.x == 0)
        blockSums[blockIdx.x] = blockTotal;
}

} // namespace

void launchPairPotential(const float4* positionMass, const float4* positionLow, std::size_t bodyCount,
                         double softening2, double* blockSums, cudaStream_t stream) {
    if (bodyCount == 0)
        return;
    const unsigned blocks = launchSize1d(bodyCount, kThreads).blocks;
    pairPotentialKernel<<<blocks, kThreads, 0, stream>>>(positionMass, positionLow, unsigned(bodyCount), softening2,
                                                         blockSums);
    checkLaunch("pairPotentialKernel");
}

} // namespace gravlab
