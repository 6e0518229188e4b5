#pragma once
// The energies of a body set by the plainest fp64 loops, written apart from sim/Diagnostics so that a mistake there
// (a missing mass, the softening, a float accumulation) cannot hide by being repeated here.
#include <gravlab/sim/Bodies.hpp>

#include <cmath>
#include <cstddef>

namespace gravlab::test {

struct EnergyFp64 {
    double kinetic = 0;   ///< sum of m v^2 / 2
    double potential = 0; ///< -G sum_{i<j} m_i m_j / sqrt(r_ij^2 + eps^2)
    double total() const { return kinetic + potential; }
};

inline EnergyFp64 energyFp64(const Bodies& bodies, double gravitationalConstant, double softeningLength) {
    EnergyFp64 energy;
    const std::size_t count = bodies.size();
    for (std::size_t i = 0; i < count; ++i) {
        const double vx = bodies.vx[i], vy = bodies.vy[i], vz = bodies.vz[i];
        energy.kinetic += 0.5 * double(bodies.mass[i]) * (vx * vx + vy * vy + vz * vz);
        for (std::size_t j = i + 1; j < count; ++j) {
            const double dx = double(bodies.x[j]) - double(bodies.x[i]);
            const double dy = double(bodies.y[j]) - double(bodies.y[i]);
            const double dz = double(bodies.z[j]) - double(bodies.z[i]);
            const double distance = std::sqrt(dx * dx + dy * dy + dz * dz + softeningLength * softeningLength);
            energy.potential -= gravitationalConstant * double(bodies.mass[i]) * double(bodies.mass[j]) / distance;
        }
    }
    return energy;
}

} // namespace gravlab::test
