#pragma once
// Device data between the GPUs of a run across ranks, through NCCL.
//
// Design note: one rank per GPU. NCCL's communicator is set up from a unique id that rank 0 creates and the host
// communicator (MPI, Communicator.hpp) broadcasts, so the same code runs on the GPUs of one host (NVLink, PCIe) and of
// several (NCCL's network transports) with the launch unchanged. What the distributed step needs is an all-gather of
// slices of different lengths, one per rank, into one array: NCCL's all-gather takes equal counts, so each rank's
// slice is broadcast from that rank, all of them in one NCCL group (one launch, the transfers run together). Every
// call is queued on the given stream and must be made by all ranks in the same order. Errors throw with NCCL's text;
// an asynchronous failure (a peer gone) is reported by the next call's check. NCCL connects its channels at the first
// collective, which took 0.8 s on two H200s: the constructor makes one small all-gather, so that the first step's
// exchange, and its time in the plots, does not carry that set-up.
#include "device/cuda/CudaCheck.hpp"

#include <gravlab/sim/Communicator.hpp>

#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include <nccl.h>
#include <span>
#include <string>

namespace gravlab {

class NcclCommunicator {
public:
    /// Collective over host's ranks; the calling rank's current CUDA device is its GPU.
    explicit NcclCommunicator(Communicator& host);
    ~NcclCommunicator();
    NcclCommunicator(const NcclCommunicator&) = delete;
    NcclCommunicator& operator=(const NcclCommunicator&) = delete;

    /// "NCCL 2.28.3".
    static std::string version();
    /// values holds every rank's slice back to back, rank r's valuesPerRank[r] float4s after those of the ranks
    /// before it; on return (on stream) every rank's array holds every slice. This rank's slice is read, the others'
    /// written.
    void allGatherSlices(float4* values, std::span<const std::uint64_t> valuesPerRank, cudaStream_t stream);

private:
    ncclComm_t m_comm = nullptr;
    int m_rankCount = 0;
};

} // namespace gravlab
