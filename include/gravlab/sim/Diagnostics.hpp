#pragma once
// Conserved quantities and equilibrium measures of a body set, accumulated in fp64.
//
// Design note: the potential energy uses the same Plummer softening as the forces, W = -G sum_{i<j} m_i m_j /
// sqrt(r_ij^2 + eps^2), so that K + W is the quantity leapfrog conserves. The CPU version is O(N^2) in fp64
// (OpenMP); call it on demand, not every frame.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>

#include <array>

namespace gravlab {

struct Diagnostics {
    double kineticEnergy = 0;
    double potentialEnergy = 0;
    std::array<double, 3> linearMomentum{};
    std::array<double, 3> angularMomentum{}; ///< about the origin
    double totalEnergy() const { return kineticEnergy + potentialEnergy; }
    /// K / |W|: 0.5 for a system in virial equilibrium.
    double virialRatio() const;
};

Diagnostics computeDiagnosticsCpu(const Bodies& bodies, const GravityParams& gravity);

} // namespace gravlab
