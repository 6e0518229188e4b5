#pragma once
// Internal to the scenario registry: the generator functions and the helpers they share.
//
// Design note: each generator fills all of `out` (resized to bodyCount) in its own file; the registry in
// Scenarios.cpp only lists them. Generators give every body its own RandomStream, so a body's sample depends only on
// (seed, body index) and loops may run in parallel. Positions and velocities are computed in double and stored as
// float.
#include "Bodies.hpp"
#include "Random.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace gravlab::scenario {

void generatePlummer(Bodies& out, std::size_t bodyCount, std::uint64_t seed);
void generateColdCube(Bodies& out, std::size_t bodyCount, std::uint64_t seed);
void generateDiskGalaxy(Bodies& out, std::size_t bodyCount, std::uint64_t seed);
void generateGalaxyCollision(Bodies& out, std::size_t bodyCount, std::uint64_t seed);

using Vec3d = std::array<double, 3>;

struct BodyState {
    Vec3d position;
    Vec3d velocity;
    double mass;
    double colorKey;
};

void storeBody(Bodies& bodies, std::size_t index, const BodyState& body);

/// Unit vector uniformly distributed over the sphere.
Vec3d isotropicDirection(RandomStream& random);

/// Shifts bodies [first, first + count) so that their centre of mass is at the origin and at rest.
void removeCentreOfMassMotion(Bodies& bodies, std::size_t first, std::size_t count);

/// Rotates positions and velocities of bodies [first, first + count) by the row-major 3x3 matrix, then adds
/// offsetPosition and offsetVelocity.
void transformBodies(Bodies& bodies, std::size_t first, std::size_t count, const std::array<Vec3d, 3>& rotation,
                     const Vec3d& offsetPosition, const Vec3d& offsetVelocity);

} // namespace gravlab::scenario
