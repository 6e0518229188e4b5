// The window's part of the GL compute backend: moving the run onto it once the window's context exists, and off it
// before that context goes. Member functions of ViewerApp kept apart from its frame loop.
//
// Design note: the GL backend keeps the bodies in buffers of the context current when it is made, and every call on
// it must come from the thread where that context is current. The window's context exists only once the window is
// open, after the simulation was made, so a run asking for GL starts on the CPU and moves here (one upload), and auto
// moves when GlBackendChoice finds a hardware driver without CUDA. Its steps then run on this thread too
// (BackgroundStepper steps a GL backend with StepWorker::runHere): a second context shared with the window's on the
// worker would need fences between the step and the draw for no gain, since GL queues the step's dispatches and the
// frame's draws on the one GPU anyway. The buffers must be deleted while the context lives, so the destructor moves a
// GL run back to the CPU (one read-back) before the window, a member, is destroyed. When the window chooses the body
// count, it is measured on GL here, where the context exists, instead of the CPU measurement the launch made.
#include "GlBackendChoice.hpp"
#include "MeasuredWindowDefaults.hpp"
#include "ViewerApp.hpp"

#include <exception>
#include <iostream>

namespace gravlab {

void ViewerApp::adoptGlBackend(bool asked, bool measureBodyCount) {
    SimParams params = m_session.simulation().params();
    if (!asked && !autoChoosesGlBackend(params))
        return;
    params.backend = BackendKind::Gl;
    try {
        if (measureBodyCount) {
            const InteractiveDefaults defaults =
                measureWindowDefaults(params, m_session.stepsPerFrame(), appBackendFactory(), std::cerr);
            params.bodyCount = defaults.bodyCount;
            m_session.setStepsPerFrame(defaults.stepsPerFrame);
        }
        applyParams(params);
    } catch (const std::exception& error) {
        if (asked)
            throw;
        std::cerr << "gravlab: backend auto stays on the CPU: the GL backend could not start (" << error.what()
                  << ")\n";
        return;
    }
    std::cerr << "gravlab: stepping on " << m_session.simulation().backend().description() << '\n';
}

ViewerApp::~ViewerApp() {
    if (m_session.simulation().backend().device() != Device::Gl)
        return;
    try {
        SimParams params = m_session.simulation().params();
        params.backend = BackendKind::Cpu;
        m_session.applyParams(params);
    } catch (const std::exception& error) {
        std::cerr << "gravlab: could not move the bodies off the GL backend before closing the window: " << error.what()
                  << '\n';
    }
}

} // namespace gravlab
