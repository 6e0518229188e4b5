// When colour values are stale, and the legend of what was drawn (ScalarColoring.hpp).
#include "color/ScalarColoring.hpp"

#include "color/ForceErrorSample.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace gravlab {

bool ScalarColoring::valuesStale(std::uint64_t stateVersion, std::size_t bodyCount) const {
    if (!m_haveValues || m_valuesMode != m_mode || m_valuesChoice != m_choice || m_valuesBodyCount != bodyCount)
        return true;
    if (m_valuesVersion == stateVersion)
        return false;
    if (m_mode != ColorMode::ForceError)
        return true;
    const std::chrono::duration<double> age = Clock::now() - m_valuesTime;
    return age.count() >= std::min(kForceErrorRefreshSeconds, 4.0 * m_valuesCostSeconds);
}

void ScalarColoring::valuesComputed(std::uint64_t stateVersion, std::size_t bodyCount, std::vector<float> sample,
                                    std::string note) {
    m_haveValues = true;
    m_valuesMode = m_mode;
    m_valuesChoice = m_choice;
    m_valuesVersion = stateVersion;
    m_valuesBodyCount = bodyCount;
    m_valuesTime = Clock::now();
    m_valuesCostSeconds = std::chrono::duration<double>(m_valuesTime - m_computeStart).count();
    m_range = percentileRange(std::move(sample), logarithmic());
    m_valuesNote = std::move(note);
}

void ScalarColoring::showScalars(std::uint64_t stateVersion) {
    m_shownMode = m_mode;
    std::string note = m_valuesNote;
    if (stateVersion != m_valuesVersion)
        note += "; from an earlier state (refreshed at most every 0.5 s while running)";
    m_shown = {ColorLegend::Scalar, colorQuantityName(m_mode), "", m_range.low, m_range.high, logarithmic(),
               std::move(note)};
}

void ScalarColoring::showLeafDepth() {
    m_shownMode = ColorMode::LeafDepth;
    m_shown = {ColorLegend::Scalar,
               colorQuantityName(ColorMode::LeafDepth),
               "",
               0.0,
               double(kMaxTreeDepthForColor),
               false,
               "deeper leaves take the top colour"};
}

void ScalarColoring::showTimeStepLevels(std::uint32_t maxLevel) {
    m_shownMode = ColorMode::TimeStepLevel;
    m_shown = {ColorLegend::Scalar,
               colorQuantityName(ColorMode::TimeStepLevel),
               "",
               0.0,
               double(std::max<std::uint32_t>(maxLevel, 1)),
               false,
               "the level each body's acceleration asks for at the end of the last step"};
}

void ScalarColoring::showDomains() {
    m_shownMode = ColorMode::OrbDomain;
    m_shown = {ColorLegend::Domains, "", "", 0.0, 1.0, false, ""};
}

void ScalarColoring::showComponents(std::string reason) {
    m_shownMode = ColorMode::Component;
    m_shown = {ColorLegend::Components, "", "", 0.0, 1.0, false, std::move(reason)};
}

ColorScale ScalarColoring::scale(const UnitSystem& units) const {
    ColorScale scale = m_shown;
    scale.unit = colorUnitName(m_shownMode, units);
    return scale;
}

std::string scalarModeUnavailableReason(ColorMode mode, bool accelerationsCurrent, const SolverInfo* solver) {
    if (mode == ColorMode::ForceError && solver && !solver->usesOpeningAngle)
        return "exact solver '" + std::string(solver->name) + "': no tree error";
    if ((mode == ColorMode::Acceleration || mode == ColorMode::ForceError || mode == ColorMode::Potential) &&
        !accelerationsCurrent)
        return "no force evaluation yet: step once";
    return "";
}

std::vector<float> sampleForRange(const std::vector<float>& values) {
    const std::size_t count = std::min(values.size(), kColorRangeSampleSize);
    std::vector<float> sample(count);
    for (std::size_t k = 0; k < count; ++k)
        sample[k] = values[sampledBodyIndex(k, count, values.size())];
    return sample;
}

std::string rangeSampleNote(std::size_t bodyCount) {
    const std::size_t sampled = std::min(bodyCount, kColorRangeSampleSize);
    return "range: 1st-99th percentile of " +
           (sampled == bodyCount ? "all " + std::to_string(bodyCount)
                                 : std::to_string(sampled) + " of " + std::to_string(bodyCount)) +
           " bodies";
}

} // namespace gravlab
