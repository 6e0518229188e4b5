#pragma once
// Which backend a run gets: the GL compute backend for --backend gl, and for --backend auto on a laptop's GPU, when a
// GL context is current on the calling thread; createBackend otherwise.
//
// Design note: sim cannot make the GL backend (it needs a context), so the app hands Simulation (or bench's
// timeSteps) this factory. It looks at the calling thread when it is called: the headless context (made before the
// simulation) or the window's (the window switches to GL once it is open) is current on the main thread, where every
// backend switch happens. Auto picks GL only where it is the fastest choice: no CUDA device would be chosen, the driver
// is a hardware one (Mesa's llvmpipe, softpipe and swrast run the shaders on the CPU, slower than the CPU backend), the
// driver offers what the backend needs, and the solver and parameters run there (GlBackendParams.hpp). The backend's
// description then says that auto chose it and why, so the log line that names the backend says so too.
#include <gravlab/sim/Simulation.hpp>

namespace gravlab {

/// Whether backend auto would run params on GL in the context current on this thread (see the design note); false
/// without one.
bool autoChoosesGlBackend(const SimParams& params);

/// The app's factory: GL for backend 'gl' (without a current context it throws, saying where gl runs) and where
/// autoChoosesGlBackend; createBackend otherwise.
BackendFactory appBackendFactory();

} // namespace gravlab
