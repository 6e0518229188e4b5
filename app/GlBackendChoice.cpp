// The app's backend factory: GL when asked for or when auto finds a hardware GL driver (see GlBackendChoice.hpp).
#include "GlBackendChoice.hpp"

#include <gravlab/render/GlCompute.hpp>
#include <gravlab/sim/GlBackendParams.hpp>

#include <stdexcept>

namespace gravlab {

bool autoChoosesGlBackend(const SimParams& params) {
    if (params.backend != BackendKind::Auto || cudaBackendWouldBeChosen(params) || glBackendRefusal(params) ||
        !glContextCurrentOnThisThread())
        return false;
    const GlComputeSupport support = queryGlComputeSupport();
    return support.usable() && !support.softwareRenderer;
}

BackendFactory appBackendFactory() {
    return [](const SimParams& params) -> std::unique_ptr<SimulationBackend> {
        if (params.backend == BackendKind::Gl && !glContextCurrentOnThisThread())
            throw std::runtime_error("backend 'gl' needs an OpenGL context on the thread that steps, and there is none "
                                     "here: use --backend cpu or cuda");
        if (params.backend == BackendKind::Gl)
            return createGlComputeBackend(params);
        if (autoChoosesGlBackend(params))
            return createGlComputeBackend(params, "auto: no CUDA device, a hardware GL driver");
        return createBackend(params);
    };
}

} // namespace gravlab
