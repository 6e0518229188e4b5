// The NCCL communicator of GPU ranks: set up from an id broadcast over the host communicator (NcclCommunicator.hpp).
#include "distributed/cuda/NcclCommunicator.hpp"

#include "device/cuda/CudaStream.hpp"
#include "device/cuda/DeviceBuffer.hpp"

#include <cstdio>
#include <stdexcept>
#include <vector>

namespace gravlab {
namespace {

void throwOnNcclError(ncclResult_t result, const char* what) {
    if (result != ncclSuccess)
        throw std::runtime_error(std::string("NCCL error: ") + what + " failed: " + ncclGetErrorString(result));
}

/// NCCL groups the broadcasts below into one launch; every broadcast counts in size_t, floats here.
constexpr std::size_t kFloatsPerValue = 4;

} // namespace

NcclCommunicator::NcclCommunicator(Communicator& host) : m_rankCount(host.size()) {
    ncclUniqueId id{};
    if (host.rank() == 0)
        throwOnNcclError(ncclGetUniqueId(&id), "ncclGetUniqueId");
    host.broadcastBytes(std::as_writable_bytes(std::span<ncclUniqueId>(&id, 1)), 0);
    throwOnNcclError(ncclCommInitRank(&m_comm, host.size(), id, host.rank()), "ncclCommInitRank");
    // One value per rank gathered once: NCCL connects its channels now rather than in the first step (design note).
    try {
        const std::vector<std::uint64_t> oneEach(std::size_t(m_rankCount), 1);
        CudaStream stream;
        DeviceBuffer<float4> values(oneEach.size());
        values.zero(stream.get());
        allGatherSlices(values.data(), oneEach, stream.get());
        stream.synchronize();
    } catch (...) {
        (void)ncclCommDestroy(m_comm); // no destructor runs for an object whose constructor threw
        throw;
    }
}

NcclCommunicator::~NcclCommunicator() {
    if (m_comm == nullptr)
        return;
    if (const ncclResult_t result = ncclCommDestroy(m_comm); result != ncclSuccess)
        std::fprintf(stderr, "gravlab: ncclCommDestroy failed: %s\n", ncclGetErrorString(result));
}

std::string NcclCommunicator::version() {
    int code = 0;
    throwOnNcclError(ncclGetVersion(&code), "ncclGetVersion");
    // NCCL >= 2.9 encodes X.Y.Z as X * 10000 + Y * 100 + Z.
    return "NCCL " + std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
           std::to_string(code % 100);
}

void NcclCommunicator::allGatherSlices(float4* values, std::span<const std::uint64_t> valuesPerRank,
                                       cudaStream_t stream) {
    if (valuesPerRank.size() != std::size_t(m_rankCount))
        throw std::invalid_argument("allGatherSlices: " + std::to_string(valuesPerRank.size()) + " slice lengths for " +
                                    std::to_string(m_rankCount) + " ranks");
    throwOnNcclError(ncclGroupStart(), "ncclGroupStart");
    std::size_t first = 0;
    for (int root = 0; root < m_rankCount; ++root) {
        const std::size_t count = valuesPerRank[std::size_t(root)];
        float* slice = reinterpret_cast<float*>(values + first);
        if (count > 0) {
            // In place: the root's send buffer is its receive buffer.
            const ncclResult_t result =
                ncclBroadcast(slice, slice, count * kFloatsPerValue, ncclFloat, root, m_comm, stream);
            if (result != ncclSuccess) {
                (void)ncclGroupEnd();
                throwOnNcclError(result, "ncclBroadcast");
            }
        }
        first += count;
    }
    throwOnNcclError(ncclGroupEnd(), "ncclGroupEnd (the grouped broadcasts of the ranks' slices)");
}

} // namespace gravlab
