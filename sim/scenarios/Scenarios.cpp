// The scenario registry: one table of name, one-line description and generator.
//
// Design note: the table is the single list the command line, the panel and the tests read; adding a scenario means
// writing its generator (one file, declared in ScenarioGenerators.hpp) and adding one row here.
#include "scenarios/ScenarioGenerators.hpp"

#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <array>
#include <new>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

constexpr std::array kScenarios{
    Scenario{"galaxy-collision", "two disk galaxies (mass 1 each) on a parabolic collision course",
             scenario::generateGalaxyCollision},
    Scenario{"disk-galaxy", "exponential disk with a Plummer bulge, near-circular rotation",
             scenario::generateDiskGalaxy},
    Scenario{"plummer", "Plummer sphere in virial equilibrium (Henon units)", scenario::generatePlummer},
    Scenario{"cold-cube", "uniform cube of bodies at rest that collapses", scenario::generateColdCube},
};

} // namespace

std::span<const Scenario> scenarios() {
    return kScenarios;
}

const Scenario* findScenario(std::string_view name) {
    for (const Scenario& entry : kScenarios)
        if (entry.name == name)
            return &entry;
    return nullptr;
}

void checkScenarioName(std::string_view name) {
    if (findScenario(name) != nullptr)
        return;
    std::string known;
    for (std::size_t i = 0; i < kScenarios.size(); ++i) {
        if (i > 0)
            known += i + 1 == kScenarios.size() ? " or " : ", ";
        known.append("'").append(kScenarios[i].name).append("'");
    }
    std::string message = "scenario = '";
    message.append(name).append("' is not known: allowed ").append(known);
    throw InvalidParameterError("scenario", message);
}

Bodies generateScenario(std::string_view name, std::size_t bodyCount, std::uint64_t seed) {
    checkScenarioName(name);
    Bodies bodies;
    try {
        findScenario(name)->generate(bodies, bodyCount, seed);
        bodies.numberSequentially();
    } catch (const std::bad_alloc&) {
        constexpr double kBytesPerBody = Bodies::kBytesPerBody;
        throw std::runtime_error(
            "not enough host memory for " + std::to_string(bodyCount) + " bodies of scenario '" + std::string(name) +
            "' (" + std::to_string(int(double(bodyCount) * kBytesPerBody / (1 << 20))) + " MiB): choose fewer bodies");
    }
    return bodies;
}

} // namespace gravlab
