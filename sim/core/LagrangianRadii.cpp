// Lagrangian radii by sorting distances from the centre of mass (see LagrangianRadii.hpp).
#include <gravlab/sim/LagrangianRadii.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace gravlab {
namespace {

std::array<double, 3> centreOfMass(const Bodies& bodies, double& totalMass) {
    double x = 0, y = 0, z = 0;
    totalMass = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const double m = bodies.mass[i];
        x += m * bodies.x[i];
        y += m * bodies.y[i];
        z += m * bodies.z[i];
        totalMass += m;
    }
    if (totalMass <= 0)
        return {0, 0, 0};
    return {x / totalMass, y / totalMass, z / totalMass};
}

} // namespace

std::vector<double> lagrangianRadii(const Bodies& bodies, std::span<const double> massFractions) {
    for (const double fraction : massFractions)
        if (!(fraction > 0 && fraction <= 1))
            throw std::invalid_argument("Lagrangian radius: mass fraction " + std::to_string(fraction) +
                                        " is outside (0, 1]");
    std::vector<double> radii(massFractions.size(), 0.0);
    if (bodies.size() == 0)
        return radii;
    double totalMass = 0;
    const std::array<double, 3> centre = centreOfMass(bodies, totalMass);
    std::vector<std::pair<double, double>> distance2AndMass(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const double dx = bodies.x[i] - centre[0], dy = bodies.y[i] - centre[1], dz = bodies.z[i] - centre[2];
        distance2AndMass[i] = {dx * dx + dy * dy + dz * dz, bodies.mass[i]};
    }
    std::sort(distance2AndMass.begin(), distance2AndMass.end());
    for (std::size_t f = 0; f < massFractions.size(); ++f) {
        const double wanted = massFractions[f] * totalMass;
        double enclosed = 0;
        std::size_t k = 0;
        // A relative slack of 1e-12 keeps f = 1 from missing the last body through the sum's rounding.
        while (k + 1 < distance2AndMass.size() && enclosed + distance2AndMass[k].second < wanted * (1 - 1e-12))
            enclosed += distance2AndMass[k++].second;
        radii[f] = std::sqrt(distance2AndMass[k].first);
    }
    return radii;
}

} // namespace gravlab
