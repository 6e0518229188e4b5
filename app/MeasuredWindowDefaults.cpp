// The window's measured defaults (MeasuredWindowDefaults.hpp).
#include "MeasuredWindowDefaults.hpp"

#include <ostream>

namespace gravlab {

InteractiveDefaults measureWindowDefaults(const SimParams& params, int stepsPerFrame, const BackendFactory& makeBackend,
                                          std::ostream& log) {
    const InteractiveDefaults defaults =
        chooseInteractiveDefaults(measureStepCost(params, makeBackend), stepsPerFrame, kDefaultCudaBodyCount);
    log << "gravlab: measured a " << params.solver << " step of " << defaults.model.measuredBodies << " bodies in "
        << 1e3 * defaults.model.measuredStepSeconds << " ms on this machine, so the window opens with "
        << defaults.bodyCount << " bodies and " << defaults.stepsPerFrame << " step(s) per frame to keep about "
        << kInteractiveFramesPerSecond << " frames/s (--bodies sets another count)\n";
    return defaults;
}

} // namespace gravlab
