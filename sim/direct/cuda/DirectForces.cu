// Solver "direct": all N^2 ordered pairs, sources tiled through shared memory.
//
// Design note: the classic tiled all-pairs kernel (Nyland, Harris & Prins, GPU Gems 3, ch. 31) with register
// blocking. Each block owns kTargetsPerBlock targets, four per thread (strided by the block size so the loads and
// stores coalesce), kept in registers with their sums. The block walks a slice of the sources one tile of kThreads
// bodies at a time: every thread loads one body into shared memory, and after the barrier all threads read the tile
// in the same order, so each 16-byte shared load is a broadcast that feeds four interactions. The next tile's global
// load is issued before the current tile is consumed, so its latency hides behind arithmetic.
// Sources are split into slices (the grid's y dimension) when there are too few target blocks to fill the GPU several
// times over; slices then add their partial sums with atomics into an array reset to (0, 0, 0, N), N being the work
// weight every body gets (DeviceForces.hpp); unsliced launches store it with the sums. Many small blocks also keep the
// tail of the launch, where some multiprocessors have run out of blocks, short.
// Hierarchical time steps ask for the accelerations of a subset of targets (the bodies whose step ends) against all
// sources: the same kernel then reads its targets through an index list (null: target k is body k), which costs one
// extra 4-byte load per target and nothing in the inner loop; the grid is sized by the list.
// Bodies past N are loaded as massless bodies at the origin (ForceMath.cuh), so no inner-loop branch is needed; the
// self-interaction contributes exactly zero because eps > 0 and x_i - x_i = 0.
// Softening 0 (the exact Newtonian sum) is a second instance of the kernel: terms with r^2 == 0 are selected away,
// and each target remembers a source at r^2 == 0 that is neither itself nor padding (two more compares and a select
// per interaction, about 20% more instructions, paid only by eps = 0 runs); the first such pair goes to the record of
// CoincidenceRecord.hpp.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceAttributes.hpp"
#include "device/cuda/LaunchSize.hpp"
#include "direct/cuda/CoincidenceRecord.cuh"
#include "direct/cuda/DeviceForces.hpp"
#include "direct/cuda/ForceMath.cuh"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

/// The shipped block shape (docs/PERFORMANCE.md has the measurements behind it): 128 threads, four targets each.
constexpr int kShippedThreads = 128;
constexpr int kShippedTargetsPerThread = 4;
static_assert(kShippedThreads * kShippedTargetsPerThread == int(kDirectTargetsPerBlock));
/// A slice holds at least this many tiles, so loading targets and flushing sums stays small next to the work.
constexpr unsigned kMinTilesPerSlice = 4;
/// Aim for this many blocks per resident block slot: the launch's tail (the last, partly filled wave) then costs
/// at most a few percent.
constexpr unsigned kBlocksPerSlot = 16;

// Work per interaction: 13 instructions, 3 FADD + 3 FFMA (r^2 + eps^2) + 1 MUFU.RSQ + 3 FMUL + 3 FFMA, i.e.
// 19 flops counting an FMA as two and rsqrt as one; benchmarks count the customary 20. Shared memory: one 16-byte
// broadcast load per source per thread, shared by kTargetsPerThread interactions. Device memory per block: 16 bytes
// per target read and written (an atomic when sliced) and 16 bytes per source in the slice read.
template <int kThreads, int kTargetsPerThread, bool kZeroSoftening>
__global__ void __launch_bounds__(kThreads)
    directForcesKernel(const float4* __restrict__ positionMass, float4* __restrict__ acceleration, unsigned bodyCount,
                       const unsigned* __restrict__ targetIndex, unsigned targetCount, unsigned sliceLength,
                       float scaledSoftening2, float gravitationalConstant, bool accumulate,
                       CoincidenceOutput coincidence) {
    const float workPerBody = float(bodyCount);
    __shared__ float4 tile[kThreads];

    const unsigned firstTarget = blockIdx.x * (kThreads * kTargetsPerThread) + threadIdx.x;
    const auto bodyOfTarget = [&](unsigned slot) {
        return slot >= targetCount ? bodyCount : targetIndex != nullptr ? targetIndex[slot] : slot;
    };
    float3 target[kTargetsPerThread];
    float3 sum[kTargetsPerThread];
    unsigned targetBody[kTargetsPerThread];
    unsigned partner[kTargetsPerThread]; // eps = 0: a source at r = 0 that is another body
#pragma unroll
    for (int k = 0; k < kTargetsPerThread; ++k) {
        targetBody[k] = bodyOfTarget(firstTarget + k * kThreads);
        const float4 body = force::loadScaledOrMassless(positionMass, targetBody[k], bodyCount);
        target[k] = make_float3(body.x, body.y, body.z);
        sum[k] = make_float3(0.0f, 0.0f, 0.0f);
        partner[k] = force::kNoPartner;
    }

    const unsigned sliceBegin = blockIdx.y * sliceLength;
    const unsigned sliceEnd = min(bodyCount, sliceBegin + sliceLength);
    float4 next = force::loadScaledOrMassless(positionMass, sliceBegin + threadIdx.x, sliceEnd);
    for (unsigned tileBegin = sliceBegin; tileBegin < sliceEnd; tileBegin += kThreads) {
        tile[threadIdx.x] = next;
        __syncthreads();
        next = force::loadScaledOrMassless(positionMass, tileBegin + kThreads + threadIdx.x, sliceEnd);
#pragma unroll 16
        for (int source = 0; source < kThreads; ++source) {
            const float4 body = tile[source];
#pragma unroll
            for (int k = 0; k < kTargetsPerThread; ++k) {
                if constexpr (kZeroSoftening) {
                    // Counted unless it is the target itself or padding past the slice (massless, at the origin).
                    const unsigned sourceIndex = tileBegin + source;
                    const bool other = sourceIndex != targetBody[k] && sourceIndex < sliceEnd;
                    const bool coincident = force::accumulateNewtonianAttraction(target[k], body, sum[k]);
                    partner[k] = coincident && other ? sourceIndex : partner[k];
                } else {
                    force::accumulateAttraction(target[k], body, scaledSoftening2, sum[k]);
                }
            }
        }
        __syncthreads();
    }

#pragma unroll
    for (int k = 0; k < kTargetsPerThread; ++k) {
        const unsigned index = targetBody[k];
        if (index >= bodyCount)
            continue;
        if (kZeroSoftening && partner[k] != force::kNoPartner)
            force::recordCoincidence(coincidence, positionMass, index, partner[k]);
        const float3 value = force::unscaledAcceleration(sum[k], gravitationalConstant);
        if (accumulate)
            force::atomicAddAcceleration(acceleration, index, value);
        else
            acceleration[index] = make_float4(value.x, value.y, value.z, workPerBody);
    }
}

// Work per body: none; 16 bytes written (and 4 read per listed target).
__global__ void resetAccelerationsKernel(float4* __restrict__ acceleration, const unsigned* __restrict__ targetIndex,
                                         unsigned count, float workPerBody) {
    const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count)
        acceleration[targetIndex != nullptr ? targetIndex[k] : k] = make_float4(0.0f, 0.0f, 0.0f, workPerBody);
}

void launchResetListed(float4* acceleration, const unsigned* targetIndex, std::size_t count, float workPerBody,
                       cudaStream_t stream) {
    const LaunchSize size = launchSize1d(count);
    resetAccelerationsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        acceleration, targetIndex, static_cast<unsigned>(count), workPerBody);
    checkLaunch("resetAccelerationsKernel");
}

/// Source slices per target block: enough blocks for kBlocksPerSlot waves, slices of at least kMinTilesPerSlice.
template <int kThreads, int kTargetsPerThread, bool kZeroSoftening>
unsigned chooseSliceCount(unsigned bodyCount, unsigned targetBlocks) {
    const int blocksPerMultiprocessor =
        residentBlocksPerMultiprocessor(directForcesKernel<kThreads, kTargetsPerThread, kZeroSoftening>, kThreads);
    const unsigned wantedBlocks = kBlocksPerSlot * unsigned(multiprocessorCount()) * unsigned(blocksPerMultiprocessor);
    const auto tiles = unsigned(divideRoundingUp(bodyCount, kThreads));
    const unsigned maxSlices = std::max(1u, tiles / kMinTilesPerSlice);
    const auto slices = unsigned(divideRoundingUp(wantedBlocks, targetBlocks));
    return std::clamp(slices, 1u, std::min(maxSlices, 65535u));
}

/// Launches the tiled kernel of the given shape over targetCount targets (targetIndex null: every body).
template <int kThreads, int kTargetsPerThread, bool kZeroSoftening>
void launchTiledShape(const float4* positionMass, float4* acceleration, unsigned bodyCount, const unsigned* targetIndex,
                      unsigned targetCount, const GravityParams& gravity, const CoincidenceOutput& coincidence,
                      cudaStream_t stream) {
    constexpr unsigned kTargetsPerBlock = kThreads * kTargetsPerThread;
    const auto targetBlocks = unsigned(divideRoundingUp(targetCount, kTargetsPerBlock));
    const unsigned slices = chooseSliceCount<kThreads, kTargetsPerThread, kZeroSoftening>(bodyCount, targetBlocks);
    const auto tiles = unsigned(divideRoundingUp(bodyCount, kThreads));
    const unsigned sliceLength = unsigned(divideRoundingUp(tiles, slices)) * kThreads;
    const auto usedSlices = unsigned(divideRoundingUp(bodyCount, sliceLength));
    const bool accumulate = usedSlices > 1;
    if (accumulate)
        launchResetListed(acceleration, targetIndex, targetCount, float(bodyCount), stream);
    directForcesKernel<kThreads, kTargetsPerThread, kZeroSoftening>
        <<<dim3(targetBlocks, usedSlices), kThreads, 0, stream>>>(
            positionMass, acceleration, bodyCount, targetIndex, targetCount, sliceLength, scaledSoftening2(gravity),
            static_cast<float>(gravity.gravitationalConstant), accumulate, coincidence);
    checkLaunch("directForcesKernel");
}

/// The shipped shape for every body or listed targets; softening 0 picks the instance that reports coincident pairs.
void launchTiled(const float4* positionMass, float4* acceleration, unsigned bodyCount, const unsigned* targetIndex,
                 unsigned targetCount, const GravityParams& gravity, const CoincidenceOutput& coincidence,
                 cudaStream_t stream) {
    if (gravity.softeningLength != 0.0) {
        launchTiledShape<kShippedThreads, kShippedTargetsPerThread, false>(positionMass, acceleration, bodyCount,
                                                                           targetIndex, targetCount, gravity,
                                                                           coincidence, stream);
        return;
    }
    if (coincidence.record == nullptr || coincidence.loadOrder == nullptr)
        throw std::invalid_argument("direct forces: softening 0 needs a coincident-pair record");
    launchTiledShape<kShippedThreads, kShippedTargetsPerThread, true>(positionMass, acceleration, bodyCount, targetIndex,
                                                                      targetCount, gravity, coincidence, stream);
}

} // namespace

void launchResetAccelerations(float4* acceleration, std::size_t bodyCount, float workPerBody, cudaStream_t stream) {
    launchResetListed(acceleration, nullptr, bodyCount, workPerBody, stream);
}

void launchDirectForces(const float4* positionMass, float4* acceleration, std::size_t bodyCount,
                        const GravityParams& gravity, const CoincidenceOutput& coincidence, cudaStream_t stream) {
    if (bodyCount == 0)
        return;
    if (bodyCount > kMaxBodyCount)
        throw std::invalid_argument("launchDirectForces: body count above kMaxBodyCount");
    launchTiled(positionMass, acceleration, static_cast<unsigned>(bodyCount), nullptr, static_cast<unsigned>(bodyCount),
                gravity, coincidence, stream);
}

void launchDirectForcesOf(const float4* positionMass, float4* acceleration, std::size_t bodyCount,
                          const std::uint32_t* targetIndex, std::size_t targetCount, const GravityParams& gravity,
                          const CoincidenceOutput& coincidence, cudaStream_t stream) {
    if (targetCount == 0 || bodyCount == 0)
        return;
    if (bodyCount > kMaxBodyCount || targetCount > bodyCount)
        throw std::invalid_argument("launchDirectForcesOf: " + std::to_string(targetCount) + " targets of " +
                                    std::to_string(bodyCount) + " bodies");
    launchTiled(positionMass, acceleration, static_cast<unsigned>(bodyCount), targetIndex,
                static_cast<unsigned>(targetCount), gravity, coincidence, stream);
}

} // namespace gravlab
