#pragma once
// GRAVLAB_HOST_DEVICE marks the small functions that the CPU reference and the CUDA kernels share (tree arithmetic,
// ORB point location), so both sides run the same code instead of two copies that could drift apart.
#if defined(__CUDACC__)
#define GRAVLAB_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define GRAVLAB_HOST_DEVICE inline
#endif
