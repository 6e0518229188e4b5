#include "orb/OrbDomainsCpu.hpp"

#include "orb/OrbImbalance.hpp"
#include "orb/OrbMigrationCpu.hpp"

#include <chrono>
#include <numeric>
#include <stdexcept>

namespace gravlab {
namespace {

bool hasPositiveTotal(const std::vector<float>& work, std::size_t bodyCount) {
    return work.size() == bodyCount && std::accumulate(work.begin(), work.end(), 0.0) > 0.0;
}

} // namespace

bool OrbDomainsCpu::update(Bodies& bodies, std::vector<float>& work, const OrbParams& params) {
    switch (m_schedule.next(params, bodies.size())) {
    case OrbSchedule::Action::Off:
        m_cells.clear();
        return false;
    case OrbSchedule::Action::Rebuild:
        rebuild(bodies, work, params);
        return true;
    case OrbSchedule::Action::Migrate:
        break;
    }
    const std::uint64_t moved = migrateOrbCpu(m_cells, bodies, work);
    const bool weighted = hasPositiveTotal(work, bodies.size());
    if (m_schedule.migrated(params, moved, orbImbalance(m_cells, weighted ? std::span<const float>(work) : std::span<const float>()))) {
        rebuild(bodies, work, params);
        return true;
    }
    return moved > 0;
}

bool OrbDomainsCpu::refresh(Bodies& bodies, std::vector<float>& work, const OrbParams& params) {
    if (m_schedule.upToDate(params, bodies.size()))
        return false;
    return update(bodies, work, params);
}

void OrbDomainsCpu::rebuild(Bodies& bodies, std::vector<float>& work, const OrbParams& params) {
    const auto start = std::chrono::steady_clock::now();
    // Count balance leaves work in the old order; the force evaluation that follows every update rewrites it.
    const bool byWork = params.balance == OrbBalance::Work && hasPositiveTotal(work, bodies.size());
    m_orb.build(bodies, params.domainCount, byWork ? std::span<float>(work) : std::span<float>());
    m_cells = m_orb.cells();
    const double milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    m_schedule.rebuilt(params, bodies.size(), milliseconds,
                       orbImbalance(m_cells, byWork ? std::span<const float>(work) : std::span<const float>()));
}

OrbStatus OrbDomainsCpu::status(std::span<const float> work) const {
    if (!m_schedule.active())
        return {};
    OrbStatus status = m_schedule.status();
    const bool weighted = work.size() == m_cells.front().bodyCount();
    status.imbalance = orbImbalance(m_cells, weighted ? work : std::span<const float>());
    return status;
}

void OrbDomainsCpu::writeDomainColors(std::span<RenderVertex> out) const {
    if (!m_schedule.active() || m_cells.empty() || out.size() != m_cells.front().bodyCount())
        throw std::logic_error("ORB domain colours: no domains describe these bodies");
    for (const OrbCell& cell : m_cells) {
        if (!cell.isLeaf())
            continue;
        const float scalar = orbDomainColorScalar(cell.firstDomain);
        for (std::uint32_t i = cell.begin; i < cell.end; ++i)
            out[i].colorScalar = scalar;
    }
}

bool updateOrbReportingOrder(OrbDomainsCpu& orb, Bodies& bodies, std::vector<float>& work, const OrbParams& params,
                             std::vector<std::uint32_t>& order) {
    std::vector<std::uint64_t> ids = std::move(bodies.id);
    bodies.id.resize(ids.size());
    std::iota(bodies.id.begin(), bodies.id.end(), std::uint64_t{0});
    const auto restoreIds = [&] {
        order.resize(ids.size());
        for (std::size_t k = 0; k < ids.size(); ++k) {
            order[k] = std::uint32_t(bodies.id[k]);
            bodies.id[k] = ids[order[k]];
        }
    };
    bool permuted = false;
    try {
        permuted = orb.update(bodies, work, params);
    } catch (...) {
        restoreIds();
        throw;
    }
    restoreIds();
    return permuted;
}

void permuteAccelerations(Vec3Arrays<float>& values, const std::vector<std::uint32_t>& order) {
    for (std::vector<float>* component : {&values.x, &values.y, &values.z}) {
        std::vector<float> moved(order.size());
        for (std::size_t k = 0; k < order.size(); ++k)
            moved[k] = (*component)[order[k]];
        *component = std::move(moved);
    }
}

} // namespace gravlab
