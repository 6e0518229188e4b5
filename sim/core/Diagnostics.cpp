// Energies, momenta and the virial ratio of a body set, in fp64 (see Diagnostics.hpp).
//
// Design note: the pair sum for W visits each pair once (j > i); rows get shorter with i, so OpenMP hands out rows
// dynamically in chunks. Everything is accumulated in double from the float state, so the diagnostics' own rounding
// (~1e-16 relative per term) is far below the float integration errors they are used to measure.
#include "core/Parallel.hpp"

#include <gravlab/sim/Diagnostics.hpp>

#include <cmath>
#include <cstdint>

namespace gravlab {
namespace {

double potentialEnergyFp64(const Bodies& bodies, const GravityParams& gravity) {
    const double softening2 = gravity.softeningLength * gravity.softeningLength;
    const float* x = bodies.x.data();
    const float* y = bodies.y.data();
    const float* z = bodies.z.data();
    const float* mass = bodies.mass.data();
    const auto count = std::int64_t(bodies.size());
    double sum = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : sum) if (parallel : count * count / 2 >= kMinPairsForParallel)
    for (std::int64_t i = 0; i < count; ++i) {
        const double xi = x[i], yi = y[i], zi = z[i];
        double row = 0;
#pragma omp simd reduction(+ : row)
        for (std::int64_t j = i + 1; j < count; ++j) {
            const double dx = double(x[j]) - xi;
            const double dy = double(y[j]) - yi;
            const double dz = double(z[j]) - zi;
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
    result.potentialEnergy = potentialEnergyFp64(bodies, gravity);
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
        const double x = bodies.x[i], y = bodies.y[i], z = bodies.z[i];
        const double vx = bodies.vx[i], vy = bodies.vy[i], vz = bodies.vz[i];
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
