#pragma once
// The scenario gallery section of the simulation panel: what the chosen scenario shows, what to look for, its time
// scales for the current parameters, a "use suggested settings" button and a slider per scenario parameter.
//
// Design note: display and edit only, like the other panels. Everything shown comes from the registry's gallery entry
// (Scenarios.hpp); the edits come back as requests (new scenario parameter values, or the suggested settings) that
// the simulation panel folds into the SimParams it returns, so Simulation::setParams validates them and re-initialises
// the scenario. A slider reports its value when released, not while dragged, so a drag does not regenerate the bodies
// every frame.
#include <gravlab/sim/Scenarios.hpp>

#include <optional>

namespace gravlab {

struct ScenarioGalleryView {
    const Scenario& scenario;
    const ScenarioParams& chosen; ///< the simulation's current values (defaults left out)
};

struct ScenarioGalleryRequests {
    std::optional<ScenarioParams> scenarioParams; ///< edited values, not yet validated
    std::optional<SuggestedSettings> suggested;   ///< the scenario's suggested settings were asked for
};

class ScenarioGallery {
public:
    ScenarioGalleryRequests draw(const ScenarioGalleryView& view);

private:
    void drawTimeScales(const ScenarioGalleryView& view);
    bool drawParameterSliders(const ScenarioGalleryView& view, ScenarioParams& edited);
};

} // namespace gravlab
