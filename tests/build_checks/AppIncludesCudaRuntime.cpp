// Build check (tests/CMakeLists.txt, build.app_cannot_include_cuda_runtime): compiled with gravlab_app's include folders
// and libraries, the CUDA runtime's header must not be found. The check passes only on that error.
#include <cuda_runtime.h>
