#pragma once
// Scenario registry: named, seeded generators of initial conditions shared by the app and the tests.
//
// Design note: each scenario is deterministic for a given (N, seed) and uses its own counter-based random stream so
// results do not depend on the standard library's distributions. Total mass is 1 per stellar system, G = 1.
//   plummer           Plummer sphere in Henon units, sampled from its distribution function (Aarseth, Henon &
//                     Wielen 1974), in virial equilibrium.
//   cold-cube         uniform cube at rest, collapses.
//   disk-galaxy       exponential disk plus a Plummer bulge, near-circular velocities in the total potential.
//   galaxy-collision  two disk galaxies (mass 1 each, so total mass 2) on a parabolic collision course (the
//                     default scene).
#include <gravlab/sim/Bodies.hpp>

#include <cstdint>
#include <span>
#include <string_view>

namespace gravlab {

struct Scenario {
    std::string_view name;
    std::string_view description; ///< one line, shown in --help and the panel
    void (*generate)(Bodies& out, std::size_t bodyCount, std::uint64_t seed);
};

/// All registered scenarios, in display order.
std::span<const Scenario> scenarios();
/// The scenario called name, or nullptr.
const Scenario* findScenario(std::string_view name);
/// Throws InvalidParameterError, listing the known names, unless a scenario is called name.
void checkScenarioName(std::string_view name);
/// Bodies of the named scenario; throws InvalidParameterError for an unknown name and std::runtime_error when the
/// host cannot hold bodyCount bodies.
Bodies generateScenario(std::string_view name, std::size_t bodyCount, std::uint64_t seed);

} // namespace gravlab
