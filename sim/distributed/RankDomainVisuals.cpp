// Per-rank colours and the ranks' ORB status (see RankDomainVisuals.hpp).
#include "distributed/RankDomainVisuals.hpp"

#include <algorithm>
#include <numeric>

namespace gravlab {

void colorVerticesByRank(std::span<RenderVertex> vertices, std::span<const std::uint64_t> bodiesPerRank) {
    std::size_t first = 0;
    for (std::size_t rank = 0; rank < bodiesPerRank.size(); ++rank) {
        const float scalar = orbDomainColorScalar(std::uint32_t(rank));
        const std::size_t last = std::min<std::size_t>(first + bodiesPerRank[rank], vertices.size());
        for (std::size_t i = first; i < last; ++i)
            vertices[i].colorScalar = scalar;
        first += bodiesPerRank[rank];
    }
}

OrbStatus rankDomainStatus(const RankDomains& domains, std::uint64_t migratedLastStep, std::uint64_t repartitions,
                           double lastRepartitionMilliseconds) {
    OrbStatus status;
    status.domainCount = std::uint32_t(domains.bodiesPerRank.size());
    const auto largestOverMean = [](const auto& values) {
        const double sum = std::accumulate(values.begin(), values.end(), 0.0);
        return sum > 0 ? double(*std::max_element(values.begin(), values.end())) * double(values.size()) / sum : 1.0;
    };
    if (status.domainCount > 0)
        status.imbalance = {largestOverMean(domains.bodiesPerRank), largestOverMean(domains.workPerRank)};
    status.migratedLastStep = migratedLastStep;
    status.rebuilds = repartitions;
    status.lastRebuildMilliseconds = lastRepartitionMilliseconds;
    return status;
}

} // namespace gravlab
