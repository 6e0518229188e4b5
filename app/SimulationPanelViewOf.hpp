#pragma once
// The simulation panel's view of a session, shared by the window and the frame bench (which draws the same panels).
//
// Design note: with steps on a worker thread the panel must not read the simulation itself; the view is built from
// the status captured when the worker was last idle and from what the main thread owns (the controller's run
// settings and energy history, the pipeline's vertex path). It refers to its arguments, which must outlive it.
#include "FramePipeline.hpp"
#include "panels/SimulationPanel.hpp"
#include "session/SessionController.hpp"
#include "session/SessionStatus.hpp"

#include <string_view>

namespace gravlab {

SimulationPanelView simulationPanelViewOf(const SessionStatus& status, const SessionController& session,
                                          const FramePipeline& pipeline, std::string_view renderer,
                                          const RecordingView& recording);

} // namespace gravlab
