#pragma once
// Programmatic dependent launch (compute capability 9.0 and later): a kernel launched by launchDependent() may start
// while the kernel before it in the stream is still finishing, so its blocks are already resident, and its prologue
// (finding its tile, loading inputs that earlier kernels wrote) already done, when the previous kernel's last blocks
// retire. Chains of short dependent kernels, such as an ORB level's passes, otherwise pay a launch latency and a
// ramp-up at every boundary.
//
// Design note, the contract a kernel launched this way keeps:
//   - Before waitForPreviousKernel() it reads only what kernels at least two launches back (or the host) wrote, and
//     writes nothing another kernel reads or writes.
//   - Every block reaches waitForPreviousKernel(), also one that has nothing to do: a kernel may start once every
//     block of the one before has called allowNextKernel() or exited, and only a wait makes "the previous kernel
//     has finished" carry over to the kernels before it.
//   - allowNextKernel() comes after the wait, so the next kernel's prologue finds this one's predecessor finished.
// On older devices the launch is an ordinary one and both calls do nothing. Captured into a CUDA graph, the launch
// becomes a programmatic edge.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceAttributes.hpp"

#include <cuda_runtime.h>
#include <utility>

namespace gravlab {

/// True when the current device runs programmatic dependent launches (compute capability 9.0 or later).
inline bool dependentLaunchSupported() {
    return computeCapabilityMajor() >= 9;
}

/// kernel<<<grid, block, 0, stream>>>(arguments...) as a programmatic dependent launch where the device supports it
/// (an ordinary launch elsewhere); throws, naming the kernel, when the launch fails (as checkLaunch).
template <typename... Parameters, typename... Arguments>
void launchDependent(const char* kernelName, void (*kernel)(Parameters...), dim3 grid, dim3 block, cudaStream_t stream,
                     Arguments&&... arguments) {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = 0;
    config.stream = stream;
    config.attrs = &attribute;
    config.numAttrs = dependentLaunchSupported() ? 1 : 0;
    throwOnCudaError(cudaLaunchKernelEx(&config, kernel, std::forward<Arguments>(arguments)...), kernelName, __FILE__,
                     __LINE__);
    checkLaunch(kernelName);
}

#if defined(__CUDACC__)
/// Waits until the kernel launched before this one has finished and its writes are visible (a no-op when this kernel
/// was launched the ordinary way or the device predates compute capability 9.0).
__device__ __forceinline__ void waitForPreviousKernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();
#endif
}

/// Lets the next kernel in the stream start once every block of this one has called it (or exited).
__device__ __forceinline__ void allowNextKernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaTriggerProgrammaticLaunchCompletion();
#endif
}
#endif

} // namespace gravlab
