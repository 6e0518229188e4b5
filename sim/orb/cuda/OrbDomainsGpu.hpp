#pragma once
// The CUDA backend's ORB domains: a full re-partition (OrbGpu) or a migration (OrbMigrationGpu) per step, as
// OrbSchedule decides, over the backend's DeviceBodies, which are domain-major while ORB is on. The GPU twin of
// OrbDomainsCpu.
//
// Design note: after a re-partition the cells are copied into this class's own array, which migration then edits
// (ranges, outer faces), together with two small indexes: domainBegin (np + 1 body indices) and leafOfDomain (np cell
// indices). The host reads np + 1 counts and np work sums once per update (a few kilobytes) for the imbalance that
// decides the next re-partition, and reads the cells only when asked (overlay).
#include "device/cuda/DeviceBodies.hpp"
#include "device/cuda/DeviceBuffer.hpp"
#include "orb/OrbSchedule.hpp"
#include "orb/cuda/OrbGpu.hpp"
#include "orb/cuda/OrbMigrationGpu.hpp"

#include <vector>

namespace gravlab {

class OrbDomainsGpu {
public:
    /// Device bytes per body while ORB is on: the build's scratch (work balance included) and migration's arrays.
    static constexpr std::uint64_t kBytesPerBody = OrbGpu::buildBytesPerBody(true) + OrbMigrationGpu::kBytesPerBody;

    /// Brings the domains up to params for the bodies' current positions (after a drift), permuting the bodies (work
    /// weights in acceleration.w travel with them); scratch holds one float4 per body and may be swapped with one of
    /// the body arrays. Waits for the stream once (the imbalance read). Returns whether the bodies were permuted.
    bool update(DeviceBodies& bodies, DeviceBuffer<float4>& scratch, const OrbParams& params, cudaStream_t stream);
    /// Without a drift: rebuilds (or switches off) only when params' layout differs from the current domains'.
    bool refresh(DeviceBodies& bodies, DeviceBuffer<float4>& scratch, const OrbParams& params, cudaStream_t stream);
    void invalidate() { m_schedule.invalidate(); }

    bool active() const { return m_schedule.active(); }
    OrbStatus status() const { return active() ? m_schedule.status() : OrbStatus{}; }
    /// The current cells, breadth first; empty while ORB is off. Waits for the stream.
    std::vector<OrbCell> cells(cudaStream_t stream) const;
    /// vertices[i] = (position, orbDomainColorScalar(domain of body i)); requires active().
    void writeDomainVertices(const DeviceBodies& bodies, RenderVertex* vertices, cudaStream_t stream) const;

private:
    void rebuild(DeviceBodies& bodies, const OrbParams& params, cudaStream_t stream);
    /// Memory and work imbalance of the current ranges (work from acceleration.w; all zero: equal to memory).
    OrbImbalance measureImbalance(const DeviceBodies& bodies, cudaStream_t stream);

    OrbGpu m_orb;
    OrbMigrationGpu m_migration;
    OrbSchedule m_schedule;
    DeviceBuffer<OrbCell> m_cells;
    DeviceBuffer<std::uint32_t> m_domainBegin;
    DeviceBuffer<std::uint32_t> m_leafOfDomain;
    DeviceBuffer<std::uint32_t> m_domainCounts;
    DeviceBuffer<double> m_domainWork;
};

} // namespace gravlab
