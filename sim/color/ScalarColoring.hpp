#pragma once
// The colour-mode state both backends share: the chosen mode and scale, when the per-body values are stale, their
// range, and what the last vertex write showed (the legend).
//
// Design note: a backend's visual source computes a colour mode's per-body values on its own device and keeps them
// between frames; this class decides when they must be computed again: after the state changed (the backend counts
// its state versions: steps, loads, reorders, new accelerations), when the mode, the scale choice or the body count
// changed. The force-error map is the exception: while the state keeps changing it is recomputed once
// min(kForceErrorRefreshSeconds, 4 x its last computation time) has passed since the last one, and shows the last map
// until then: a map that costs up to seconds takes at most a fifth of the time and leaves the view interactive,
// while a cheap one (a few thousand bodies, or headless frames far apart) follows every state. The legend is
// recorded as each vertex write decides it (the quantity, or the component colours with the reason for falling back),
// so colorScale() costs nothing per frame and always describes what is on screen.
#include "color/ScalarRange.hpp"

#include <gravlab/sim/ColorScale.hpp>
#include <gravlab/sim/SolverRegistry.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gravlab {

class ScalarColoring {
public:
    void setMode(ColorMode mode) { m_mode = mode; }
    ColorMode mode() const { return m_mode; }
    void setScaleChoice(ColorScaleChoice choice) { m_choice = choice; }
    ColorScaleChoice scaleChoice() const { return m_choice; }
    bool logarithmic() const { return usesLogarithmicScale(m_mode, m_choice); }

    /// The values are being computed from now on (their cost sets the force error's refresh interval).
    void computingValues() { m_computeStart = Clock::now(); }
    /// Whether the current mode's values must be computed for stateVersion (see the design note).
    bool valuesStale(std::uint64_t stateVersion, std::size_t bodyCount) const;
    /// The current mode's values were computed for stateVersion; sample is a sample of them (sampledBodyIndex) for the
    /// range, note says which bodies have a value.
    void valuesComputed(std::uint64_t stateVersion, std::size_t bodyCount, std::vector<float> sample, std::string note);
    /// The range of the last computed values.
    ScalarRange range() const { return m_range; }

    /// What the last vertex write showed.
    /// The current mode's values; stateVersion says whether they are the current state's (the force error may lag).
    void showScalars(std::uint64_t stateVersion);
    void showLeafDepth();
    /// Levels 0..maxLevel over the colour bar (colour scalar level / maxLevel; all 0 when maxLevel is 0).
    void showTimeStepLevels(std::uint32_t maxLevel);
    void showDomains();
    /// Component colours, with why when the mode asked for something else.
    void showComponents(std::string reason);
    /// Whether the last vertex write showed the current mode's per-body values.
    bool showsValues() const { return m_shown.legend == ColorLegend::Scalar && isScalarColorMode(m_shownMode); }
    /// The legend of the last vertex write, with the unit named in units.
    ColorScale scale(const UnitSystem& units) const;

private:
    using Clock = std::chrono::steady_clock;

    ColorMode m_mode = ColorMode::Component;
    ColorScaleChoice m_choice = ColorScaleChoice::Auto;
    bool m_haveValues = false;
    ColorMode m_valuesMode = ColorMode::Component;
    ColorScaleChoice m_valuesChoice = ColorScaleChoice::Auto;
    std::uint64_t m_valuesVersion = 0;
    std::size_t m_valuesBodyCount = 0;
    Clock::time_point m_valuesTime{};
    Clock::time_point m_computeStart{};
    double m_valuesCostSeconds = 0; ///< how long the last computation took
    ScalarRange m_range;
    std::string m_valuesNote;
    ColorScale m_shown;
    ColorMode m_shownMode = ColorMode::Component; ///< names the unit of m_shown
};

/// Why scalar mode mode cannot be shown now, or "" when it can (its values may still need computing):
/// |a|, the potential and the force error need a current force evaluation (the potential its G and softening), the
/// force error a solver with an opening angle (solver may be nullptr before the first evaluation).
std::string scalarModeUnavailableReason(ColorMode mode, bool accelerationsCurrent, const SolverInfo* solver);

/// The sample of values that the range is taken from: values[sampledBodyIndex(k, S, N)] for S = min(N, 65536).
std::vector<float> sampleForRange(const std::vector<float>& values);

/// "range from the 1st-99th percentile of 65536 of 1048576 bodies" (or "of all 1000 bodies").
std::string rangeSampleNote(std::size_t bodyCount);

} // namespace gravlab
