#pragma once
// Checks that bodies keep who they are through reorders: random bodies with distinct masses, ids and components, and
// a comparison of a state read back against them by id.
//
// Design note: the reference is the bodies as they were made, indexed by id, not anything a backend computed. Masses
// never change in a step, so after any number of steps each id must still carry its own mass, component and colour
// key, bit for bit; positions and velocities are compared only when no step was taken.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>

namespace gravlab::test {

/// The simulation's bodies as its backend holds them now.
inline Bodies bodiesOf(const Simulation& simulation) {
    Bodies bodies;
    simulation.backend().readBodies(bodies);
    return bodies;
}

/// count bodies in a unit ball at rest-ish, each with a distinct mass, a random 64-bit id (some above 2^32) and a
/// random component.
inline Bodies bodiesWithIdentities(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> coordinate(-1.0f, 1.0f);
    Bodies bodies;
    bodies.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        bodies.x[i] = coordinate(random);
        bodies.y[i] = coordinate(random);
        bodies.z[i] = coordinate(random);
        bodies.vx[i] = 0.1f * coordinate(random);
        bodies.vy[i] = 0.1f * coordinate(random);
        bodies.vz[i] = 0.1f * coordinate(random);
        bodies.mass[i] = (1.0f + float(i)) / float(count * count); // distinct, total about 1/2
        bodies.id[i] = (random() >> 1) | (i % 2 == 0 ? std::uint64_t{1} << 40 : 0);
        bodies.component[i] = std::uint8_t(random() % kComponentCount);
        bodies.colorKey[i] = componentColorKey(bodies.component[i]);
    }
    return bodies;
}

/// Empty when every body of now is a body of original with the same id (each id once), mass, component and colour
/// key, and, when positionsToo, the same position and velocity; otherwise the first mismatch in words.
inline std::string identityMismatch(const Bodies& original, const Bodies& now, bool positionsToo) {
    if (now.size() != original.size() || !now.consistent())
        return "read back " + std::to_string(now.size()) + " bodies of " + std::to_string(original.size());
    std::unordered_map<std::uint64_t, std::size_t> indexOf;
    for (std::size_t i = 0; i < original.size(); ++i)
        indexOf[original.id[i]] = i;
    std::unordered_map<std::uint64_t, int> seen;
    for (std::size_t i = 0; i < now.size(); ++i) {
        const auto found = indexOf.find(now.id[i]);
        if (found == indexOf.end())
            return "body " + std::to_string(i) + " has id " + std::to_string(now.id[i]) + ", which was never loaded";
        if (++seen[now.id[i]] > 1)
            return "id " + std::to_string(now.id[i]) + " appears twice";
        const std::size_t j = found->second;
        if (now.mass[i] != original.mass[j] || now.component[i] != original.component[j] ||
            now.colorKey[i] != original.colorKey[j])
            return "id " + std::to_string(now.id[i]) + " no longer carries its own mass, component or colour key";
        if (positionsToo && (now.x[i] != original.x[j] || now.y[i] != original.y[j] || now.z[i] != original.z[j] ||
                             now.vx[i] != original.vx[j] || now.vy[i] != original.vy[j] || now.vz[i] != original.vz[j]))
            return "id " + std::to_string(now.id[i]) + " moved without a step";
    }
    return {};
}

/// Largest per-component |position difference| and |velocity difference| of b against a, body by body matched by id
/// (a body of b whose id a lacks counts as infinitely far).
struct StateDistance {
    double position = 0;
    double velocity = 0;
};

inline StateDistance distanceById(const Bodies& a, const Bodies& b) {
    std::unordered_map<std::uint64_t, std::size_t> indexOfId;
    for (std::size_t i = 0; i < a.size(); ++i)
        indexOfId.emplace(a.id[i], i);
    StateDistance distance;
    for (std::size_t j = 0; j < b.size(); ++j) {
        const auto found = indexOfId.find(b.id[j]);
        if (found == indexOfId.end() || a.size() != b.size())
            return {INFINITY, INFINITY};
        const std::size_t i = found->second;
        distance.position = std::max({distance.position, std::abs(double(a.x[i]) - b.x[j]),
                                      std::abs(double(a.y[i]) - b.y[j]), std::abs(double(a.z[i]) - b.z[j])});
        distance.velocity = std::max({distance.velocity, std::abs(double(a.vx[i]) - b.vx[j]),
                                      std::abs(double(a.vy[i]) - b.vy[j]), std::abs(double(a.vz[i]) - b.vz[j])});
    }
    return distance;
}

} // namespace gravlab::test
