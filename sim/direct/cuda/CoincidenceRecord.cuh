#pragma once
// Device half of the coincident-pair record (CoincidenceRecord.hpp): the first claim writes the pair.
#include "direct/cuda/CoincidenceRecord.hpp"

#include <cuda_runtime.h>

namespace gravlab::force {

/// "No partner found yet" in the kernels' per-target partner registers.
inline constexpr unsigned kNoPartner = 0xffffffffu;

/// Records (target, partner) unless a pair is recorded already. Rare: runs once per target that met a partner.
__device__ inline void recordCoincidence(const CoincidenceOutput& output, const float4* __restrict__ positionMass,
                                         unsigned target, unsigned partner) {
    if (atomicCAS(&output.record->found, 0u, 1u) != 0u)
        return;
    const float4 body = positionMass[target];
    output.record->firstLoadIndex = output.loadOrder[target];
    output.record->secondLoadIndex = output.loadOrder[partner];
    output.record->x = body.x;
    output.record->y = body.y;
    output.record->z = body.z;
}

} // namespace gravlab::force
