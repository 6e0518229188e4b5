// Build check (tests/CMakeLists.txt, build.app_cannot_include_cuda_backend): compiled with gravlab_app's include folders
// and libraries, sim's private CUDA backend header must not be found. The check passes only on that error.
#include "device/cuda/CudaBackend.hpp"
