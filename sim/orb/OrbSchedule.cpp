#include "orb/OrbSchedule.hpp"

namespace gravlab {

OrbSchedule::Action OrbSchedule::next(const OrbParams& params, std::size_t bodyCount) {
    if (params.domainCount == 0 || bodyCount == 0) {
        m_status = OrbStatus{};
        m_valid = false;
        return Action::Off;
    }
    if (!upToDate(params, bodyCount) || m_stepsSinceRebuild + 1 >= params.rebuildInterval)
        return Action::Rebuild;
    return Action::Migrate;
}

bool OrbSchedule::upToDate(const OrbParams& params, std::size_t bodyCount) const {
    if (params.domainCount == 0)
        return !m_valid;
    return m_valid && m_builtWith.domainCount == params.domainCount && m_builtWith.balance == params.balance &&
           m_builtForBodies == bodyCount;
}

void OrbSchedule::rebuilt(const OrbParams& params, std::size_t bodyCount, double milliseconds,
                          const OrbImbalance& imbalance) {
    if (!m_valid || m_builtWith.domainCount != params.domainCount || m_builtWith.balance != params.balance)
        m_status.rebuilds = 0;
    m_builtWith = params;
    m_builtForBodies = bodyCount;
    m_valid = true;
    m_stepsSinceRebuild = 0;
    m_status.domainCount = params.domainCount;
    m_status.imbalance = imbalance;
    m_status.migratedLastStep = 0;
    m_status.lastRebuildMilliseconds = milliseconds;
    ++m_status.rebuilds;
}

bool OrbSchedule::migrated(const OrbParams& params, std::uint64_t bodiesMoved, const OrbImbalance& imbalance) {
    ++m_stepsSinceRebuild;
    m_status.imbalance = imbalance;
    m_status.migratedLastStep = bodiesMoved;
    const double balanced = params.balance == OrbBalance::Work ? imbalance.work : imbalance.memory;
    return balanced > params.imbalanceLimit;
}

} // namespace gravlab
