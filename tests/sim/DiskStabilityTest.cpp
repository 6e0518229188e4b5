// The default disk stays a disk: over three rotations at its half-mass radius, run on the CPU tree solver at a
// small N (4000 bodies, two seconds), its half-mass radius changes by less than a stated bound and it stays thin.
#include "SimTestSupport.hpp"

#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <IdentityChecks.hpp>
#include <algorithm>
#include <gtest/gtest.h>
#include <numbers>

namespace gravlab {
namespace {

struct DiskShape {
    double halfMassRadius; ///< median cylindrical radius of the disk bodies
    double thickness;      ///< median |z| of the disk bodies
};

double median(std::vector<double> values) {
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(values.size() / 2), values.end());
    return values[values.size() / 2];
}

/// Shape about the disk bodies' centre of mass (the disk and bulge drift apart slightly as they settle).
DiskShape diskShape(const Bodies& bodies) {
    simtest::Vec3 centre{};
    std::size_t count = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        if (bodies.colorKey[i] <= simtest::kLargestDiskGalaxyDiskColour) {
            centre = simtest::add(centre, simtest::positionOf(bodies, i));
            ++count;
        }
    centre = simtest::scale(centre, 1.0 / double(count));
    std::vector<double> radii, heights;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        if (bodies.colorKey[i] <= simtest::kLargestDiskGalaxyDiskColour) {
            const simtest::Vec3 p = simtest::sub(simtest::positionOf(bodies, i), centre);
            radii.push_back(std::hypot(p[0], p[1]));
            heights.push_back(std::abs(p[2]));
        }
    return {median(radii), median(heights)};
}

TEST(DiskStability, DefaultDiskStaysADiskForThreeRotations) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    SimParams params;
    params.scenario = "disk-galaxy";
    params.bodyCount = 4000;
    params.seed = seed;
    params.backend = BackendKind::Cpu;
    params.solver = "tree";
    params.timeStep = 0.04;
    Simulation simulation(params);
    const DiskShape start = diskShape(test::bodiesOf(simulation));
    // An exponential disk's half-mass radius is 1.68 scale lengths, where v_c is about 0.62: one rotation is
    // 2 pi 1.68 / 0.62 = 17 time units.
    const double rotation = 2.0 * std::numbers::pi * 1.68 / 0.62;
    simulation.step(int(std::ceil(3.0 * rotation / params.timeStep)));
    const DiskShape end = diskShape(test::bodiesOf(simulation));
    const double radiusChange = end.halfMassRadius / start.halfMassRadius - 1.0;
    const double thicknessChange = end.thickness / start.thickness - 1.0;
    RecordProperty("half_mass_radius_change", simtest::scientific(radiusChange));
    RecordProperty("thickness_change", simtest::scientific(thicknessChange));
    RecordProperty("thickness_over_radius", simtest::scientific(end.thickness / end.halfMassRadius));
    // Two-body relaxation heats any disk at small N, and the fresh seed makes the change a random variable. At
    // N = 1000 it was too wide for a bound: 60 seeds measured a half-mass radius 1-33% larger (mean 15%, sd 8%), so
    // one seed in a hundred or so crossed 35%. At N = 4000, 70 seeds measured 0-24% (mean 13%, sd 5%) and a median
    // |z| of 0.055 +- 0.003 of the half-mass radius (at most 0.064), while unstable disks spread further (at
    // N = 1000: Q = 0.8 by 51%, Q = 0.4 by 47%; they clump and heat in the plane) and a spheroid has 0.4 or more.
    // Bounds: 35% on the radius (four standard deviations), and median |z| under 0.1 of the half-mass radius.
    EXPECT_LT(std::abs(radiusChange), 0.35)
        << "half-mass radius " << start.halfMassRadius << " -> " << end.halfMassRadius;
    EXPECT_LT(end.thickness / end.halfMassRadius, 0.1) << "thickness " << start.thickness << " -> " << end.thickness;
}

} // namespace
} // namespace gravlab
