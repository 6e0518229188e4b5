#pragma once
// Hierarchical (block) time steps on the CPU: one base step dt made of power-of-two sub-steps, each body kicked on its
// own level's step, forces computed only for the bodies whose step ends.
//
// Design note: the KDK leapfrog of GADGET-2 (Springel 2005, section 4) on the tick grid of TimeStepLevels.hpp. At the
// start of a base step every body is synchronised (its acceleration is of the current positions) and takes the level
// its acceleration asks for. Then, sub-step by sub-step:
//   1. bodies whose step begins at this tick get their opening half-kick, v += a * (their step) / 2;
//   2. every body drifts by the sub-step, the step of the deepest level in use;
//   3. the bodies whose step ends at the new tick (the active ones, every level from the shallowest whose step divides
//      the tick down) get new accelerations, computed against all bodies at their drifted positions, then their
//      closing half-kick and their next level (TimeStepLevels.hpp: deeper at once, shallower only where the longer
//      step divides the tick).
// The last tick of the base step ends every level's step, so the base step ends synchronised, with accelerations of
// every body current, exactly as a fixed KDK step does; with every body on level 0 the sequence is the fixed step's,
// operation for operation. Levels are kept as a list of body indices sorted by level (a counting sort after each
// sub-step, O(N) like the drift), so a level's bodies are one contiguous run and the active bodies are the tail.
// The stepper owns only the levels; the backend owns the bodies, the accelerations, the solver and the ORB domains,
// reached through Hooks. ORB runs at the last sub-step, before its forces (every body is active there), weighting each
// body by its interactions times its evaluations per base step; the body order it leaves is applied to the levels.
// Under the symmetric and the tidal level choices the stepper also keeps, per body, its acceleration before its last
// evaluation and the time between the two (its step then), which give the slope the symmetric choice extrapolates with
// and the change of the acceleration the tidal one divides by the distance moved; forgetHistory() drops
// them when the state or the forces change under it (a load, a rollback, reversed velocities, fixed steps, another G,
// softening or solver), and a base step under the start's choice drops them too, since it does not keep them current.
// They are written just before each evaluation, after ORB's permutation at the last sub-step, where every body is
// evaluated: so they never need one.
#include "core/TimeStepLevels.hpp"

#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/SimulationBackend.hpp>
#include <gravlab/sim/TimeStepStatistics.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace gravlab {

class HierarchicalStepperCpu {
public:
    struct Hooks {
        /// New accelerations (and work weights) of the listed bodies, in the backend's arrays; the others are kept.
        std::function<void(std::span<const std::uint32_t> active)> computeForces;
        /// The ORB update before the last sub-step's forces, with per-body work multipliers (evaluations per base
        /// step, 2^level). Returns whether the bodies were permuted, and then order[k], the index before the update of
        /// the body now at k. Optional.
        std::function<bool(std::span<const float> evaluationsPerStep, std::vector<std::uint32_t>& order)> updateOrb;
    };

    /// One base step of criterion.baseStep; accelerations must be current for every body, and are again at the end.
    void step(Bodies& bodies, Vec3Arrays<float>& accelerations, const TimeStepCriterion& criterion, const Hooks& hooks,
              std::vector<PhaseTiming>& times);
    /// Every body's level from its acceleration (as a base step starts them), without stepping: for the panel and the
    /// colours before the first step, or after the accelerations changed.
    void assignLevels(const Bodies& bodies, const Vec3Arrays<float>& accelerations, const TimeStepCriterion& criterion);
    /// Forget the counters of the previous step() call (the backend calls it at the start of each).
    void resetCounters();
    /// Drops the accelerations the symmetric and tidal level choices remember: the next levels read no history.
    void forgetHistory();

    /// Per body, in the current body order: the level the next base step starts it on.
    std::span<const std::uint8_t> levels() const { return m_levels; }
    /// Histogram of levels() and the work of the base steps since resetCounters(), per base step.
    TimeStepStatistics statistics() const;
    std::uint32_t maxLevel() const { return m_maxLevel; }

private:
    /// Re-sorts m_byLevel and m_levelBegin after levels changed.
    void sortByLevel();
    /// Bodies on levels [first, maxLevel], one contiguous run of m_byLevel.
    std::span<const std::uint32_t> bodiesFromLevel(std::uint32_t first) const;
    /// Half-kicks every level from first down, each by half its step.
    void kickLevelsFrom(std::uint32_t first, Bodies& bodies, const Vec3Arrays<float>& accelerations,
                        double tickDuration);
    /// The last sub-step's ORB update; the levels follow the bodies.
    void updateOrb(const Hooks& hooks);
    std::uint32_t deepestLevelInUse() const;
    /// Body i's level from its acceleration, velocity and history (chosenTimeStepLevel).
    std::uint32_t wantedLevel(std::size_t i, const Bodies& bodies, const Vec3Arrays<float>& accelerations,
                              const TimeStepCriterion& criterion) const;
    /// Before the active bodies' new forces: their accelerations now and the step now ending become their history.
    void rememberAccelerations(std::span<const std::uint32_t> active, const Vec3Arrays<float>& accelerations,
                               double tickDuration);

    std::uint32_t m_maxLevel = 0;
    std::vector<std::uint8_t> m_levels;
    std::vector<std::uint32_t> m_byLevel;    ///< body indices sorted by level, ascending index within a level
    std::vector<std::uint32_t> m_levelBegin; ///< maxLevel + 2 offsets into m_byLevel
    std::vector<std::uint32_t> m_order;      ///< ORB's permutation, reused
    std::vector<float> m_evaluationsPerStep; ///< per body 2^level, for ORB's work weights
    Vec3Arrays<float> m_earlierAcceleration; ///< each body's acceleration before its last evaluation (history)
    std::vector<float> m_earlierInterval;    ///< and the time between the two; 0 when there is no earlier one
    std::uint64_t m_baseSteps = 0;
    std::uint64_t m_subSteps = 0;
    std::uint64_t m_forceEvaluations = 0;
};

} // namespace gravlab
