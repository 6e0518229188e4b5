// The ring galaxy makes a ring: after the companion has passed through the disk, the disk's surface density between
// 1 and 2.5 scale lengths rises far above its starting value in some annulus (the expanding density wave of Lynds &
// Toomre 1976), where an undisturbed disk keeps its profile. Run on the CPU tree solver at a small N, a few seconds.
#include "SimTestSupport.hpp"

#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <IdentityChecks.hpp>
#include <algorithm>
#include <gtest/gtest.h>
#include <numbers>
#include <sstream>

namespace gravlab {
namespace {

// The scenario's colour keys: the disk runs from 0.1 to 0.6, the bulge is 0.7 and the companion 0.95.
constexpr float kLargestRingDiskColour = 0.65f;
constexpr double kInnerRadius = 0.5, kOuterRadius = 3.5, kAnnulusWidth = 0.25;

/// Surface density of the disk bodies in annuli of kAnnulusWidth from kInnerRadius to kOuterRadius about the disk
/// bodies' centre of mass.
std::vector<double> diskSurfaceDensity(const Bodies& bodies) {
    simtest::Vec3 centre{};
    double mass = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        if (bodies.colorKey[i] <= kLargestRingDiskColour) {
            centre = simtest::add(centre, simtest::scale(simtest::positionOf(bodies, i), bodies.mass[i]));
            mass += bodies.mass[i];
        }
    centre = simtest::scale(centre, 1.0 / mass);
    const auto annuli = std::size_t(std::lround((kOuterRadius - kInnerRadius) / kAnnulusWidth));
    std::vector<double> density(annuli, 0.0);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        if (bodies.colorKey[i] > kLargestRingDiskColour)
            continue;
        const simtest::Vec3 p = simtest::sub(simtest::positionOf(bodies, i), centre);
        const double radius = std::hypot(p[0], p[1]);
        if (radius >= kInnerRadius && radius < kOuterRadius)
            density[std::size_t((radius - kInnerRadius) / kAnnulusWidth)] += bodies.mass[i];
    }
    for (std::size_t k = 0; k < annuli; ++k) {
        const double inner = kInnerRadius + kAnnulusWidth * double(k), outer = inner + kAnnulusWidth;
        density[k] /= std::numbers::pi * (outer * outer - inner * inner);
    }
    return density;
}

/// The largest ratio after / before over the annuli from R = 1 to 2.5.
double largestGrowthInRingZone(const std::vector<double>& before, const std::vector<double>& after) {
    double growth = 0;
    for (std::size_t k = 0; k < before.size(); ++k) {
        const double inner = kInnerRadius + kAnnulusWidth * double(k);
        if (inner >= 1.0 && inner + kAnnulusWidth <= 2.5 && before[k] > 0)
            growth = std::max(growth, after[k] / before[k]);
    }
    return growth;
}

std::string describe(const std::vector<double>& density) {
    std::ostringstream text;
    for (const double value : density)
        text << value << " ";
    return text.str();
}

TEST(RingGalaxyRun, ARingFormsAfterTheCompanionPasses) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    SimParams params;
    params.scenario = "ring-galaxy";
    params.bodyCount = 2400;
    params.seed = seed;
    params.backend = BackendKind::Cpu;
    params.solver = "tree";
    params.timeStep = 0.025;
    Simulation simulation(params);
    const std::vector<double> before = diskSurfaceDensity(test::bodiesOf(simulation));
    // The companion reaches the disk after about 5.7 time units (the scenario's fall time); the first ring is
    // well formed about 4 later, at R ~ 1.5-2.5.
    simulation.step(int(std::lround(10.0 / params.timeStep)));
    const std::vector<double> after = diskSurfaceDensity(test::bodiesOf(simulation));
    // Annuli of 0.25 hold ~60-200 disk bodies here (Poisson noise 7-13% each, so ~15% on a ratio). Runs of 2400
    // bodies measured a largest growth of 2.1-3.0 over 13 seeds, while the disk alone (disk-galaxy, same N, same
    // time) grew by 0.99-1.21 (two-body relaxation spreads it slightly). Bound: 1.6.
    const double growth = largestGrowthInRingZone(before, after);
    EXPECT_GT(growth, 1.6) << "before: " << describe(before) << "\nafter: " << describe(after);
    RecordProperty("ring_growth", simtest::scientific(growth));
}

} // namespace
} // namespace gravlab
