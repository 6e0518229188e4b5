// The "disk-galaxy" scenario: its disk's rotation obeys the radial Jeans equation (asymmetric drift) in the circular
// speed of its own bodies' gravity, measured by the fp64 direct sum; its Toomre Q, measured from the bodies, is
// above 1.2 over the main disk; the galaxy as a whole is near virial equilibrium.
#include "SimTestSupport.hpp"

#include <gravlab/sim/Diagnostics.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <algorithm>
#include <gtest/gtest.h>
#include <numbers>
#include <sstream>

namespace gravlab {
namespace {

constexpr std::size_t kDiskGalaxyBodyCount = 20000;

struct RadialBin {
    RadialBin(double innerRadius, double outerRadius) : inner(innerRadius), outer(outerRadius) {}
    double inner, outer;
    double tangentialSpeedSum = 0;
    double tangentialSquareSum = 0;
    double radialSquareSum = 0;
    double massSum = 0;
    std::size_t bodies = 0;
    double middle() const { return 0.5 * (inner + outer); }
    double meanTangential() const { return tangentialSpeedSum / double(bodies); }
    double radialVariance() const { return radialSquareSum / double(bodies); }
    double tangentialVariance() const { return tangentialSquareSum / double(bodies) - std::pow(meanTangential(), 2); }
    double surfaceDensity() const { return massSum / (std::numbers::pi * (outer * outer - inner * inner)); }
    std::vector<std::size_t> forceTargets;
};

double cylindricalRadius(const Bodies& bodies, std::size_t i) {
    return std::hypot(double(bodies.x[i]), double(bodies.y[i]));
}

/// Disk bodies binned in cylindrical radius: the sum of their tangential speeds, and up to kTargetsPerBin of them
/// (in random order) as force targets.
std::vector<RadialBin> binDiskBodies(const Bodies& bodies, std::mt19937_64& random,
                                     const std::vector<double>& edges = {0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0}) {
    constexpr std::size_t kTargetsPerBin = 500;
    std::vector<RadialBin> bins;
    for (std::size_t k = 0; k + 1 < edges.size(); ++k)
        bins.push_back(RadialBin{edges[k], edges[k + 1]});
    std::vector<std::size_t> order(bodies.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::shuffle(order.begin(), order.end(), random);
    for (const std::size_t i : order) {
        const double radius = cylindricalRadius(bodies, i);
        for (RadialBin& bin : bins) {
            if (bodies.colorKey[i] > simtest::kLargestDiskGalaxyDiskColour || radius < bin.inner || radius >= bin.outer)
                continue;
            const double tangential =
                (double(bodies.x[i]) * bodies.vy[i] - double(bodies.y[i]) * bodies.vx[i]) / radius;
            const double radial = (double(bodies.x[i]) * bodies.vx[i] + double(bodies.y[i]) * bodies.vy[i]) / radius;
            bin.tangentialSpeedSum += tangential;
            bin.tangentialSquareSum += tangential * tangential;
            bin.radialSquareSum += radial * radial;
            bin.massSum += bodies.mass[i];
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

/// d ln(Sigma sigma_R^2) / d ln R at an inner bin k, by central differences of the neighbouring bins' measured values.
double logSlopeOfRadialPressure(const std::vector<RadialBin>& bins, std::size_t k) {
    const std::size_t below = k - 1, above = k + 1;
    const auto pressure = [&](std::size_t j) { return std::log(bins[j].surfaceDensity() * bins[j].radialVariance()); };
    return (pressure(above) - pressure(below)) / (std::log(bins[above].middle()) - std::log(bins[below].middle()));
}

TEST(DiskGalaxyScenario, RotationObeysTheJeansEquationInTheDirectSumForces) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies bodies = generateScenario("disk-galaxy", kDiskGalaxyBodyCount, seed);
    std::mt19937_64 random(seed);
    const std::vector<RadialBin> bins = binDiskBodies(bodies, random, {0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5});
    // Softening 0.05, the default the scenario balances its velocities for; it also smooths the bodies'
    // discreteness noise in the forces.
    const GravityParams gravity{1.0, 0.05};
    std::ostringstream table;
    double worstDeviation = 0;
    // The first and last bins only serve the central differences: R from 1 to 3 scale lengths is checked.
    for (std::size_t k = 1; k + 1 < bins.size(); ++k) {
        const RadialBin& bin = bins[k];
        ASSERT_GE(bin.forceTargets.size(), 100u) << "too few disk bodies in [" << bin.inner << ", " << bin.outer << ")";
        const double circular = circularSpeedFromForces(bodies, bin, gravity);
        // The radial Jeans equation of a steady axisymmetric disk (Binney & Tremaine 2008, eq. 4.228, without the
        // R-z cross term, which the sampler's independent velocity components make zero), with every moment
        // measured from the bodies: vbar_phi^2 = v_c^2 - sigma_phi^2 + sigma_R^2 (1 + d ln(Sigma sigma_R^2)/d ln R).
        const double expectedSquare = circular * circular - bin.tangentialVariance() +
                                      bin.radialVariance() * (1.0 + logSlopeOfRadialPressure(bins, k));
        const double expected = std::sqrt(std::max(expectedSquare, 0.0));
        const double deviation = (bin.meanTangential() - expected) / circular;
        worstDeviation = std::max(worstDeviation, std::abs(deviation));
        table << "R in [" << bin.inner << ", " << bin.outer << "): mean v_phi " << bin.meanTangential() << " over "
              << bin.bodies << " bodies, Jeans " << expected << ", v_c " << circular << ", deviation " << deviation
              << "\n";
    }
    // Noise: the mean v_phi of ~2000 bodies per bin with a dispersion of ~0.15 scatters by ~0.5%; the mean v_c^2 of
    // 500 targets among 20k discrete bodies by ~1%, which the difference v_c^2 - (drift terms ~ 0.2 v_c^2) amplifies
    // to ~1.5% in the Jeans speed; the measured slope of Sigma sigma_R^2 adds ~0.5%. The model's own approximations
    // (first order in the disk's thickness, softening folded into the bulge radius, the epicyclic ratio for
    // sigma_phi) are ~1%. 14 seeds measured a worst bin of 0.6% to 4.5%. Tolerance 6%. Leaving out the asymmetric
    // drift (the mean rotation at v_c) misses by 10-17% at R = 1-3.
    constexpr double kTolerance = 0.06;
    EXPECT_LT(worstDeviation, kTolerance) << table.str();
    RecordProperty("worst_relative_deviation", simtest::scientific(worstDeviation));
    RecordProperty("rotation_curve", table.str());
}

/// Toomre Q = sigma_R kappa / (3.36 G Sigma) in the bins between the first and the last (which only serve the
/// derivative of the rotation curve), everything measured from the bodies: sigma_R and Sigma of the disk bodies in
/// each annulus, kappa^2 = (1/R) d(v_c^2)/dR + 2 v_c^2 / R^2 from the direct-sum circular speeds of the neighbours.
std::vector<double> measuredToomreQ(const Bodies& bodies, std::uint64_t seed, std::ostringstream& table) {
    std::mt19937_64 random(seed);
    const std::vector<RadialBin> bins = binDiskBodies(bodies, random, {0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5});
    std::vector<double> circularSquare;
    for (const RadialBin& bin : bins)
        circularSquare.push_back(std::pow(circularSpeedFromForces(bodies, bin, {1.0, 0.05}), 2));
    std::vector<double> toomre;
    for (std::size_t k = 1; k + 1 < bins.size(); ++k) {
        const double radius = bins[k].middle();
        const double slope =
            (circularSquare[k + 1] - circularSquare[k - 1]) / (bins[k + 1].middle() - bins[k - 1].middle());
        const double kappa = std::sqrt(slope / radius + 2.0 * circularSquare[k] / (radius * radius));
        toomre.push_back(std::sqrt(bins[k].radialVariance()) * kappa / (3.36 * bins[k].surfaceDensity()));
        table << "R in [" << bins[k].inner << ", " << bins[k].outer << "): sigma_R "
              << std::sqrt(bins[k].radialVariance()) << ", kappa " << kappa << ", Sigma " << bins[k].surfaceDensity()
              << ", Q " << toomre.back() << "\n";
    }
    return toomre;
}

TEST(DiskGalaxyScenario, DefaultDiskIsToomreStableFromOneToThreeScaleLengths) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies bodies = generateScenario("disk-galaxy", SimParams{}.bodyCount, seed);
    std::ostringstream table;
    const std::vector<double> toomre = measuredToomreQ(bodies, seed, table);
    // The default asks for Q = 1.5. At the default N (8192, ~700-1100 disk bodies per annulus) sigma_R scatters by
    // ~3%, Sigma by ~3.5%, kappa (a difference of direct-sum v_c^2 over 500 targets each) by ~5%: Q by ~7%, so
    // 1.2 is four standard deviations below 1.5. The former cool disk (sigma_R = sigma_z) measured Q = 0.5-1.
    for (const double q : toomre)
        EXPECT_GE(q, 1.2) << table.str();
    RecordProperty("toomre_q", table.str());
}

TEST(DiskGalaxyScenario, ToomreParameterSetsTheMeasuredQ) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    for (const double requested : {1.0, 2.5}) {
        const Bodies bodies = generateScenario("disk-galaxy", kDiskGalaxyBodyCount, seed, {{"toomre-q", requested}});
        std::ostringstream table;
        // 20000 bodies: Q scatters by ~5% per annulus; the model's kappa (from the softened model rotation curve)
        // and the measured one differ by a few per cent. Tolerance 15%; a dispersion that ignored the parameter
        // misses one of the two by 40% or more.
        for (const double q : measuredToomreQ(bodies, seed, table))
            EXPECT_NEAR(q / requested, 1.0, 0.15) << "requested Q = " << requested << "\n" << table.str();
    }
}

TEST(DiskGalaxyScenario, DiskIsInVerticalEquilibrium) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies bodies = generateScenario("disk-galaxy", kDiskGalaxyBodyCount, seed);
    // The zz component of the tensor virial theorem, for the disk bodies in the field of all bodies: in a steady
    // state d^2/dt^2 sum m z^2 = 0, i.e. sum m v_z^2 = -sum m z a_z. Forces by fp64 direct sum (softening 0.05, the
    // scenario's design value) on a random sample of disk bodies.
    std::vector<std::size_t> targets;
    for (std::size_t i = 0; i < bodies.size() && targets.size() < 3000; ++i)
        if (bodies.colorKey[i] <= simtest::kLargestDiskGalaxyDiskColour)
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
    // A system in equilibrium has 2K + W = 0 whatever its shape. The disk's mean rotation follows the asymmetric
    // drift and its dispersions the Toomre Q (the epicyclic approximation, a little off for a disk this warm), and
    // the bulge's Jeans model counts the disk's mass as if it were spherical: 6 seeds measured K / |W| = 0.487 to
    // 0.501 (the former cool disk rotating at v_c, 0.510 to 0.522). Tolerance 0.04: a bulge dispersion off by a
    // factor 2, or a rotation curve without the bulge, falls outside.
    EXPECT_NEAR(diagnostics.virialRatio(), 0.5, 0.04);
    RecordProperty("virial_ratio", simtest::scientific(diagnostics.virialRatio()));
}

} // namespace
} // namespace gravlab
