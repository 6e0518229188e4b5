#pragma once
// Where the zero-softening direct sums on the GPU report the first coincident pair they meet (CoincidentBodies.hpp).
//
// Design note: with eps = 0 the force kernels select away every term with r^2 == 0 and remember, per target, a source
// at r^2 == 0 that is another body. A target with such a partner then claims the one record with an atomicCAS on
// `found`; only the first claim writes, so the record holds one pair, with its bodies named by load index (ORB may
// reorder the bodies between the evaluation and the report; the load order travels with them) and its position. The
// host reads the record once per step() call, after the stream synchronisation the call does anyway, and only when an
// evaluation since the last read had zero softening, so runs with eps > 0 pay nothing.
#include "device/cuda/DeviceBuffer.hpp"

#include <cstdint>
#include <optional>

namespace gravlab {

/// One coincident pair as the kernels write it.
struct CoincidenceRecord {
    unsigned found; ///< 0 until a pair is recorded
    std::uint32_t firstLoadIndex;
    std::uint32_t secondLoadIndex;
    float x, y, z; ///< the first body's position at the evaluation
};

/// What a zero-softening launch needs to report a pair: the record and the bodies' load order (device pointers).
struct CoincidenceOutput {
    CoincidenceRecord* record = nullptr;
    const std::uint32_t* loadOrder = nullptr;
};

/// Owns the device record of one solver.
class CoincidenceReport {
public:
    /// The output for an evaluation with zero softening on stream; marks the record as worth reading.
    CoincidenceOutput arm(const std::uint32_t* loadOrder, cudaStream_t stream);
    /// The recorded pair, if an armed evaluation since the last call recorded one, and clears it; waits for stream only
    /// when armed.
    std::optional<CoincidenceRecord> take(cudaStream_t stream);
    std::uint64_t allocatedBytes() const { return m_record.bytes(); }

private:
    DeviceBuffer<CoincidenceRecord> m_record;
    bool m_armed = false;
};

} // namespace gravlab
