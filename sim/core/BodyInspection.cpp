// The host halves of a body inspection: the fp64 potential of one body and the ORB leaf holding an index.
//
// Design note: see BodyInspection.hpp. The potential loop runs over all bodies in fp64 with no parallel reduction:
// it is O(N) for one body (a few milliseconds at N = 10^7), asked every few frames, and a fixed summation order keeps
// it reproducible.
#include <gravlab/sim/BodyInspection.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gravlab {

double potentialAtBodyFp64(const Bodies& bodies, std::size_t index, const GravityParams& gravity) {
    if (index >= bodies.size())
        throw std::out_of_range("potential of body " + std::to_string(index) + " of " + std::to_string(bodies.size()));
    const double softening2 = gravity.softeningLength * gravity.softeningLength;
    const double x = bodies.x[index], y = bodies.y[index], z = bodies.z[index];
    double sum = 0.0;
    for (std::size_t j = 0; j < bodies.size(); ++j) {
        if (j == index)
            continue;
        const double dx = double(bodies.x[j]) - x;
        const double dy = double(bodies.y[j]) - y;
        const double dz = double(bodies.z[j]) - z;
        sum += double(bodies.mass[j]) / std::sqrt(dx * dx + dy * dy + dz * dz + softening2);
    }
    return -gravity.gravitationalConstant * sum;
}

std::optional<BodyInspection> inspectBodyOnHost(const Bodies& bodies, const Vec3Arrays<float>* accelerations,
                                                std::span<const OrbCell> orbCells, const GravityParams& gravity,
                                                std::uint64_t id) {
    const auto found = std::find(bodies.id.begin(), bodies.id.end(), id);
    if (found == bodies.id.end())
        return std::nullopt;
    const auto i = std::size_t(found - bodies.id.begin());
    if (accelerations && accelerations->size() != bodies.size())
        throw std::invalid_argument("inspect body: " + std::to_string(accelerations->size()) + " accelerations for " +
                                    std::to_string(bodies.size()) + " bodies");
    BodyInspection inspection;
    inspection.identity = {bodies.id[i], bodies.component[i]};
    inspection.index = i;
    inspection.position = {bodies.x[i], bodies.y[i], bodies.z[i]};
    inspection.velocity = {bodies.vx[i], bodies.vy[i], bodies.vz[i]};
    if (accelerations)
        inspection.acceleration = std::array{accelerations->x[i], accelerations->y[i], accelerations->z[i]};
    inspection.mass = bodies.mass[i];
    inspection.potential = potentialAtBodyFp64(bodies, i, gravity);
    inspection.orbDomain = orbDomainOfIndex(orbCells, i);
    return inspection;
}

std::vector<std::optional<BodyPosition>> bodyPositionsOnHost(const Bodies& bodies, std::span<const std::uint64_t> ids) {
    std::vector<std::optional<BodyPosition>> positions(ids.size());
    if (ids.empty())
        return positions;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        for (std::size_t k = 0; k < ids.size(); ++k)
            if (bodies.id[i] == ids[k] && !positions[k])
                positions[k] = BodyPosition{bodies.x[i], bodies.y[i], bodies.z[i]};
    return positions;
}

std::optional<std::uint32_t> orbDomainOfIndex(std::span<const OrbCell> cells, std::size_t index) {
    for (const OrbCell& cell : cells)
        if (cell.isLeaf() && index >= cell.begin && index < cell.end)
            return cell.firstDomain;
    return std::nullopt;
}

} // namespace gravlab
