#pragma once
// The kernels of hierarchical (block) time steps on the device: the CPU stepper's sequence (HierarchicalStepper.hpp)
// with the per-body work of each sub-step done in a few passes over the bodies.
//
// Design note: levels are kept per body in load order (levelOfLoad[loadOrder[i]] is body i's), so ORB's permutations,
// which carry loadOrder with the bodies, leave them valid without a pass of their own. Each pass that changes levels
// also counts the bodies per level into a small histogram (per block in shared memory, then one atomic per level and
// block); the host reads it after every sub-step to find the deepest level in use (the next sub-step's length) and the
// number of active bodies (the next force launch's size): one small synchronisation per sub-step, the price of
// letting the hierarchy change at every tick. The level arithmetic is TimeStepLevels.hpp's, the CPU's.
#include "core/TimeStepLevels.hpp"

#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <vector_types.h>

namespace gravlab {

/// Levels the device kernels handle: kMaxTimeStepLevelRange's 16, plus level 0.
inline constexpr std::uint32_t kDeviceTimeStepLevels = 17;

/// Half of each level's step, in float as the kicks use it (index = level).
struct LevelHalfSteps {
    float value[kDeviceTimeStepLevels];
};

/// levelOfLoad[loadOrder[i]] = wanted level of body i's acceleration; histogram[level] += 1 (histogram zeroed first).
void launchAssignTimeStepLevels(const float4* acceleration, const std::uint32_t* loadOrder, std::uint8_t* levelOfLoad,
                                std::size_t bodyCount, const TimeStepCriterion& criterion, unsigned* histogram,
                                cudaStream_t stream);

/// Bodies whose step begins at tick get v += a * halfSteps[level]; then every body x += v * drift.
void launchOpeningKicksAndDrift(float4* positionMass, float4* velocityColor, const float4* acceleration,
                                const std::uint32_t* loadOrder, const std::uint8_t* levelOfLoad, std::size_t bodyCount,
                                std::uint32_t tick, std::uint32_t maxLevel, const LevelHalfSteps& halfSteps,
                                float drift, cudaStream_t stream);

/// isTarget[i] = level of body i >= shallowestActive; the indices of such bodies appended to activeList at
/// *activeCount (zeroed first; any order).
void launchSelectActiveBodies(const std::uint32_t* loadOrder, const std::uint8_t* levelOfLoad, std::size_t bodyCount,
                              std::uint32_t shallowestActive, std::uint8_t* isTarget, std::uint32_t* activeList,
                              unsigned* activeCount, cudaStream_t stream);

/// Active bodies (level >= shallowestActive) get v += a * halfSteps[level] and their next level (TimeStepLevels.hpp);
/// histogram[level] += 1 for every body's level afterwards (histogram zeroed first). When nonFiniteCount is given,
/// adds the bodies whose position or velocity is not finite to it.
void launchClosingKicksAndLevels(const float4* positionMass, float4* velocityColor, const float4* acceleration,
                                 const std::uint32_t* loadOrder, std::uint8_t* levelOfLoad, std::size_t bodyCount,
                                 std::uint32_t tick, std::uint32_t shallowestActive, const LevelHalfSteps& halfSteps,
                                 const TimeStepCriterion& criterion, unsigned* histogram, unsigned* nonFiniteCount,
                                 cudaStream_t stream);

/// acceleration[i].w *= 2^level: ORB's work weight becomes interactions times evaluations per base step.
void launchWeighWorkByLevel(float4* acceleration, const std::uint32_t* loadOrder, const std::uint8_t* levelOfLoad,
                            std::size_t bodyCount, cudaStream_t stream);

/// vertices[i].colorScalar = level of body i / max(maxLevel, 1) (positions are left as they are).
void launchWriteLevelColors(RenderVertex* vertices, const std::uint32_t* loadOrder, const std::uint8_t* levelOfLoad,
                            std::size_t bodyCount, std::uint32_t maxLevel, cudaStream_t stream);

} // namespace gravlab
