// Hierarchical time-step kernels (see DeviceHierarchicalLeapfrog.hpp): one thread per body, memory-bound.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceHierarchicalLeapfrog.hpp"
#include "device/cuda/LaunchSize.hpp"

#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

constexpr unsigned kThreads = 256;

/// Adds one to the block's count of level (shared), and after the block is done, the block's counts to histogram.
struct BlockHistogram {
    unsigned* counts; ///< kDeviceTimeStepLevels entries of shared memory

    __device__ void clear() {
        for (unsigned level = threadIdx.x; level < kDeviceTimeStepLevels; level += blockDim.x)
            counts[level] = 0;
        __syncthreads();
    }
    __device__ void flush(unsigned* histogram) {
        __syncthreads();
        for (unsigned level = threadIdx.x; level < kDeviceTimeStepLevels; level += blockDim.x)
            if (counts[level] != 0)
                atomicAdd(histogram + level, counts[level]);
    }
};

/// The level the body with acceleration a, velocity v (after its closing half-kick) and load index load asks for, under
/// criterion's choice (the CPU's rule).
__device__ std::uint32_t wantedLevelOf(float4 a, float4 v, std::uint32_t load, EarlierAccelerations earlier,
                                       const TimeStepCriterion& criterion) {
    EarlierAcceleration before;
    if (remembersAccelerations(criterion.choice)) {
        const float4 e = earlier[load];
        before = {e.x, e.y, e.z, e.w};
    }
    return chosenTimeStepLevel(a.x, a.y, a.z, before, v.x, v.y, v.z, criterion);
}

// Work per body: ~20 flops and a level loop of at most 16 steps (fp64 for the bound; the symmetric choice ~15 more
// per level tried, the tidal one ~25 once); 36 bytes read (52 with a history), 1 written.
__global__ void assignLevelsKernel(const float4* __restrict__ acceleration, const float4* __restrict__ velocityColor,
                                   const std::uint32_t* __restrict__ loadOrder, std::uint8_t* __restrict__ levelOfLoad,
                                   unsigned bodyCount, TimeStepCriterion criterion,
                                   EarlierAccelerations __restrict__ earlier, unsigned* __restrict__ histogram) {
    __shared__ unsigned counts[kDeviceTimeStepLevels];
    BlockHistogram block{counts};
    block.clear();
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < bodyCount) {
        const std::uint32_t load = loadOrder[i];
        const std::uint32_t level = wantedLevelOf(acceleration[i], velocityColor[i], load, earlier, criterion);
        levelOfLoad[load] = std::uint8_t(level);
        atomicAdd(&counts[level], 1u);
    }
    block.flush(histogram);
}

/// Appends body i to the evaluation's list when it is a target: one atomic per warp with targets (one per body would
/// queue tens of thousands of atomics on the counter's address). Every lane of the warp must call it.
__device__ void listTarget(unsigned i, bool valid, bool target, const SubStepTargets& targets) {
    const unsigned lane = threadIdx.x & 31u;
    const unsigned targetLanes = __ballot_sync(0xffffffffu, target);
    unsigned first = 0;
    if (lane == 0 && targetLanes != 0)
        first = atomicAdd(targets.activeCount, unsigned(__popc(targetLanes)));
    first = __shfl_sync(0xffffffffu, first, 0);
    if (!valid)
        return;
    targets.isTarget[i] = target ? 1 : 0;
    if (target)
        targets.activeList[first + unsigned(__popc(targetLanes & ((1u << lane) - 1u)))] = i;
}

// Work per body: 6 FFMA; 53 bytes read (position, velocity, acceleration, load index, level), 32 written; with a
// target list 5 more written, and under the symmetric and tidal choices 32 more moved per target.
__global__ void openingKicksAndDriftKernel(float4* __restrict__ positionMass, float4* __restrict__ velocityColor,
                                           const float4* __restrict__ acceleration,
                                           const std::uint32_t* __restrict__ loadOrder,
                                           const std::uint8_t* __restrict__ levelOfLoad, unsigned bodyCount,
                                           std::uint32_t tick, std::uint32_t maxLevel, LevelHalfSteps halfSteps,
                                           float drift, SubStepTargets targets) {
    if (blockIdx.x == 0 && threadIdx.x < kDeviceTimeStepLevels)
        targets.histogramToClear[threadIdx.x] = 0;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = i < bodyCount;
    bool target = false;
    if (valid) {
        const std::uint32_t load = loadOrder[i];
        const std::uint32_t level = levelOfLoad[load];
        float4 v = velocityColor[i];
        const bool opening = tick % levelStepTicks(level, maxLevel) == 0;
        target = level >= targets.shallowestActive;
        const float4 a = opening || target ? acceleration[i] : float4{};
        if (opening) {
            const float halfStep = halfSteps.value[level];
            v.x = fmaf(a.x, halfStep, v.x);
            v.y = fmaf(a.y, halfStep, v.y);
            v.z = fmaf(a.z, halfStep, v.z);
            velocityColor[i] = v;
        }
        float4 p = positionMass[i];
        p.x = fmaf(v.x, drift, p.x);
        p.y = fmaf(v.y, drift, p.y);
        p.z = fmaf(v.z, drift, p.z);
        positionMass[i] = p;
        if (target && targets.earlier != nullptr) // doubling is exact: the CPU's step
            targets.earlier[load] = make_float4(a.x, a.y, a.z, 2.0f * halfSteps.value[level]);
    }
    if (targets.activeList != nullptr)
        listTarget(i, valid, target, targets);
}

// Work per active body: 3 FFMA, the level criterion (~20 flops, fp64 bound) and six finiteness tests; 53 bytes read,
// 17 written. Inactive bodies: 5 bytes read.
__global__ void
closingKicksAndLevelsKernel(const float4* __restrict__ positionMass, float4* __restrict__ velocityColor,
                            const float4* __restrict__ acceleration, const std::uint32_t* __restrict__ loadOrder,
                            std::uint8_t* __restrict__ levelOfLoad, unsigned bodyCount, std::uint32_t tick,
                            std::uint32_t shallowestActive, LevelHalfSteps halfSteps, TimeStepCriterion criterion,
                            EarlierAccelerations __restrict__ earlier, unsigned* __restrict__ histogram,
                            unsigned* __restrict__ nonFiniteCount, unsigned* __restrict__ activeCountToClear) {
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *activeCountToClear = 0;
    __shared__ unsigned counts[kDeviceTimeStepLevels];
    BlockHistogram block{counts};
    block.clear();
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    bool nonFinite = false;
    if (i < bodyCount) {
        const std::uint32_t load = loadOrder[i];
        std::uint32_t level = levelOfLoad[load];
        if (level >= shallowestActive) {
            const float4 a = acceleration[i];
            float4 v = velocityColor[i];
            const float halfStep = halfSteps.value[level];
            v.x = fmaf(a.x, halfStep, v.x);
            v.y = fmaf(a.y, halfStep, v.y);
            v.z = fmaf(a.z, halfStep, v.z);
            velocityColor[i] = v;
            level = nextTimeStepLevel(level, wantedLevelOf(a, v, load, earlier, criterion), tick, criterion.maxLevel);
            levelOfLoad[load] = std::uint8_t(level);
            if (nonFiniteCount != nullptr) {
                const float4 p = positionMass[i];
                nonFinite = !(isfinite(p.x) && isfinite(p.y) && isfinite(p.z) && isfinite(v.x) && isfinite(v.y) &&
                              isfinite(v.z));
            }
        }
        atomicAdd(&counts[level], 1u);
    }
    const unsigned warpCount = __popc(__ballot_sync(0xffffffffu, nonFinite));
    if (warpCount != 0 && threadIdx.x % 32 == 0)
        atomicAdd(nonFiniteCount, warpCount);
    block.flush(histogram);
}

// Work per body: 1 multiply; 21 bytes read, 16 written.
__global__ void weighWorkByLevelKernel(float4* __restrict__ acceleration, const std::uint32_t* __restrict__ loadOrder,
                                       const std::uint8_t* __restrict__ levelOfLoad, unsigned bodyCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < bodyCount)
        acceleration[i].w *= float(1u << levelOfLoad[loadOrder[i]]);
}

// Work per body: 5 bytes read, 4 written.
__global__ void writeLevelColorsKernel(RenderVertex* __restrict__ vertices, const std::uint32_t* __restrict__ loadOrder,
                                       const std::uint8_t* __restrict__ levelOfLoad, unsigned bodyCount, float scale) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < bodyCount)
        vertices[i].colorScalar = float(levelOfLoad[loadOrder[i]]) * scale;
}

void requireLevels(std::uint32_t maxLevel) {
    if (maxLevel >= kDeviceTimeStepLevels)
        throw std::invalid_argument("hierarchical time steps on the device: max level " + std::to_string(maxLevel) +
                                    " is above 16");
}

void requireEarlier(const TimeStepCriterion& criterion, EarlierAccelerations earlier) {
    if (remembersAccelerations(criterion.choice) && earlier == nullptr)
        throw std::invalid_argument("hierarchical time steps on the device: the " +
                                    std::string(enumName(criterion.choice)) +
                                    " level choice needs the bodies' earlier accelerations");
}

} // namespace

void launchAssignTimeStepLevels(const float4* acceleration, const float4* velocityColor, const std::uint32_t* loadOrder,
                                std::uint8_t* levelOfLoad, std::size_t bodyCount, const TimeStepCriterion& criterion,
                                EarlierAccelerations earlier, unsigned* histogram, cudaStream_t stream) {
    requireLevels(criterion.maxLevel);
    requireEarlier(criterion, earlier);
    const LaunchSize size = launchSize1d(bodyCount, kThreads);
    assignLevelsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        acceleration, velocityColor, loadOrder, levelOfLoad, unsigned(bodyCount), criterion, earlier, histogram);
    checkLaunch("assignLevelsKernel");
}

void launchOpeningKicksAndDrift(float4* positionMass, float4* velocityColor, const float4* acceleration,
                                const std::uint32_t* loadOrder, const std::uint8_t* levelOfLoad, std::size_t bodyCount,
                                std::uint32_t tick, std::uint32_t maxLevel, const LevelHalfSteps& halfSteps,
                                float drift, const SubStepTargets& targets, cudaStream_t stream) {
    requireLevels(maxLevel);
    if (targets.histogramToClear == nullptr ||
        (targets.activeList != nullptr && (targets.isTarget == nullptr || targets.activeCount == nullptr)))
        throw std::invalid_argument("hierarchical time steps on the device: a sub-step's target list or histogram is "
                                    "missing");
    const LaunchSize size = launchSize1d(bodyCount, kThreads);
    openingKicksAndDriftKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        positionMass, velocityColor, acceleration, loadOrder, levelOfLoad, unsigned(bodyCount), tick, maxLevel,
        halfSteps, drift, targets);
    checkLaunch("openingKicksAndDriftKernel");
}

void launchClosingKicksAndLevels(const float4* positionMass, float4* velocityColor, const float4* acceleration,
                                 const std::uint32_t* loadOrder, std::uint8_t* levelOfLoad, std::size_t bodyCount,
                                 std::uint32_t tick, std::uint32_t shallowestActive, const LevelHalfSteps& halfSteps,
                                 const TimeStepCriterion& criterion, EarlierAccelerations earlier, unsigned* histogram,
                                 unsigned* nonFiniteCount, unsigned* activeCountToClear, cudaStream_t stream) {
    requireLevels(criterion.maxLevel);
    requireEarlier(criterion, earlier);
    const LaunchSize size = launchSize1d(bodyCount, kThreads);
    closingKicksAndLevelsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        positionMass, velocityColor, acceleration, loadOrder, levelOfLoad, unsigned(bodyCount), tick, shallowestActive,
        halfSteps, criterion, earlier, histogram, nonFiniteCount, activeCountToClear);
    checkLaunch("closingKicksAndLevelsKernel");
}

void launchWeighWorkByLevel(float4* acceleration, const std::uint32_t* loadOrder, const std::uint8_t* levelOfLoad,
                            std::size_t bodyCount, cudaStream_t stream) {
    const LaunchSize size = launchSize1d(bodyCount, kThreads);
    weighWorkByLevelKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(acceleration, loadOrder, levelOfLoad,
                                                                             unsigned(bodyCount));
    checkLaunch("weighWorkByLevelKernel");
}

void launchWriteLevelColors(RenderVertex* vertices, const std::uint32_t* loadOrder, const std::uint8_t* levelOfLoad,
                            std::size_t bodyCount, std::uint32_t maxLevel, cudaStream_t stream) {
    const LaunchSize size = launchSize1d(bodyCount, kThreads);
    writeLevelColorsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        vertices, loadOrder, levelOfLoad, unsigned(bodyCount), 1.0f / float(maxLevel > 0 ? maxLevel : 1));
    checkLaunch("writeLevelColorsKernel");
}

} // namespace gravlab
