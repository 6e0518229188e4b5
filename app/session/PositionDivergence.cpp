// Position differences matched by id, and the half-mass radius (see PositionDivergence.hpp).
#include "PositionDivergence.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace gravlab {

bool ByIdPairing::pairingHolds(const Bodies& a, const Bodies& b) const {
    if (m_indexInB.size() != a.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a.id[i] != b.id[m_indexInB[i]])
            return false;
    return true;
}

void ByIdPairing::pair(const Bodies& a, const Bodies& b) {
    std::unordered_map<std::uint64_t, std::size_t> indexOfId;
    indexOfId.reserve(b.size());
    for (std::size_t j = 0; j < b.size(); ++j)
        indexOfId.emplace(b.id[j], j);
    m_indexInB.assign(a.size(), 0);
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto found = indexOfId.find(a.id[i]);
        if (found == indexOfId.end()) {
            m_indexInB.clear();
            throw std::invalid_argument("comparing two runs: body id " + std::to_string(a.id[i]) +
                                        " of the main run is missing from the comparison run");
        }
        m_indexInB[i] = found->second;
    }
}

PositionDivergence ByIdPairing::measure(const Bodies& a, const Bodies& b) {
    if (a.size() != b.size())
        throw std::invalid_argument("comparing two runs: " + std::to_string(a.size()) + " bodies against " +
                                    std::to_string(b.size()) + "; they must hold the same bodies");
    if (!pairingHolds(a, b))
        pair(a, b);
    double sumOfSquares = 0;
    double largestSquare = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::size_t j = m_indexInB[i];
        const double dx = double(a.x[i]) - double(b.x[j]);
        const double dy = double(a.y[i]) - double(b.y[j]);
        const double dz = double(a.z[i]) - double(b.z[j]);
        const double square = dx * dx + dy * dy + dz * dz;
        sumOfSquares += square;
        largestSquare = std::max(largestSquare, square);
    }
    if (a.size() == 0)
        return {};
    return {std::sqrt(sumOfSquares / double(a.size())), std::sqrt(largestSquare)};
}

double halfMassRadius(const Bodies& bodies) {
    double totalMass = 0;
    double centre[3] = {0, 0, 0};
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        totalMass += bodies.mass[i];
        centre[0] += double(bodies.mass[i]) * bodies.x[i];
        centre[1] += double(bodies.mass[i]) * bodies.y[i];
        centre[2] += double(bodies.mass[i]) * bodies.z[i];
    }
    if (bodies.size() == 0 || totalMass <= 0)
        return 0;
    std::vector<double> radius(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i)
        radius[i] = std::hypot(bodies.x[i] - centre[0] / totalMass, bodies.y[i] - centre[1] / totalMass,
                               bodies.z[i] - centre[2] / totalMass);
    std::vector<std::size_t> order(bodies.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t p, std::size_t q) { return radius[p] < radius[q]; });
    double enclosed = 0;
    for (const std::size_t i : order) {
        enclosed += bodies.mass[i];
        if (enclosed >= 0.5 * totalMass)
            return radius[i];
    }
    return radius[order.back()];
}

} // namespace gravlab
