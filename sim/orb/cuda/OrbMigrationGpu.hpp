#pragma once
// Migration between ORB domains on the GPU: the CUDA twin of migrateOrbCpu (OrbMigrationCpu.hpp), over the
// domain-major DeviceBodies.
//
// Design note. Inputs: the cell array (breadth first, as OrbGpu and OrbCpu build it), domainBegin (np + 1 body
// indices: domain d owns [domainBegin[d], domainBegin[d + 1])) and leafOfDomain (np cell indices). One migration:
//   classify  per body: its domain by binary search over domainBegin; OrbLocate.hpp's stay test against its leaf,
//             descent for leavers; a leaver takes its write slot in its destination's buffer with an atomicAdd on
//             that buffer's counter (arrivals[dest]) and counts itself out of its domain (departures[own]); all
//             bodies fold their position into the bounds (ordered-key atomicMin/Max, one per warp);
//   ranges    one block: stayers = old count - departures, new count = stayers + arrivals, a block scan gives the
//             new domainBegin; every cell's range is rejoined from its leaves and the root's outer faces grow to the
//             bounds (orbGrowOuterFaces);
//   place     an exclusive scan of the stay flags ranks each stayer within its domain; every body gets its new index:
//             stayers at newBegin + rank (their old order), leavers at newBegin + stayers + slot (the arrivals form
//             the tail of the destination's range: that tail is the per-destination buffer);
//   scatter   the three float4 body arrays, one at a time through the 16-byte scratch, then copied back.
// Arrival order inside a destination follows the atomics and so may differ between runs; which bodies end in which
// domain does not. The tree solver orders bodies by position (Morton key, then index), so its forces do not depend
// on the order of equal-key-free bodies; the direct sums add in array order and so round differently when it changes.
// Memory: 16 bytes per body (8-byte leaver tag, stay flag, its scan) beside the backend's scratch, O(np) counters.
#include "device/cuda/DeviceBodies.hpp"
#include "device/cuda/DeviceBuffer.hpp"

#include <gravlab/sim/Orb.hpp>

#include <cstdint>
#include <cuda_runtime_api.h>
#include <vector_types.h>

namespace gravlab {

/// Device buffers of one migration; sized by OrbMigrationGpu::reserve.
class OrbMigrationGpu {
public:
    static constexpr std::uint64_t kBytesPerBody = 16; ///< leaver tag, stay flag and its scan

    /// Sizes the per-body and per-domain buffers for bodyCount bodies and domainCount <= 1024 domains.
    void reserve(std::size_t bodyCount, std::uint32_t domainCount);

    /// Moves the bodies that left their leaf into the leaf holding them now (all three arrays, accelerations and
    /// their work weights included) and rewrites cells (ranges, outer faces) and domainBegin; queued on stream.
    /// scratch holds one float4 per body. The number of bodies that changed domain is left on the device; see
    /// movedCount().
    void migrate(DeviceBodies& bodies, DeviceBuffer<float4>& scratch, OrbCell* cells, std::uint32_t cellCount,
                 std::uint32_t* domainBegin, const std::uint32_t* leafOfDomain, std::uint32_t domainCount,
                 cudaStream_t stream);
    /// Device pointer to the bodies moved by the last migrate() (valid once the stream reaches it).
    const std::uint32_t* movedCount() const { return m_counters.data(); }

private:
    DeviceBuffer<unsigned long long> m_leaverTag; ///< per body: destination << 32 | slot, or all ones for a stayer
    DeviceBuffer<std::uint32_t> m_stayFlags;      ///< per body: 1 for a stayer; then the body's new index
    DeviceBuffer<std::uint32_t> m_stayBefore;     ///< exclusive scan of the stay flags
    DeviceBuffer<std::uint32_t> m_counters;       ///< moved total, then departures[np], arrivals[np]
    DeviceBuffer<std::uint32_t> m_bounds;         ///< ordered-key min x, y, z, max x, y, z
    DeviceBuffer<std::uint32_t> m_stayersOf;      ///< per domain, after the ranges pass
    DeviceBuffer<unsigned char> m_scanScratch;
};

/// leafOfDomain[d] and domainBegin[0 .. np] from a freshly built cell array; queued on stream.
void launchOrbDomainIndex(const OrbCell* cells, std::uint32_t cellCount, std::uint32_t bodyCount,
                          std::uint32_t* domainBegin, std::uint32_t* leafOfDomain, cudaStream_t stream);

/// Per domain d: its body count and the sum of acceleration.w (the work weights) over its range, into counts[d] and
/// work[d]; queued on stream.
void launchOrbDomainLoads(const float4* acceleration, const std::uint32_t* domainBegin, std::uint32_t domainCount,
                          std::uint32_t* counts, double* work, cudaStream_t stream);

/// vertices[i] = (position of body i, orbDomainColorScalar(domain of i)); queued on stream.
void launchWriteOrbDomainVertices(const float4* positionMass, const std::uint32_t* domainBegin,
                                  std::uint32_t domainCount, float4* vertices, std::uint32_t bodyCount,
                                  cudaStream_t stream);

} // namespace gravlab
