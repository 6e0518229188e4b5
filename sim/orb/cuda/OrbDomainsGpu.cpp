#include "orb/cuda/OrbDomainsGpu.hpp"

#include "device/cuda/CudaCheck.hpp"

#include <gravlab/sim/DeviceInfo.hpp>

#include <algorithm>
#include <numeric>

namespace gravlab {

bool OrbDomainsGpu::update(DeviceBodies& bodies, DeviceBuffer<float4>& scratch, const OrbParams& params,
                           cudaStream_t stream) {
    switch (m_schedule.next(params, bodies.size())) {
    case OrbSchedule::Action::Off:
        return false;
    case OrbSchedule::Action::Rebuild:
        rebuild(bodies, params, stream);
        return true;
    case OrbSchedule::Action::Migrate:
        break;
    }
    const std::uint32_t domainCount = params.domainCount;
    m_migration.migrate(bodies, scratch, m_cells.data(), std::uint32_t(m_cells.size()), m_domainBegin.data(),
                        m_leafOfDomain.data(), domainCount, stream);
    std::uint32_t moved = 0;
    CUDA_CHECK(cudaMemcpyAsync(&moved, m_migration.movedCount(), sizeof moved, cudaMemcpyDeviceToHost, stream));
    const OrbImbalance imbalance = measureImbalance(bodies, stream); // waits for the stream, and so for `moved`
    if (m_schedule.migrated(params, moved, imbalance)) {
        rebuild(bodies, params, stream);
        return true;
    }
    return moved > 0;
}

bool OrbDomainsGpu::refresh(DeviceBodies& bodies, DeviceBuffer<float4>& scratch, const OrbParams& params,
                            cudaStream_t stream) {
    if (m_schedule.upToDate(params, bodies.size()))
        return false;
    return update(bodies, scratch, params, stream);
}

void OrbDomainsGpu::rebuild(DeviceBodies& bodies, const OrbParams& params, cudaStream_t stream) {
    const std::uint32_t domainCount = params.domainCount;
    if (!m_schedule.active()) // switching ORB on: say so clearly when its working arrays do not fit
        requireDeviceMemoryForBodies(bodies.size(), kBytesPerBody);
    m_orb.build(bodies, domainCount, params.balance, stream);
    const std::size_t cellCount = m_orb.cellCount();
    m_cells.resize(cellCount);
    CUDA_CHECK(cudaMemcpyAsync(m_cells.data(), m_orb.deviceCells(), cellCount * sizeof(OrbCell),
                               cudaMemcpyDeviceToDevice, stream));
    m_domainBegin.resize(std::size_t(domainCount) + 1);
    m_leafOfDomain.resize(domainCount);
    m_domainCounts.resize(domainCount);
    m_domainWork.resize(domainCount);
    launchOrbDomainIndex(m_cells.data(), std::uint32_t(cellCount), std::uint32_t(bodies.size()), m_domainBegin.data(),
                         m_leafOfDomain.data(), stream);
    m_migration.reserve(bodies.size(), domainCount);
    const OrbImbalance imbalance = measureImbalance(bodies, stream);
    m_schedule.rebuilt(params, bodies.size(), m_orb.lastBuildMilliseconds(), imbalance);
}

OrbImbalance OrbDomainsGpu::measureImbalance(const DeviceBodies& bodies, cudaStream_t stream) {
    const auto domainCount = std::uint32_t(m_domainCounts.size());
    launchOrbDomainLoads(bodies.acceleration.data(), m_domainBegin.data(), domainCount, m_domainCounts.data(),
                         m_domainWork.data(), stream);
    std::vector<std::uint32_t> counts(domainCount);
    std::vector<double> work(domainCount);
    m_domainCounts.download(counts, stream);
    m_domainWork.download(work, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    const double mean = double(bodies.size()) / domainCount;
    const double totalWork = std::accumulate(work.begin(), work.end(), 0.0);
    OrbImbalance imbalance;
    imbalance.memory = *std::max_element(counts.begin(), counts.end()) / mean;
    imbalance.work =
        totalWork > 0 ? *std::max_element(work.begin(), work.end()) * domainCount / totalWork : imbalance.memory;
    return imbalance;
}

std::vector<OrbCell> OrbDomainsGpu::cells(cudaStream_t stream) const {
    std::vector<OrbCell> out;
    if (!active())
        return out;
    out.resize(m_cells.size());
    m_cells.download(out, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return out;
}

void OrbDomainsGpu::writeDomainVertices(const DeviceBodies& bodies, RenderVertex* vertices, cudaStream_t stream) const {
    launchWriteOrbDomainVertices(bodies.positionMass.data(), m_domainBegin.data(), std::uint32_t(m_domainCounts.size()),
                                 reinterpret_cast<float4*>(vertices), std::uint32_t(bodies.size()), stream);
}

} // namespace gravlab
