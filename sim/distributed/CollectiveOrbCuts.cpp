#include "distributed/CollectiveOrbCuts.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>

namespace gravlab {
namespace {

constexpr int kKeyWords = 5;
constexpr int kDigitBits = 8;
constexpr int kDigitsPerWord = 32 / kDigitBits;
constexpr std::size_t kBins = std::size_t(1) << kDigitBits;

/// (coordinate, id high, id low, rank, local index): unique over all ranks, ordered like (coordinate, id).
using SortKey = std::array<std::uint32_t, kKeyWords>;

float coordinateOf(const Bodies& bodies, std::size_t i, int axis) {
    return axis == 0 ? bodies.x[i] : axis == 1 ? bodies.y[i] : bodies.z[i];
}

/// Unsigned bits in the order of the floats; -0 is first made +0, since the two compare equal as floats.
std::uint32_t orderedBits(float coordinate) {
    const auto bits = std::bit_cast<std::uint32_t>(coordinate + 0.0f);
    return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
}

std::uint32_t digitOf(const SortKey& key, int digit) {
    const int shift = 32 - kDigitBits * (digit % kDigitsPerWord + 1);
    return (key[std::size_t(digit / kDigitsPerWord)] >> shift) & std::uint32_t(kBins - 1);
}

/// The first `digits` digits of key against those of prefix: -1, 0 or 1.
int comparePrefix(const SortKey& key, const SortKey& prefix, int digits) {
    for (std::size_t word = 0; word < kKeyWords && digits > 0; ++word, digits -= kDigitsPerWord) {
        const int bits = std::min(digits, kDigitsPerWord) * kDigitBits;
        const std::uint32_t mask = bits == 32 ? ~0u : ~(~0u >> bits);
        const std::uint32_t a = key[word] & mask, b = prefix[word] & mask;
        if (a != b)
            return a < b ? -1 : 1;
    }
    return 0;
}

/// The radix select of one cell's split. Bodies whose key prefix lies below the chosen digits go left; those equal
/// to it go left too when the search ended inclusive.
struct CutSearch {
    std::size_t cell = 0;
    int axis = 0;
    SortKey prefix{};
    int digits = 0;
    bool resolved = false;
    bool inclusive = false;
    std::uint64_t countBelow = 0; ///< bodies of the cell whose key prefix lies below the chosen digits
    double weightBelow = 0;
    std::uint64_t targetCount = 0; ///< count balance: the bodies that go left
    double targetWeight = 0;       ///< work balance: the cumulative weight, within the cell, the boundary aims at
    std::uint64_t leftCount = 0;   ///< once resolved
    double leftWeight = 0;

    bool goesLeft(const SortKey& key) const {
        const int order = comparePrefix(key, prefix, digits);
        return order < 0 || (order == 0 && inclusive);
    }
    void resolve(bool withEqualPrefix, std::uint64_t equalCount, double equalWeight) {
        resolved = true;
        inclusive = withEqualPrefix;
        leftCount = countBelow + (withEqualPrefix ? equalCount : 0);
        leftWeight = weightBelow + (withEqualPrefix ? equalWeight : 0);
    }
    void chooseDigit(std::uint32_t digit, std::uint64_t countBefore, double weightBefore) {
        const int shift = 32 - kDigitBits * (digits % kDigitsPerWord + 1);
        prefix[std::size_t(digits / kDigitsPerWord)] |= digit << shift;
        ++digits;
        countBelow += countBefore;
        weightBelow += weightBefore;
    }
    /// One histogram of the candidates (bodies with the chosen prefix): counts[b] and weights[b] per next digit b.
    void narrowByCount(const double* counts, const double* weights) {
        const std::uint64_t remaining = targetCount - countBelow;
        std::uint64_t before = 0;
        double weightBefore = 0;
        std::uint32_t bin = 0;
        for (; bin + 1 < kBins && before + std::uint64_t(counts[bin]) <= remaining; ++bin) {
            before += std::uint64_t(counts[bin]);
            weightBefore += weights[bin];
        }
        chooseDigit(bin, before, weightBefore);
        if (countBelow == targetCount)
            resolve(false, 0, 0);
    }
    void narrowByWeight(const double* counts, const double* weights) {
        const double remaining = targetWeight - weightBelow;
        std::uint64_t before = 0;
        double weightBefore = 0;
        std::uint32_t bin = 0;
        for (; bin < kBins && weightBefore + weights[bin] < remaining; ++bin) {
            before += std::uint64_t(counts[bin]);
            weightBefore += weights[bin];
        }
        if (bin == kBins) { // the candidates weigh less than the target (the whole cell, on the first digit): all left
            resolve(true, before, weightBefore);
            return;
        }
        chooseDigit(bin, before, weightBefore);
        if (counts[bin] == 1) // body J: left when the weight before it plus half its own lies below the target
            resolve(weightBelow + 0.5 * weights[bin] < targetWeight, 1, weights[bin]);
    }
};

class CollectiveOrbBuilder {
public:
    /// Every rank must pass the same byWork: a rank without bodies cannot tell the balance from its weights.
    CollectiveOrbBuilder(Communicator& communicator, const Bodies& local, std::span<const float> weights, bool byWork)
        : m_communicator(communicator), m_local(local), m_weights(byWork ? weights : std::span<const float>()),
          m_byWork(byWork), m_keys(local.size()), m_cellOfBody(local.size(), 0) {}

    CollectiveOrb build(std::uint32_t domainCount);

private:
    void splitLevel(std::size_t levelStart, std::size_t levelEnd);
    CutSearch startSearch(std::size_t cellIndex) const;
    void narrowSearches(std::vector<CutSearch>& searches, const std::vector<int>& searchOfCell);
    void cutCells(const std::vector<CutSearch>& searches, const std::vector<int>& searchOfCell);
    double weightOf(std::size_t i) const { return m_weights.empty() ? 0.0 : double(m_weights[i]); }

    Communicator& m_communicator;
    const Bodies& m_local;
    std::span<const float> m_weights;
    bool m_byWork;
    std::vector<SortKey> m_keys;             ///< per local body, along its cell's cut axis, during a level
    std::vector<std::uint32_t> m_cellOfBody; ///< per local body: the cell of the current level holding it
    std::vector<OrbCell> m_cells;
    std::vector<double> m_weightBefore; ///< per cell, work balance: the weight of all bodies before its begin
    std::uint64_t m_bodyCount = 0;
    double m_totalWeight = 0;
};

CollectiveOrb CollectiveOrbBuilder::build(std::uint32_t domainCount) {
    std::vector<std::uint64_t> count{m_local.size()};
    m_communicator.allReduceSum(count);
    m_bodyCount = count[0];
    requireOrbSizes(m_bodyCount, domainCount);
    std::vector<double> weight{0.0};
    for (const float w : m_weights)
        weight[0] += w;
    m_communicator.allReduceSum(weight);
    m_totalWeight = weight[0];

    OrbCell root{};
    boundingBoxAcrossRanks(m_communicator, m_local, root.lower, root.upper);
    root.end = std::uint32_t(m_bodyCount);
    root.leftChild = root.cutAxis = -1;
    root.domainCount = domainCount;
    m_cells.assign(1, root);
    m_weightBefore.assign(2 * std::size_t(domainCount) - 1, 0.0);
    std::size_t levelStart = 0;
    while (levelStart < m_cells.size()) {
        const std::size_t levelEnd = m_cells.size();
        for (std::size_t cell = levelStart; cell < levelEnd; ++cell)
            if (m_cells[cell].domainCount > 1) {
                m_cells[cell].leftChild = std::int32_t(m_cells.size());
                m_cells.resize(m_cells.size() + 2);
            }
        splitLevel(levelStart, levelEnd);
        levelStart = levelEnd;
    }
    CollectiveOrb result{m_cells, std::vector<std::uint32_t>(m_local.size())};
    for (std::size_t i = 0; i < m_local.size(); ++i)
        result.domainOfBody[i] = m_cells[m_cellOfBody[i]].firstDomain;
    return result;
}

CutSearch CollectiveOrbBuilder::startSearch(std::size_t cellIndex) const {
    const OrbCell& cell = m_cells[cellIndex];
    CutSearch search;
    search.cell = cellIndex;
    search.axis = longestAxis(cell);
    const std::uint32_t leftDomainsEnd = cell.firstDomain + leftDomainCount(cell.domainCount);
    if (!m_byWork) {
        search.targetCount = countBalancedDomainBegin(m_bodyCount, leftDomainsEnd, m_cells[0].domainCount) - cell.begin;
        return search;
    }
    search.targetWeight = m_totalWeight * leftDomainsEnd / m_cells[0].domainCount - m_weightBefore[cellIndex];
    if (!(search.targetWeight > 0)) // even the first body's midpoint lies at or past the target
        search.resolve(false, 0, 0);
    return search;
}

void CollectiveOrbBuilder::splitLevel(std::size_t levelStart, std::size_t levelEnd) {
    std::vector<CutSearch> searches;
    std::vector<int> searchOfCell(m_cells.size(), -1);
    for (std::size_t cell = levelStart; cell < levelEnd; ++cell)
        if (!m_cells[cell].isLeaf()) {
            searchOfCell[cell] = int(searches.size());
            searches.push_back(startSearch(cell));
        }
    if (searches.empty())
        return;
    const auto rank = std::uint32_t(m_communicator.rank());
    for (std::size_t i = 0; i < m_local.size(); ++i) {
        const int search = searchOfCell[m_cellOfBody[i]];
        if (search < 0)
            continue;
        const std::uint64_t id = m_local.id[i];
        m_keys[i] = {orderedBits(coordinateOf(m_local, i, searches[std::size_t(search)].axis)), std::uint32_t(id >> 32),
                     std::uint32_t(id), rank, std::uint32_t(i)};
    }
    narrowSearches(searches, searchOfCell);
    cutCells(searches, searchOfCell);
}

void CollectiveOrbBuilder::narrowSearches(std::vector<CutSearch>& searches, const std::vector<int>& searchOfCell) {
    std::vector<int> slotOfSearch(searches.size());
    for (;;) {
        // Which searches go on is decided from reduced histograms, so every rank sees the same slots.
        int active = 0;
        for (std::size_t s = 0; s < searches.size(); ++s)
            slotOfSearch[s] = searches[s].resolved ? -1 : active++;
        if (active == 0)
            return;
        std::vector<double> histograms(std::size_t(active) * 2 * kBins, 0.0);
        for (std::size_t i = 0; i < m_local.size(); ++i) {
            const int search = searchOfCell[m_cellOfBody[i]];
            if (search < 0 || slotOfSearch[std::size_t(search)] < 0)
                continue;
            const CutSearch& cut = searches[std::size_t(search)];
            if (comparePrefix(m_keys[i], cut.prefix, cut.digits) != 0)
                continue;
            double* bins = histograms.data() + std::size_t(slotOfSearch[std::size_t(search)]) * 2 * kBins;
            const std::uint32_t digit = digitOf(m_keys[i], cut.digits);
            bins[digit] += 1;
            bins[kBins + digit] += weightOf(i);
        }
        m_communicator.allReduceSum(histograms);
        for (std::size_t s = 0; s < searches.size(); ++s) {
            if (slotOfSearch[s] < 0)
                continue;
            const double* bins = histograms.data() + std::size_t(slotOfSearch[s]) * 2 * kBins;
            if (!m_byWork)
                searches[s].narrowByCount(bins, bins + kBins);
            else
                searches[s].narrowByWeight(bins, bins + kBins);
        }
    }
}

void CollectiveOrbBuilder::cutCells(const std::vector<CutSearch>& searches, const std::vector<int>& searchOfCell) {
    // extremes[2 s] = the largest coordinate left of cut s, extremes[2 s + 1] = minus the smallest one right of it.
    std::vector<double> extremes(2 * searches.size(), -std::numeric_limits<double>::infinity());
    std::vector<bool> left(m_local.size(), false);
    for (std::size_t i = 0; i < m_local.size(); ++i) {
        const int search = searchOfCell[m_cellOfBody[i]];
        if (search < 0)
            continue;
        const CutSearch& cut = searches[std::size_t(search)];
        const double coordinate = coordinateOf(m_local, i, cut.axis);
        left[i] = cut.goesLeft(m_keys[i]);
        double& extreme = extremes[2 * std::size_t(search) + (left[i] ? 0 : 1)];
        extreme = std::max(extreme, left[i] ? coordinate : -coordinate);
    }
    m_communicator.allReduceMax(extremes);

    for (std::size_t s = 0; s < searches.size(); ++s) {
        const CutSearch& cut = searches[s];
        const OrbCell parent = m_cells[cut.cell];
        const int axis = cut.axis;
        float position = cut.leftCount == 0 ? parent.lower[axis] : parent.upper[axis];
        if (cut.leftCount > 0 && cut.leftCount < parent.bodyCount()) // the midpoint of two floats, rounded once
            position = float(0.5 * (extremes[2 * s] - extremes[2 * s + 1]));
        const std::uint32_t leftDomains = leftDomainCount(parent.domainCount);
        OrbCell& leftCell = m_cells[std::size_t(parent.leftChild)];
        OrbCell& rightCell = m_cells[std::size_t(parent.leftChild) + 1];
        leftCell = rightCell = parent;
        leftCell.upper[axis] = rightCell.lower[axis] = position;
        leftCell.end = rightCell.begin = parent.begin + std::uint32_t(cut.leftCount);
        leftCell.leftChild = rightCell.leftChild = -1;
        leftCell.cutAxis = rightCell.cutAxis = -1;
        leftCell.domainCount = leftDomains;
        rightCell.domainCount = parent.domainCount - leftDomains;
        rightCell.firstDomain = parent.firstDomain + leftDomains;
        m_cells[cut.cell].cutAxis = axis;
        m_weightBefore[std::size_t(parent.leftChild)] = m_weightBefore[cut.cell];
        m_weightBefore[std::size_t(parent.leftChild) + 1] = m_weightBefore[cut.cell] + cut.leftWeight;
    }
    for (std::size_t i = 0; i < m_local.size(); ++i) {
        const int search = searchOfCell[m_cellOfBody[i]];
        if (search >= 0)
            m_cellOfBody[i] = std::uint32_t(m_cells[m_cellOfBody[i]].leftChild) + (left[i] ? 0 : 1);
    }
}

} // namespace

CollectiveOrb cutOrbAcrossRanks(Communicator& communicator, const Bodies& local, std::span<const float> weights,
                                OrbBalance balance, std::uint32_t domainCount) {
    return CollectiveOrbBuilder(communicator, local, weights, balance == OrbBalance::Work).build(domainCount);
}

void boundingBoxAcrossRanks(Communicator& communicator, const Bodies& local, float lower[3], float upper[3]) {
    // Maxima of the coordinates and of their negatives (the minima), in one reduction.
    std::vector<double> extremes(6, -std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < local.size(); ++i)
        for (int axis = 0; axis < 3; ++axis) {
            const double coordinate = coordinateOf(local, i, axis);
            extremes[std::size_t(axis)] = std::max(extremes[std::size_t(axis)], coordinate);
            extremes[std::size_t(axis) + 3] = std::max(extremes[std::size_t(axis) + 3], -coordinate);
        }
    communicator.allReduceMax(extremes);
    for (int axis = 0; axis < 3; ++axis) {
        upper[axis] = float(extremes[std::size_t(axis)]);
        lower[axis] = float(-extremes[std::size_t(axis) + 3]);
    }
}

} // namespace gravlab
