// The cache of device attributes and occupancies (DeviceAttributes.hpp): the runtime's own answers, the same from
// every thread and every call.
#include "GpuTestSupport.hpp"
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceAttributes.hpp"

#include <thread>

namespace gravlab::gputest {
namespace {

__global__ void sizingProbeKernel(float* out) {
    out[threadIdx.x] = float(threadIdx.x);
}

class DeviceAttributes : public CudaDeviceTest {};

TEST_F(DeviceAttributes, AreTheRuntimesAnswers) {
    int device = 0, multiprocessors = 0, resident = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, sizingProbeKernel, 256, 0));
    EXPECT_EQ(multiprocessorCount(), multiprocessors);
    EXPECT_EQ(residentBlocksPerMultiprocessor(sizingProbeKernel, 256), resident);
    EXPECT_GT(resident, 0);
}

TEST_F(DeviceAttributes, AgreeAcrossThreads) {
    const int multiprocessors = multiprocessorCount();
    const int resident = residentBlocksPerMultiprocessor(sizingProbeKernel, 128);
    std::vector<int> seenMultiprocessors(8), seenResident(8);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < seenResident.size(); ++t)
        threads.emplace_back([&, t] {
            seenMultiprocessors[t] = multiprocessorCount();
            seenResident[t] = residentBlocksPerMultiprocessor(sizingProbeKernel, 128);
        });
    for (std::thread& thread : threads)
        thread.join();
    for (std::size_t t = 0; t < seenResident.size(); ++t) {
        EXPECT_EQ(seenMultiprocessors[t], multiprocessors) << "thread " << t;
        EXPECT_EQ(seenResident[t], resident) << "thread " << t;
    }
}

} // namespace
} // namespace gravlab::gputest
