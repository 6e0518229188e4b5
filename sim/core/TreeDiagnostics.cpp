// The potential by the CPU tree and by the fp64 pair sum, per body, and W from per-body potentials (Diagnostics.hpp).
//
// Design note: the tree potential builds its own octree of the given bodies (OctreeCpu) and summarizes it for the
// requested theta, so it works whatever solver steps the bodies and never disturbs a solver's cached tree; the build
// and summary cost about what one tree step's do, the walk less than its force walk.
#include "core/Parallel.hpp"
#include "tree/OctreeCpu.hpp"
#include "tree/TreePotentialCpu.hpp"

#include <gravlab/sim/Diagnostics.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

namespace gravlab {

std::string describePotentialMethod(const Diagnostics& diagnostics) {
    if (diagnostics.potentialMethod == PotentialMethod::DirectFp64)
        return "fp64 direct sum";
    char theta[32];
    std::snprintf(theta, sizeof theta, "%g", diagnostics.potentialOpeningAngle);
    return std::string("tree, theta ") + theta;
}

double potentialEnergyFromPotentials(std::span<const float> mass, std::span<const float> potential) {
    if (mass.size() != potential.size())
        throw std::invalid_argument("potential energy: " + std::to_string(mass.size()) + " masses but " +
                                    std::to_string(potential.size()) + " potentials");
    double sum = 0;
    for (std::size_t i = 0; i < mass.size(); ++i)
        sum += double(mass[i]) * double(potential[i]);
    return 0.5 * sum;
}

void computeTreePotentialsCpu(const Bodies& bodies, const GravityParams& gravity, double openingAngle,
                              std::vector<float>& out) {
    if (bodies.size() == 0) {
        out.clear();
        return;
    }
    OctreeCpu tree;
    tree.build(bodies);
    tree.summarize(float(openingAngle));
    computeTreePotentialsCpu(tree, {gravity.gravitationalConstant, gravity.softeningLength}, out);
}

Diagnostics computeTreeDiagnosticsCpu(const Bodies& bodies, const GravityParams& gravity, double openingAngle) {
    Diagnostics result = computeBodySumsCpu(bodies);
    std::vector<float> potentials;
    computeTreePotentialsCpu(bodies, gravity, openingAngle, potentials);
    result.potentialEnergy = potentialEnergyFromPotentials(bodies.mass, potentials);
    result.potentialMethod = PotentialMethod::Tree;
    result.potentialOpeningAngle = openingAngle;
    return result;
}

void computeDirectPotentialsFp64(const Bodies& bodies, const GravityParams& gravity, std::vector<double>& out) {
    const double softening2 = gravity.softeningLength * gravity.softeningLength;
    const auto count = std::int64_t(bodies.size());
    out.resize(bodies.size());
#pragma omp parallel for schedule(static) if (parallel : count * count >= kMinPairsForParallel)
    for (std::int64_t i = 0; i < count; ++i) {
        const double xi = bodies.x[std::size_t(i)], yi = bodies.y[std::size_t(i)], zi = bodies.z[std::size_t(i)];
        double sum = 0;
        for (std::int64_t j = 0; j < count; ++j) {
            const auto k = std::size_t(j);
            const double dx = bodies.x[k] - xi, dy = bodies.y[k] - yi, dz = bodies.z[k] - zi;
            sum += j == i ? 0.0 : double(bodies.mass[k]) / std::sqrt(dx * dx + dy * dy + dz * dz + softening2);
        }
        out[std::size_t(i)] = -gravity.gravitationalConstant * sum;
    }
}

} // namespace gravlab
