// The "disk-galaxy" scenario: its disk rotates at the circular speed of its own bodies' gravity, measured by the
// fp64 direct sum, and the galaxy as a whole is near virial equilibrium.
#include "SimTestSupport.hpp"

#include <gravlab/sim/Diagnostics.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <algorithm>
#include <gtest/gtest.h>
#include <sstream>

namespace gravlab {
namespace {

constexpr std::size_t kBodyCount = 20000;
// The scenario's colour keys mark its components: disk bodies run from 0.1 to 0.7, the bulge is 0.9.
constexpr float kLargestDiskColour = 0.75f;

struct RadialBin {
    RadialBin(double innerRadius, double outerRadius) : inner(innerRadius), outer(outerRadius) {}
    double inner, outer;
    double tangentialSpeedSum = 0;
    std::size_t bodies = 0;
    std::vector<std::size_t> forceTargets;
};

double cylindricalRadius(const Bodies& bodies, std::size_t i) {
    return std::hypot(double(bodies.x[i]), double(bodies.y[i]));
}

/// Disk bodies binned in cylindrical radius: the sum of their tangential speeds, and up to kTargetsPerBin of them
/// (in random order) as force targets.
std::vector<RadialBin> binDiskBodies(const Bodies& bodies, std::mt19937_64& random) {
    constexpr std::size_t kTargetsPerBin = 500;
    std::vector<RadialBin> bins;
    for (const auto& [inner, outer] : {std::pair{0.5, 1.0}, {1.0, 1.5}, {1.5, 2.0}, {2.0, 2.5}, {2.5, 3.0}, {3.0, 4.0}})
        bins.push_back(RadialBin{inner, outer});
    std::vector<std::size_t> order(bodies.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::shuffle(order.begin(), order.end(), random);
    for (const std::size_t i : order) {
        const double radius = cylindricalRadius(bodies, i);
        for (RadialBin& bin : bins) {
            if (bodies.colorKey[i] > kLargestDiskColour || radius < bin.inner || radius >= bin.outer)
                continue;
            bin.tangentialSpeedSum +=
                (double(bodies.x[i]) * bodies.vy[i] - double(bodies.y[i]) * bodies.vx[i]) / radius;
            ++bin.bodies;
            if (bin.forceTargets.size() < kTargetsPerBin)
                bin.forceTargets.push_back(i);
        }
    }
    return bins;
}

/// sqrt(mean of R |a_R|) over the bin's targets, a_R from the fp64 direct sum over all bodies.
double circularSpeedFromForces(const Bodies& bodies, const RadialBin& bin, const GravityParams& gravity) {
    Vec3Arrays<double> accelerations;
    computeAccelerationsFp64(bodies, gravity, bin.forceTargets, accelerations);
    double sum = 0;
    for (std::size_t k = 0; k < bin.forceTargets.size(); ++k) {
        const std::size_t i = bin.forceTargets[k];
        sum -= double(bodies.x[i]) * accelerations.x[k] + double(bodies.y[i]) * accelerations.y[k]; // R |a_R|
    }
    return std::sqrt(sum / double(bin.forceTargets.size()));
}

TEST(DiskGalaxyScenario, RotationCurveMatchesCircularSpeedOfDirectSumForces) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies bodies = generateScenario("disk-galaxy", kBodyCount, seed);
    std::mt19937_64 random(seed);
    const std::vector<RadialBin> bins = binDiskBodies(bodies, random);
    // Softening 0.05, the default the scenario balances its velocities for; it also smooths the bodies'
    // discreteness noise in the forces.
    const GravityParams gravity{1.0, 0.05};
    std::ostringstream table;
    double worstDeviation = 0;
    for (const RadialBin& bin : bins) {
        ASSERT_GE(bin.forceTargets.size(), 100u) << "too few disk bodies in [" << bin.inner << ", " << bin.outer << ")";
        const double meanTangential = bin.tangentialSpeedSum / double(bin.bodies);
        const double circular = circularSpeedFromForces(bodies, bin, gravity);
        const double deviation = (meanTangential - circular) / circular;
        worstDeviation = std::max(worstDeviation, std::abs(deviation));
        table << "R in [" << bin.inner << ", " << bin.outer << "): mean v_phi " << meanTangential << " over "
              << bin.bodies << " bodies, v_c " << circular << ", deviation " << deviation << "\n";
    }
    // Noise: the mean v_phi of ~2000 bodies per bin with a dispersion of ~0.1 scatters by ~0.4%, the mean v_c^2 of
    // 500 targets among 20k discrete bodies by ~0.5%; 20 seeds measured a worst bin of 0.3% to 1.6%. The model's
    // own approximations (first order in the disk's thickness, softening folded into the bulge radius) are below 1%.
    // Tolerance 3%. Leaving out the thickness and softening correction makes the disk 2-5% too fast; dropping the
    // bulge, or treating the disk as a spherical mass, changes v_c by 10-30% in these bins.
    constexpr double kTolerance = 0.03;
    EXPECT_LT(worstDeviation, kTolerance) << table.str();
    RecordProperty("worst_relative_deviation", simtest::scientific(worstDeviation));
    RecordProperty("rotation_curve", table.str());
}

TEST(DiskGalaxyScenario, DiskIsInVerticalEquilibrium) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies bodies = generateScenario("disk-galaxy", kBodyCount, seed);
    // The zz component of the tensor virial theorem, for the disk bodies in the field of all bodies: in a steady
    // state d^2/dt^2 sum m z^2 = 0, i.e. sum m v_z^2 = -sum m z a_z. Forces by fp64 direct sum (softening 0.05, the
    // scenario's design value) on a random sample of disk bodies.
    std::vector<std::size_t> targets;
    for (std::size_t i = 0; i < bodies.size() && targets.size() < 3000; ++i)
        if (bodies.colorKey[i] <= kLargestDiskColour)
            targets.push_back(i);
    Vec3Arrays<double> accelerations;
    computeAccelerationsFp64(bodies, {1.0, 0.05}, targets, accelerations);
    double verticalKinetic = 0, verticalVirial = 0;
    for (std::size_t k = 0; k < targets.size(); ++k) {
        const std::size_t i = targets[k];
        verticalKinetic += double(bodies.mass[i]) * bodies.vz[i] * bodies.vz[i];
        verticalVirial -= double(bodies.mass[i]) * bodies.z[i] * accelerations.z[k];
    }
    const double ratio = verticalKinetic / verticalVirial;
    RecordProperty("vertical_virial_ratio", simtest::scientific(ratio));
    // Both sums are dominated by the few hundred inner bodies, where sigma_z is largest: 12 seeds measured 0.88 to
    // 1.07 (about 5% scatter). Tolerance 0.25. A disk without dispersion gives 0, one three times thicker than its
    // dispersion supports about 0.4, a dispersion 25% too large 1.56.
    EXPECT_NEAR(ratio, 1.0, 0.25);
}

TEST(DiskGalaxyScenario, GalaxyIsNearVirialEquilibrium) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies bodies = generateScenario("disk-galaxy", 8192, seed);
    const Diagnostics diagnostics = computeDiagnosticsCpu(bodies, {1.0, 0.01});
    // A system in equilibrium has 2K + W = 0 whatever its shape. The disk's mean rotation is v_c without an
    // asymmetric-drift correction (a little extra kinetic energy) and the bulge's Jeans model counts the disk's mass
    // as if it were spherical: 12 seeds measured K / |W| = 0.510 to 0.522. Tolerance 0.04: a bulge dispersion off by
    // a factor 2, or a rotation curve without the bulge, falls outside.
    EXPECT_NEAR(diagnostics.virialRatio(), 0.5, 0.04);
    RecordProperty("virial_ratio", simtest::scientific(diagnostics.virialRatio()));
}

} // namespace
} // namespace gravlab
