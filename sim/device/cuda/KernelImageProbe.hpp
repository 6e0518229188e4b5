#pragma once
// Whether this build holds GPU code that the current device can run.
//
// Design note: a build carries machine code for a few compute capabilities and PTX for the newest (CMakeLists.txt).
// Machine code runs only on its own major version at an equal or newer minor one, and PTX only on chips at least as
// new as it, so an older chip (a V100 is 7.0) or one the list skips finds no kernel at all; left alone, that surfaces
// as "no kernel image is available" at the first launch, deep inside a step. Asking the runtime for an empty kernel's
// attributes answers the question before any state exists, so the backend choice (DeviceInfo.cpp) can fall back to
// the CPU, or refuse the CUDA backend, with a sentence naming the chip and the CMake option that fixes the build.
#include <cuda_runtime_api.h>

namespace gravlab {

/// cudaSuccess when the current device can run this build's kernels; otherwise the runtime's answer
/// (cudaErrorNoKernelImageForDevice or cudaErrorInvalidDeviceFunction when no code matches the device).
cudaError_t kernelImageStatus();

} // namespace gravlab
