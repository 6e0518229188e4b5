#pragma once
// The bodies a partial force evaluation is for: hierarchical time steps need, at each sub-step, the accelerations of
// the bodies whose step ends there (the active ones) against all bodies.
//
// Design note: the list serves solvers that launch one thread or slot per target (the direct sums); the per-body flags
// serve those that work on fixed groups of bodies (the tree walks a group when any of its bodies is listed). A solver
// that computes bodies it was not asked for (a walked group's inactive bodies) adds them to surplusBodies, so the cost
// reported counts the work done.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>

namespace gravlab {

struct DeviceTargets {
    const std::uint32_t* index = nullptr; ///< device: count distinct body indices, any order
    std::size_t count = 0;
    const std::uint8_t* isTarget = nullptr;      ///< device: one per body, 1 where listed
    unsigned long long* surplusBodies = nullptr; ///< device counter; may be null
};

/// The contiguous bodies [begin, begin + count) of bodyCount as targets, written on the device: index[k] = begin + k
/// (index holds at least count entries), isTarget[i] = 1 inside the range and 0 outside (bodyCount entries).
void launchSliceTargets(std::uint32_t* index, std::uint8_t* isTarget, std::size_t bodyCount, std::size_t begin,
                        std::size_t count, cudaStream_t stream);

} // namespace gravlab
