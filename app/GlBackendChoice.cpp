// The app's backend factory: GL when asked for or when auto finds a hardware GL driver (see GlBackendChoice.hpp).
#include "GlBackendChoice.hpp"

#include <gravlab/render/GlCompute.hpp>
#include <gravlab/sim/GlBackendParams.hpp>

#include <stdexcept>

namespace gravlab {

bool autoChoosesGlBackend(const SimParams& params, bool glContextCurrent) {
    if (!glContextCurrent || params.backend != BackendKind::Auto || cudaBackendWouldBeChosen(params) ||
        glBackendRefusal(params))
        return false;
    const GlComputeSupport support = queryGlComputeSupport();
    return support.usable() && !support.softwareRenderer;
}

BackendFactory backendFactoryFor(bool glContextCurrent) {
    return [glContextCurrent](const SimParams& params) -> std::unique_ptr<SimulationBackend> {
        if (params.backend == BackendKind::Gl && !glContextCurrent)
            throw std::runtime_error(
                "backend 'gl' steps in the GL context of headless runs (--headless) and of gravlab "
                "bench; here there is none: use --headless, or --backend cpu or cuda");
        if (params.backend == BackendKind::Gl)
            return createGlComputeBackend(params);
        if (autoChoosesGlBackend(params, glContextCurrent))
            return createGlComputeBackend(params, "auto: no CUDA device, a hardware GL driver");
        return createBackend(params);
    };
}

} // namespace gravlab
