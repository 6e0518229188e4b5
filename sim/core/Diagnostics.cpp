// Energies, momenta and the virial ratio of a body set, in fp64 (see Diagnostics.hpp).
//
// Design note: the pair sum for W visits each pair once (j > i); rows get shorter with i, so OpenMP hands out rows
// dynamically in chunks. Everything is accumulated in double from the float state (the float-float pairs in double
// precision), so the diagnostics' own rounding (~1e-16 relative per term) is far below the integration errors they
// are used to measure.
#include "core/Parallel.hpp"

#include <gravlab/sim/Diagnostics.hpp>
#include <gravlab/sim/Precision.hpp>

#include <cmath>
#include <cstdint>

namespace gravlab {
namespace {

/// Positions as the diagnostics read them: the floats, or the float-float pairs in double precision, so the energy of
/// an fp64 state is measured in fp64 and not through the 1e-7 rounding of its float part.
template <bool kPairs> struct PositionsFp64 {
    const float *x, *y, *z, *xLow, *yLow, *zLow;

    explicit PositionsFp64(const Bodies& bodies)
        : x(bodies.x.data()), y(bodies.y.data()), z(bodies.z.data()), xLow(bodies.xLow.data()),
          yLow(bodies.yLow.data()), zLow(bodies.zLow.data()) {}
    double xOf(std::int64_t i) const { return kPairs ? double(x[i]) + double(xLow[i]) : double(x[i]); }
    double yOf(std::int64_t i) const { return kPairs ? double(y[i]) + double(yLow[i]) : double(y[i]); }
    double zOf(std::int64_t i) const { return kPairs ? double(z[i]) + double(zLow[i]) : double(z[i]); }
};

template <bool kPairs> double potentialEnergyFp64(const Bodies& bodies, const GravityParams& gravity) {
    const double softening2 = gravity.softeningLength * gravity.softeningLength;
    const PositionsFp64<kPairs> position(bodies);
    const float* mass = bodies.mass.data();
    const auto count = std::int64_t(bodies.size());
    double sum = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : sum) if (parallel : count * count / 2 >= kMinPairsForParallel)
    for (std::int64_t i = 0; i < count; ++i) {
        const double xi = position.xOf(i), yi = position.yOf(i), zi = position.zOf(i);
        double row = 0;
#pragma omp simd reduction(+ : row)
        for (std::int64_t j = i + 1; j < count; ++j) {
            const double dx = position.xOf(j) - xi;
            const double dy = position.yOf(j) - yi;
            const double dz = position.zOf(j) - zi;
            row += double(mass[j]) / std::sqrt(dx * dx + dy * dy + dz * dz + softening2);
        }
        sum += double(mass[i]) * row;
    }
    return -gravity.gravitationalConstant * sum;
}

} // namespace

double Diagnostics::virialRatio() const {
    return kineticEnergy / std::abs(potentialEnergy);
}

Diagnostics computeDiagnosticsCpu(const Bodies& bodies, const GravityParams& gravity) {
    Diagnostics result = computeBodySumsCpu(bodies);
    result.potentialEnergy =
        bodies.hasLowParts() ? potentialEnergyFp64<true>(bodies, gravity) : potentialEnergyFp64<false>(bodies, gravity);
    return result;
}

Diagnostics computeBodySumsCpu(const Bodies& bodies) {
    Diagnostics result;
    double kinetic = 0, px = 0, py = 0, pz = 0, lx = 0, ly = 0, lz = 0;
    const auto count = std::int64_t(bodies.size());
#pragma omp parallel for schedule(static) reduction(+ : kinetic, px, py, pz, lx, ly, lz) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        const double m = bodies.mass[i];
        const auto [x, y, z] = positionFp64(bodies, i);
        const auto [vx, vy, vz] = velocityFp64(bodies, i);
        kinetic += 0.5 * m * (vx * vx + vy * vy + vz * vz);
        px += m * vx;
        py += m * vy;
        pz += m * vz;
        lx += m * (y * vz - z * vy);
        ly += m * (z * vx - x * vz);
        lz += m * (x * vy - y * vx);
    }
    result.kineticEnergy = kinetic;
    result.linearMomentum = {px, py, pz};
    result.angularMomentum = {lx, ly, lz};
    return result;
}

} // namespace gravlab
