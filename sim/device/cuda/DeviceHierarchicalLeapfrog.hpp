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
// A sub-step is two launches around the evaluation: the opening pass (kicks, drift, and the list of the bodies whose
// step ends, which the evaluation takes) and the closing pass (kicks, new levels, histogram). Each clears the counter
// the other appends to, so no memset or separate selection pass sits between them: at small N a sub-step's cost is
// its launches and its one synchronisation, not its bytes.
// The memory of the symmetric and tidal level choices (each body's acceleration before its last evaluation, and the
// time between the two) is one float4 per body in load order too, written by the opening pass for the bodies about to
// be evaluated: keyed by the body rather than its place, it needs no care at ORB's permutation, which may fall between
// the write and the evaluation.
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

/// Per body in load order: the acceleration before its last evaluation (x, y, z) and the time between the two (w; 0
/// when there is none). Read by the symmetric and tidal level choices; may be null under the start's choice.
using EarlierAccelerations = const float4*;

/// levelOfLoad[loadOrder[i]] = wanted level of body i's acceleration and velocity (chosenTimeStepLevel);
/// histogram[level] += 1 (histogram zeroed first).
void launchAssignTimeStepLevels(const float4* acceleration, const float4* velocityColor, const std::uint32_t* loadOrder,
                                std::uint8_t* levelOfLoad, std::size_t bodyCount, const TimeStepCriterion& criterion,
                                EarlierAccelerations earlier, unsigned* histogram, cudaStream_t stream);

/// The bodies evaluated at a sub-step's end (levels from shallowestActive down), and what the opening pass prepares
/// for that evaluation and for the closing pass.
struct SubStepTargets {
    std::uint32_t shallowestActive;
    /// isTarget[i] = body i is evaluated, and its index appended to activeList at *activeCount (cleared by the previous
    /// closing pass, or before the base step; any order). All null when every body is evaluated (no list needed).
    std::uint8_t* isTarget;
    std::uint32_t* activeList;
    unsigned* activeCount;
    /// Symmetric and tidal choices: earlier[loadOrder[i]] = (acceleration, 2 * halfSteps[level]) of every evaluated
    /// body; null under the start's choice.
    float4* earlier;
    /// The closing pass's level histogram, set to zero.
    unsigned* histogramToClear;
};

/// Bodies whose step begins at tick get v += a * halfSteps[level]; then every body x += v * drift; then the targets
/// of the evaluation at the sub-step's end are listed and remembered as `targets` says.
void launchOpeningKicksAndDrift(float4* positionMass, float4* velocityColor, const float4* acceleration,
                                const std::uint32_t* loadOrder, const std::uint8_t* levelOfLoad, std::size_t bodyCount,
                                std::uint32_t tick, std::uint32_t maxLevel, const LevelHalfSteps& halfSteps,
                                float drift, const SubStepTargets& targets, cudaStream_t stream);

/// Active bodies (level >= shallowestActive) get v += a * halfSteps[level] and their next level (TimeStepLevels.hpp);
/// histogram[level] += 1 for every body's level afterwards (histogram zeroed first). When nonFiniteCount is given,
/// adds the bodies whose position or velocity is not finite to it. *activeCountToClear = 0 for the next opening pass.
void launchClosingKicksAndLevels(const float4* positionMass, float4* velocityColor, const float4* acceleration,
                                 const std::uint32_t* loadOrder, std::uint8_t* levelOfLoad, std::size_t bodyCount,
                                 std::uint32_t tick, std::uint32_t shallowestActive, const LevelHalfSteps& halfSteps,
                                 const TimeStepCriterion& criterion, EarlierAccelerations earlier, unsigned* histogram,
                                 unsigned* nonFiniteCount, unsigned* activeCountToClear, cudaStream_t stream);

/// acceleration[i].w *= 2^level: ORB's work weight becomes interactions times evaluations per base step.
void launchWeighWorkByLevel(float4* acceleration, const std::uint32_t* loadOrder, const std::uint8_t* levelOfLoad,
                            std::size_t bodyCount, cudaStream_t stream);

/// vertices[i].colorScalar = level of body i / max(maxLevel, 1) (positions are left as they are).
void launchWriteLevelColors(RenderVertex* vertices, const std::uint32_t* loadOrder, const std::uint8_t* levelOfLoad,
                            std::size_t bodyCount, std::uint32_t maxLevel, cudaStream_t stream);

} // namespace gravlab
