#include "distributed/DistributedOrb.hpp"

#include "distributed/BodyRecords.hpp"
#include "distributed/CollectiveOrbCuts.hpp"
#include "orb/OrbLocate.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

/// What is wrong with this rank's input, or an empty string. Weights are checked under work balance only.
std::string localInputProblem(const Bodies& local, const std::vector<float>& work, bool checkWeights,
                              bool lowPartsAnywhere) {
    if (!local.consistent())
        return "the body arrays differ in length";
    if (work.size() != local.size())
        return std::to_string(work.size()) + " work weights for " + std::to_string(local.size()) + " bodies";
    if (local.size() > 0 && local.hasLowParts() != lowPartsAnywhere)
        return "the bodies lack the low parts (double precision) that another rank's bodies carry";
    for (std::size_t i = 0; i < local.size(); ++i) {
        if (!std::isfinite(local.x[i]) || !std::isfinite(local.y[i]) || !std::isfinite(local.z[i]))
            return "body " + std::to_string(i) + " (id " + std::to_string(local.id[i]) +
                   ") has a position that is not finite";
        if (checkWeights && !(std::isfinite(work[i]) && work[i] >= 0))
            return "the work weight of body " + std::to_string(i) + " is " + std::to_string(work[i]) +
                   ", allowed a finite value >= 0";
    }
    return {};
}

/// Whether any rank's bodies carry low parts. Collective.
bool lowPartsOnAnyRank(Communicator& communicator, const Bodies& local) {
    std::vector<double> flag{local.hasLowParts() ? 1.0 : 0.0};
    communicator.allReduceMax(flag);
    return flag[0] > 0;
}

/// Throws on every rank when any rank found a problem: that rank names it, the others name that rank. Collective.
void throwOnEveryRankIfAny(Communicator& communicator, const std::string& localProblem, const char* operation) {
    std::vector<double> failedRank{localProblem.empty() ? 0.0 : double(communicator.rank() + 1)};
    communicator.allReduceMax(failedRank);
    if (failedRank[0] == 0)
        return;
    const std::string rank = std::to_string(communicator.rank());
    if (!localProblem.empty())
        throw std::invalid_argument(std::string(operation) + " on rank " + rank + ": " + localProblem);
    throw std::invalid_argument(std::string(operation) + ": rank " + std::to_string(int(failedRank[0]) - 1) +
                                " refused its input (its own error says why); rank " + rank + " stops with it");
}

/// Sends body i with work[i] (and its carried floats) to rank destination[i]; bodies, work and the carried floats
/// become what this rank holds then, by source rank, then in the sender's order (its own staying bodies are never
/// packed: they keep their place among the arrivals). Collective.
void sendBodiesToRanks(Communicator& communicator, Bodies& local, std::vector<float>& work, CarriedFloats carried,
                       std::span<const std::uint32_t> destination, bool withLowParts) {
    const auto rank = std::uint32_t(communicator.rank());
    // The work weight and the carried floats travel as one block of perBody floats per body.
    const std::size_t perBody = 1 + carried.perBody;
    std::vector<float> floats(local.size() * perBody);
    for (std::size_t i = 0; i < local.size(); ++i) {
        floats[i * perBody] = work[i];
        for (std::size_t k = 0; k < carried.perBody; ++k)
            floats[i * perBody + 1 + k] = (*carried.values)[i * carried.perBody + k];
    }
    const std::vector<std::vector<std::byte>> sends =
        packBodyRecords(local, floats, destination, std::size_t(communicator.size()), rank, withLowParts, perBody);
    std::vector<std::byte> received;
    std::vector<std::size_t> byteCounts;
    communicator.allToAllBytes(sends, received, byteCounts);
    const std::size_t recordBytes = bodyRecordBytes(withLowParts, perBody);
    const std::size_t bytesBefore = std::accumulate(byteCounts.begin(), byteCounts.begin() + rank, std::size_t{0});
    const std::span<const std::byte> before = std::span<const std::byte>(received).first(bytesBefore);
    const std::span<const std::byte> after = std::span<const std::byte>(received).subspan(bytesBefore);
    keepBodiesAmongArrivals(local, floats, destination, rank, before.size() / recordBytes, after.size() / recordBytes,
                            withLowParts, perBody);
    unpackBodyRecords(before, withLowParts, local, floats, 0, perBody);
    unpackBodyRecords(after, withLowParts, local, floats, local.size() - after.size() / recordBytes, perBody);
    work.resize(local.size());
    if (carried.values != nullptr)
        carried.values->resize(local.size() * carried.perBody);
    for (std::size_t i = 0; i < local.size(); ++i) {
        work[i] = floats[i * perBody];
        for (std::size_t k = 0; k < carried.perBody; ++k)
            (*carried.values)[i * carried.perBody + k] = floats[i * perBody + 1 + k];
    }
}

/// What is wrong with the carried floats' length on this rank, or an empty string.
std::string carriedProblem(const Bodies& local, CarriedFloats carried) {
    if (carried.perBody == 0 || (carried.values != nullptr && carried.values->size() == local.size() * carried.perBody))
        return {};
    return std::to_string(carried.values == nullptr ? 0 : carried.values->size()) + " carried floats for " +
           std::to_string(local.size()) + " bodies at " + std::to_string(carried.perBody) + " per body";
}

/// bodiesPerRank and workPerRank from every rank's local bodies. Collective.
void tallyRanks(Communicator& communicator, RankDomains& domains, const Bodies& local, const std::vector<float>& work) {
    const auto ranks = std::size_t(communicator.size()), rank = std::size_t(communicator.rank());
    domains.bodiesPerRank.assign(ranks, 0);
    domains.workPerRank.assign(ranks, 0.0);
    domains.bodiesPerRank[rank] = local.size();
    domains.workPerRank[rank] =
        domains.balance == OrbBalance::Work ? std::accumulate(work.begin(), work.end(), 0.0) : double(local.size());
    communicator.allReduceSum(domains.bodiesPerRank);
    communicator.allReduceSum(domains.workPerRank);
}

} // namespace

RankDomains repartitionAcrossRanks(Communicator& communicator, Bodies& local, std::vector<float>& localWork,
                                   OrbBalance balance, CarriedFloats carried) {
    const bool lowParts = lowPartsOnAnyRank(communicator, local);
    std::string problem = localInputProblem(local, localWork, balance == OrbBalance::Work, lowParts);
    if (problem.empty())
        problem = carriedProblem(local, carried);
    throwOnEveryRankIfAny(communicator, problem, "ORB re-partition across ranks");
    std::vector<double> totalWork{std::accumulate(localWork.begin(), localWork.end(), 0.0)};
    communicator.allReduceSum(totalWork);
    RankDomains domains;
    domains.balance = balance == OrbBalance::Work && totalWork[0] > 0 ? OrbBalance::Work : OrbBalance::Count;
    const CollectiveOrb orb =
        cutOrbAcrossRanks(communicator, local, localWork, domains.balance, std::uint32_t(communicator.size()));
    sendBodiesToRanks(communicator, local, localWork, carried, orb.domainOfBody, lowParts);
    domains.cells = orb.cells;
    tallyRanks(communicator, domains, local, localWork);
    return domains;
}

RankMigration migrateAcrossRanks(Communicator& communicator, RankDomains& domains, Bodies& local,
                                 std::vector<float>& localWork, CarriedFloats carried) {
    const bool lowParts = lowPartsOnAnyRank(communicator, local);
    const auto ranks = std::uint32_t(communicator.size()), rank = std::uint32_t(communicator.rank());
    std::string problem = localInputProblem(local, localWork, false, lowParts);
    if (problem.empty())
        problem = carriedProblem(local, carried);
    if (domains.cells.size() != 2 * std::size_t(ranks) - 1 || domains.cells.front().domainCount != ranks)
        problem = "the domains hold " + std::to_string(domains.cells.size()) + " cells, not the " +
                  std::to_string(2 * ranks - 1) + " of " + std::to_string(ranks) + " ranks";
    throwOnEveryRankIfAny(communicator, problem, "ORB migration across ranks");

    const std::vector<OrbCell>& cells = domains.cells;
    std::uint32_t leaf = 0;
    while (!(cells[leaf].isLeaf() && cells[leaf].firstDomain == rank))
        ++leaf;
    std::vector<std::uint32_t> destination(local.size(), rank);
    std::vector<std::uint64_t> moved{0};
    for (std::size_t i = 0; i < local.size(); ++i) {
        const float x = local.x[i], y = local.y[i], z = local.z[i];
        if (!orbLeafHolds(cells[leaf], cells.front(), x, y, z))
            destination[i] = cells[orbDescend(cells.data(), x, y, z)].firstDomain;
        moved[0] += destination[i] != rank ? 1 : 0;
    }
    float lower[3], upper[3];
    boundingBoxAcrossRanks(communicator, local, lower, upper);
    sendBodiesToRanks(communicator, local, localWork, carried, destination, lowParts);
    communicator.allReduceSum(moved);

    tallyRanks(communicator, domains, local, localWork);
    std::vector<std::uint32_t> rankBegin(ranks + 1, 0);
    for (std::uint32_t r = 0; r < ranks; ++r)
        rankBegin[r + 1] = rankBegin[r] + std::uint32_t(domains.bodiesPerRank[r]);
    const OrbCell oldRoot = cells.front();
    for (int axis = 0; axis < 3; ++axis) {
        lower[axis] = std::min(lower[axis], oldRoot.lower[axis]);
        upper[axis] = std::max(upper[axis], oldRoot.upper[axis]);
    }
    for (OrbCell& cell : domains.cells) {
        cell.begin = rankBegin[cell.firstDomain];
        cell.end = rankBegin[cell.firstDomain + cell.domainCount];
        orbGrowOuterFaces(cell, oldRoot, lower, upper);
    }
    return RankMigration{moved[0]};
}

} // namespace gravlab
