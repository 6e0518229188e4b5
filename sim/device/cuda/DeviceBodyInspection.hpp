#pragma once
// The device halves of a body inspection (BodyInspection.hpp): find a body in the current order by its load order,
// and the fp64 potential at one body.
//
// Design note: the CUDA backend knows a body's load index from its host id table, but not where ORB has moved the
// body since: one pass over the N load-order entries finds it (4 bytes read per body), far cheaper than copying the
// whole table back; a few bodies at once (trails) share the pass, each thread comparing its entry with every target.
// The potential sums -G m_j / sqrt(r^2 + eps^2) over every j != i with each pair term in fp64 (one body, so fp64's
// lower rate costs nothing that matters) and fp64 accumulation; block sums go through cub::BlockReduce and the few
// partials are added on the host in a fixed order, so the result does not depend on scheduling and matches the CPU's
// potentialAtBodyFp64 to rounding. The few device words both need live in a BodySearchScratch the caller keeps, so a
// per-frame lookup (trails, follow) allocates nothing: cudaFree would synchronise the whole device every frame.
#include "device/cuda/DeviceBuffer.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <optional>
#include <span>
#include <vector>
#include <vector_types.h>

namespace gravlab {

inline constexpr std::size_t kMaxBodiesFound = 64;

/// Device words of the searches and the potential, allocated once (1 KiB in all and a few kilobytes of partials).
struct BodySearchScratch {
    DeviceBuffer<std::uint32_t> targets{kMaxBodiesFound};
    DeviceBuffer<std::uint32_t> found{kMaxBodiesFound};
    DeviceBuffer<double> partials; ///< one per block of the potential, sized on first use
};

/// Indices in the current order of the bodies whose load orders are loadIndices (at most kMaxBodiesFound), one entry
/// each, empty where none has it. One pass over the bodies; waits for stream.
std::vector<std::optional<std::size_t>> findBodiesByLoadOrder(const std::uint32_t* loadOrder, std::size_t bodyCount,
                                                              std::span<const std::uint32_t> loadIndices,
                                                              BodySearchScratch& scratch, cudaStream_t stream);

/// phi of body index (< bodyCount) by the fp64 direct sum over the other bodies. Waits for stream.
double potentialAtBodyDevice(const float4* positionMass, std::size_t bodyCount, std::size_t index,
                             const GravityParams& gravity, BodySearchScratch& scratch, cudaStream_t stream);

} // namespace gravlab
