#pragma once
// Entry points of the CUDA core for code that must not see CUDA headers (Simulation.cpp's backend choice).
// Only compiled when GRAVLAB_HAS_CUDA is defined.
// cudaDeviceAvailable(std::string& reason) comes from DeviceInfo.hpp.
#include <gravlab/sim/DeviceInfo.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <cstdint>
#include <memory>

namespace gravlab {

/// A CudaBackend on the current device; throws std::runtime_error naming the reason when there is no device.
std::unique_ptr<SimulationBackend> createCudaBackend(const SimParams& params);

/// Device bytes per body a CudaBackend holds for a run of params: CudaBackend::kDeviceBytesPerBody, plus ORB's
/// working arrays while ORB is on and the levels and active lists of hierarchical time steps (MemoryBudget.hpp adds
/// DeviceInfo's fixed reserve).
std::uint64_t cudaDeviceBytesPerBody(const SimParams& params);

} // namespace gravlab
