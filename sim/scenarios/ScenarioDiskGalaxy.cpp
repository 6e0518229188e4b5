// Scenario "disk-galaxy" and the galaxy sampler it shares with "galaxy-collision".
//
// Design note: the mass model and its kinematics are in DiskGalaxyModel.hpp. A disk body gets
//   R from the exponential disk's radial density R exp(-R / Rd): R = -Rd ln(u1 u2) (a Gamma(2) variate),
//   z from sech^2(z / z0): z = z0 atanh(2u - 1), azimuth uniform;
//   velocity (vbar_phi(R, z) + sigma_phi n_phi) along the rotation, sigma_R n_R radially, sigma_z n_z vertically
//   (n ~ N(0, 1)), with the mean rotation below v_c by the asymmetric drift and sigma_R from the Toomre Q;
// a bulge body gets r from the Plummer profile, an isotropic direction, and an isotropic Gaussian velocity with the
// Jeans dispersion at r. The bulge holds round(Mb / (Md + Mb) * N) bodies, so body masses are nearly equal.
#include "core/Parallel.hpp"
#include "scenarios/DiskGalaxyModel.hpp"
#include "scenarios/ScenarioGenerators.hpp"

#include <cmath>
#include <numbers>
#include <string>

namespace gravlab::scenario {
namespace {

constexpr std::uint64_t kDiskTag = 0x6469736bull;   // "disk"
constexpr std::uint64_t kBulgeTag = 0x62756c67ull;  // "bulg"
constexpr std::uint64_t kGalaxyTag = 0x67616c61ull; // "gala"

/// Fraction of an exponential disk's mass inside R, used as the colour coordinate.
double diskMassFraction(double radius, double scaleLength) {
    const double x = radius / scaleLength;
    return 1.0 - (1.0 + x) * std::exp(-x);
}

BodyState sampleDiskBody(const DiskGalaxyModel& model, const DiskGalaxyKinematics& kinematics,
                         const GalaxyPalette& palette, RandomStream& random, double mass) {
    const double radius = -model.diskScaleLength * std::log(random.uniformOpen() * random.uniformOpen());
    const double height = model.diskScaleHeight * std::atanh(2.0 * random.uniformOpen() - 1.0);
    const double azimuth = 2.0 * std::numbers::pi * random.uniform();
    const double tangential =
        kinematics.meanRotationSpeed(radius, height) + kinematics.azimuthalDispersion(radius) * random.normal();
    const double radial = kinematics.radialDispersion(radius) * random.normal();
    const double vertical = kinematics.verticalDispersion(radius) * random.normal();
    const double c = std::cos(azimuth), s = std::sin(azimuth);
    const double colour =
        palette.diskInner + (palette.diskOuter - palette.diskInner) * diskMassFraction(radius, model.diskScaleLength);
    return {{radius * c, radius * s, height},
            {radial * c - tangential * s, radial * s + tangential * c, vertical},
            mass,
            colour};
}

BodyState sampleBulgeBody(const DiskGalaxyModel& model, const DiskGalaxyKinematics& kinematics,
                          const GalaxyPalette& palette, RandomStream& random, double mass) {
    const double radius = plummerRadius(model.bulgeScaleRadius, samplePlummerMassFraction(random));
    const Vec3d where = isotropicDirection(random);
    const double sigma = kinematics.bulgeDispersion(radius);
    return {{radius * where[0], radius * where[1], radius * where[2]},
            {sigma * random.normal(), sigma * random.normal(), sigma * random.normal()},
            mass,
            palette.bulge};
}

/// The model actually sampled: a component without bodies hands its mass to the other.
DiskGalaxyModel modelForCounts(DiskGalaxyModel model, std::size_t diskCount, std::size_t bulgeCount) {
    if (bulgeCount == 0) {
        model.diskMass += model.bulgeMass;
        model.bulgeMass = 0;
    } else if (diskCount == 0) {
        model.bulgeMass += model.diskMass;
        model.diskMass = 0;
    }
    return model;
}

} // namespace

void sampleDiskGalaxy(const DiskGalaxyModel& requested, const GalaxyPalette& palette, std::uint64_t seed,
                      std::size_t diskCount, std::size_t bulgeCount, std::size_t first, Bodies& out) {
    const DiskGalaxyModel model = modelForCounts(requested, diskCount, bulgeCount);
    const DiskGalaxyKinematics kinematics(model);
    const std::uint64_t diskSeed = deriveSeed(seed, kDiskTag);
    const std::uint64_t bulgeSeed = deriveSeed(seed, kBulgeTag);
    const double diskBodyMass = diskCount > 0 ? model.diskMass / double(diskCount) : 0.0;
    const double bulgeBodyMass = bulgeCount > 0 ? model.bulgeMass / double(bulgeCount) : 0.0;
    const auto total = std::int64_t(diskCount + bulgeCount);
#pragma omp parallel for schedule(static) if (parallel : total >= kMinBodiesForParallelSampling)
    for (std::int64_t k = 0; k < total; ++k) {
        const auto index = std::size_t(k);
        if (index < diskCount) {
            RandomStream random(diskSeed, index);
            storeBody(out, first + index, sampleDiskBody(model, kinematics, palette, random, diskBodyMass));
        } else {
            RandomStream random(bulgeSeed, index - diskCount);
            storeBody(out, first + index, sampleBulgeBody(model, kinematics, palette, random, bulgeBodyMass));
        }
    }
    removeCentreOfMassMotion(out, first, diskCount + bulgeCount);
}

std::size_t bulgeBodyCount(const DiskGalaxyModel& model, std::size_t bodyCount) {
    return std::size_t(std::llround(model.bulgeMass / (model.bulgeMass + model.diskMass) * double(bodyCount)));
}

namespace {

constexpr ScenarioParameter kParameters[]{
    {"toomre-q", 1.5, 0.3, 4.0,
     "Toomre Q of the disk: below 1 it fragments, 1-2 grows spiral arms, above 2 stays smooth"},
    {"bulge-fraction", 0.2, 0.0, 0.8, "fraction of the galaxy's mass (1) in the Plummer bulge"},
};

DiskGalaxyModel diskModel(const ScenarioParams& values) {
    DiskGalaxyModel model;
    model.bulgeMass = parameterValue(values, "bulge-fraction");
    model.diskMass = 1.0 - model.bulgeMass;
    model.toomreQ = parameterValue(values, "toomre-q");
    return model;
}

std::vector<NamedTime> diskGalaxyTimeScales(const ScenarioParams& values) {
    const DiskGalaxyModel model = diskModel(values);
    const DiskGalaxyKinematics kinematics(model);
    std::vector<NamedTime> times;
    for (const double radius : {1.0, 2.0, 3.0})
        times.push_back({"rotation period at R = " + std::to_string(int(radius)) + " scale lengths",
                         2.0 * std::numbers::pi * radius * model.diskScaleLength /
                             std::sqrt(kinematics.circularSpeedSquared(radius * model.diskScaleLength, 0.0))});
    return times;
}

void generateDiskGalaxy(Bodies& out, std::size_t bodyCount, std::uint64_t seed, const ScenarioParams& values) {
    const DiskGalaxyModel model = diskModel(values);
    const std::size_t bulgeCount = bulgeBodyCount(model, bodyCount);
    out.resize(bodyCount);
    sampleDiskGalaxy(model, {0.1, 0.7, 0.9}, deriveSeed(seed, kGalaxyTag), bodyCount - bulgeCount, bulgeCount, 0, out);
}

} // namespace

Scenario diskGalaxyScenario() {
    return {"disk-galaxy",
            "exponential disk with a Plummer bulge, its warmth set by a Toomre Q",
            "A spiral galaxy without its dark halo: an exponential disk of stars (scale length 1) around a Plummer "
            "bulge, total mass 1. The stars rotate with the rotation curve of the softened N-body forces and have a "
            "random velocity spread set by the Toomre Q parameter, which measures how stable the disk is against "
            "collapsing into clumps.",
            "The inner disk turns faster than the outer (differential rotation), so any pattern winds up. At Q near "
            "1-1.5 the disk grows transient spiral arms and perhaps a bar; lower Q fragments it into clumps, higher Q "
            "keeps it smooth and thickens it.",
            kParameters,
            {65536, 0.01, 0.05, "tree", 1},
            diskGalaxyTimeScales,
            generateDiskGalaxy};
}

} // namespace gravlab::scenario
