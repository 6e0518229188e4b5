// Kinematics of the disk-galaxy mass model: rotation curve and velocity dispersions (see DiskGalaxyModel.hpp).
//
// Design note: everything a body needs is a table look-up, so a million bodies cost a million interpolations instead
// of millions of Bessel functions or layer sums:
//   thin-disk shape    f(y) = y^2 [I0 K0 - I1 K1](y), 8192 points up to y = 50 (R = 100 Rd), built once per process;
//                      beyond, the disk acts as a point mass, f = 1 / (4y);
//   layer averages     over 512 equal-mass layers of the sech^2 profile (midpoint rule in the mass coordinate):
//                      H(z) on 256 heights up to 10 z0 + 4 eps (beyond, sqrt(z^2 + eps^2)), the bulge's vertical
//                      term on 512 radii up to 10 (beyond, its linear limit), and the pair average D;
//   bulge Jeans        2048 points uniform in ln r from 1e-3 b to 1e4 b, integrated inwards with the trapezoid rule
//                      from the analytic tail beyond the grid (rho ~ r^-5 around the total mass M: sigma^2 = G M / 6r).
#include "scenarios/DiskGalaxyModel.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace gravlab::scenario {
namespace {

constexpr double kEps2 = kDesignSoftening * kDesignSoftening;
constexpr std::size_t kLayers = 512;
constexpr double kBulgeVerticalTableEnd = 10.0;
constexpr double kJeansMinRadius = 1e-3; // in bulge scale radii
constexpr double kJeansMaxRadius = 1e4;  // in bulge scale radii

template <typename Function> LinearTable tabulate(double start, double end, std::size_t count, Function function) {
    LinearTable table{start, (end - start) / double(count - 1), std::vector<double>(count)};
    for (std::size_t k = 0; k < count; ++k)
        table.values[k] = function(start + table.step * double(k));
    return table;
}

/// y^2 [I0(y) K0(y) - I1(y) K1(y)]: the thin exponential disk's v^2 in units of 4 pi G Sigma0 Rd.
double thinDiskShape(double y) {
    static const LinearTable table = tabulate(0.0, 50.0, 8192, [](double x) {
        if (x <= 0)
            return 0.0;
        return x * x *
               (std::cyl_bessel_i(0.0, x) * std::cyl_bessel_k(0.0, x) -
                std::cyl_bessel_i(1.0, x) * std::cyl_bessel_k(1.0, x));
    });
    return table.covers(y) ? table.at(y) : 0.25 / y;
}

std::vector<double> layerHeights(double scaleHeight) {
    std::vector<double> heights(kLayers);
    for (std::size_t layer = 0; layer < kLayers; ++layer)
        heights[layer] = scaleHeight * std::atanh(2.0 * (double(layer) + 0.5) / double(kLayers) - 1.0);
    return heights;
}

template <typename Function> double layerAverage(const std::vector<double>& heights, Function function) {
    double sum = 0;
    for (const double z : heights)
        sum += function(z);
    return sum / double(heights.size());
}

/// sigma^2(r) of the isotropic Jeans equation for the Plummer bulge in the bulge + (spherically counted) disk mass.
LinearTable bulgeJeansTable(const DiskGalaxyModel& model) {
    const double b = model.bulgeScaleRadius;
    const auto densityShape = [b](double r) { return std::pow(1.0 + r * r / (b * b), -2.5); };
    const auto enclosedMass = [&](double r) {
        const double ratio = r / std::sqrt(r * r + b * b);
        const double x = r / model.diskScaleLength;
        return model.bulgeMass * ratio * ratio * ratio + model.diskMass * (1.0 - (1.0 + x) * std::exp(-x));
    };
    // Integrand in s = ln r: rho(r) G M(<r) / r^2 * r.
    const auto integrand = [&](double r) { return densityShape(r) * enclosedMass(r) / r; };
    LinearTable table =
        tabulate(std::log(kJeansMinRadius * b), std::log(kJeansMaxRadius * b), 2048, [](double) { return 0.0; });
    const std::size_t last = table.values.size() - 1;
    const double maxRadius = std::exp(table.start + table.step * double(last));
    double integral = densityShape(maxRadius) * (model.bulgeMass + model.diskMass) / (6.0 * maxRadius);
    double previous = integrand(maxRadius);
    table.values[last] = integral / densityShape(maxRadius);
    for (std::size_t k = last; k-- > 0;) {
        const double r = std::exp(table.start + table.step * double(k));
        const double current = integrand(r);
        integral += 0.5 * (previous + current) * table.step;
        table.values[k] = integral / densityShape(r);
        previous = current;
    }
    return table;
}

} // namespace

double LinearTable::at(double x) const {
    const double position = std::max(0.0, (x - start) / step);
    const std::size_t below = std::min(std::size_t(position), values.size() - 2);
    const double fraction = std::min(position - double(below), 1.0);
    return values[below] + fraction * (values[below + 1] - values[below]);
}

DiskGalaxyKinematics::DiskGalaxyKinematics(const DiskGalaxyModel& model) : m_model(model) {
    const std::vector<double> heights = layerHeights(model.diskScaleHeight);
    m_meanSquareHeight = layerAverage(heights, [](double z) { return z * z; });
    double pairSum = 0;
    for (const double z : heights)
        pairSum +=
            layerAverage(heights, [z](double w) { return (z - w) * (z - w) / std::sqrt((z - w) * (z - w) + kEps2); });
    m_sheetPairSeparation = pairSum / double(heights.size());
    m_meanSheetOffset = tabulate(0.0, 10.0 * model.diskScaleHeight + 4.0 * kDesignSoftening, 256, [&](double z) {
        return layerAverage(heights, [z](double w) { return std::sqrt((z - w) * (z - w) + kEps2); });
    });
    const double b2 = model.bulgeScaleRadius * model.bulgeScaleRadius + kEps2;
    m_bulgeVerticalTerm = tabulate(0.0, kBulgeVerticalTableEnd, 512, [&](double radius) {
        return layerAverage(heights, [&](double z) {
            const double r2 = radius * radius + z * z + b2;
            return model.bulgeMass * z * z / (r2 * std::sqrt(r2));
        });
    });
    m_bulgeDispersionSquared = bulgeJeansTable(model);
}

double DiskGalaxyKinematics::surfaceDensity(double radius) const {
    const double rd = m_model.diskScaleLength;
    return m_model.diskMass / (2.0 * std::numbers::pi * rd * rd) * std::exp(-radius / rd);
}

double DiskGalaxyKinematics::thinDiskCircularSpeedSquared(double radius) const {
    // 4 pi G Sigma0 Rd = 2 G Md / Rd
    const double rd = m_model.diskScaleLength;
    return 2.0 * m_model.diskMass / rd * thinDiskShape(radius / (2.0 * rd));
}

double DiskGalaxyKinematics::diskCircularSpeedSquared(double radius, double height) const {
    const double offset = m_meanSheetOffset.covers(std::abs(height)) ? m_meanSheetOffset.at(std::abs(height))
                                                                     : std::sqrt(height * height + kEps2);
    // R times the weakening 2 pi G Sigma(R) H(z) / Rd of the radial force.
    const double thicknessLoss =
        radius * 2.0 * std::numbers::pi * surfaceDensity(radius) * offset / m_model.diskScaleLength;
    return std::max(0.0, thinDiskCircularSpeedSquared(radius) - thicknessLoss);
}

double DiskGalaxyKinematics::circularSpeedSquared(double radius, double height) const {
    const double b = m_model.bulgeScaleRadius;
    const double spherical2 = radius * radius + height * height + b * b + kEps2;
    const double bulge = m_model.bulgeMass * radius * radius / (spherical2 * std::sqrt(spherical2));
    return diskCircularSpeedSquared(radius, height) + bulge;
}

double DiskGalaxyKinematics::verticalDispersion(double radius) const {
    const double selfGravity = std::numbers::pi * surfaceDensity(radius) * m_sheetPairSeparation;
    const double b2 = m_model.bulgeScaleRadius * m_model.bulgeScaleRadius + kEps2;
    const double bulge = m_bulgeVerticalTerm.covers(radius)
                             ? m_bulgeVerticalTerm.at(radius)
                             : m_model.bulgeMass * m_meanSquareHeight / std::pow(radius * radius + b2, 1.5);
    // nu^2 = -(1/R) d(v_disk^2)/dR by a central difference; below R = 2h it is taken at R = 2h (the exponential
    // disk's cusp makes it diverge like ln R there, where the bulge term dominates anyway).
    const double h = 1e-3 * m_model.diskScaleLength;
    const double at = std::max(radius, 2.0 * h);
    const double restOfDisk =
        -(thinDiskCircularSpeedSquared(at + h) - thinDiskCircularSpeedSquared(at - h)) / (2.0 * h * at);
    return std::sqrt(std::max(0.0, selfGravity + bulge + restOfDisk * m_meanSquareHeight));
}

double DiskGalaxyKinematics::angularSpeedSquared(double radius) const {
    return circularSpeedSquared(radius, 0.0) / (radius * radius);
}

double DiskGalaxyKinematics::epicyclicFrequency(double radius) const {
    const double at = std::max(radius, 0.25 * m_model.diskScaleLength);
    const double h = 1e-3 * m_model.diskScaleLength;
    const double slope = (circularSpeedSquared(at + h, 0.0) - circularSpeedSquared(at - h, 0.0)) / (2.0 * h);
    return std::sqrt(std::max(0.0, slope / at + 2.0 * angularSpeedSquared(at)));
}

double DiskGalaxyKinematics::radialDispersion(double radius) const {
    constexpr double kToomreStellarFactor = 3.36; // 2 pi / 1.87: the stellar disk's critical density factor
    const double kappa = epicyclicFrequency(radius);
    if (kappa <= 0)
        return 0.0;
    return m_model.toomreQ * kToomreStellarFactor * surfaceDensity(radius) / kappa;
}

double DiskGalaxyKinematics::azimuthalDispersion(double radius) const {
    const double at = std::max(radius, 0.25 * m_model.diskScaleLength);
    const double omega = std::sqrt(angularSpeedSquared(at));
    return omega > 0 ? radialDispersion(radius) * epicyclicFrequency(radius) / (2.0 * omega) : 0.0;
}

double DiskGalaxyKinematics::meanRotationSpeed(double radius, double height) const {
    const double sigmaR = radialDispersion(radius);
    if (sigmaR <= 0)
        return std::sqrt(circularSpeedSquared(radius, height));
    const double sigmaPhi = azimuthalDispersion(radius);
    // d ln sigma_R^2 / d ln R by a central difference in ln R.
    const double step = 1e-3;
    const double inner = radialDispersion(radius * std::exp(-step)), outer = radialDispersion(radius * std::exp(step));
    const double logSlope =
        inner > 0 && outer > 0 ? (std::log(outer * outer) - std::log(inner * inner)) / (2 * step) : 0.0;
    const double drift =
        sigmaR * sigmaR * (1.0 - sigmaPhi * sigmaPhi / (sigmaR * sigmaR) - radius / m_model.diskScaleLength + logSlope);
    return std::sqrt(std::max(0.0, circularSpeedSquared(radius, height) + drift));
}

double DiskGalaxyKinematics::bulgeDispersion(double radius) const {
    const double logRadius = std::log(std::max(radius, 1e-300));
    if (!m_bulgeDispersionSquared.covers(logRadius))
        return std::sqrt((m_model.bulgeMass + m_model.diskMass) / (6.0 * radius));
    return std::sqrt(m_bulgeDispersionSquared.at(logRadius));
}

} // namespace gravlab::scenario
