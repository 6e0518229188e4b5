#pragma once
// Conserved quantities and equilibrium measures of a body set, accumulated in fp64.
//
// Design note: the potential energy uses the same Plummer softening as the forces, W = -G sum_{i<j} m_i m_j /
// sqrt(r_ij^2 + eps^2), so that K + W is the quantity leapfrog conserves. The CPU version is O(N^2) in fp64
// (OpenMP); call it on demand, not every frame.
// The potential may instead come from the Barnes-Hut tree, O(N log N): per-body potentials phi_i = -G sum_{j != i}
// m_j / sqrt(r_ij^2 + eps^2) by the tree's softened monopole + quadrupole expansion (TreeMath.hpp), reduced in fp64 to
// W = 1/2 sum m_i phi_i. At theta 0.5 W is within about 1e-5 of the pair sum and per-body potentials within 3e-5
// (median) and 1.4e-4 (99th percentile) on Plummer spheres and galaxy collisions, so the plotted energy error reads
// true down to ~1e-5 (a tree-measured series is compared with its own tree-measured E0, which removes most of even
// that), and it is cheap enough to measure live. Diagnostics say
// which method measured their W.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>

#include <array>
#include <span>
#include <string>
#include <vector>

namespace gravlab {

/// How the potential energy W of Diagnostics was measured.
enum class PotentialMethod {
    DirectFp64, ///< exact pair sum in fp64, O(N^2)
    Tree,       ///< Barnes-Hut tree, O(N log N), at an opening angle
};

struct Diagnostics {
    double kineticEnergy = 0;
    double potentialEnergy = 0;
    std::array<double, 3> linearMomentum{};
    std::array<double, 3> angularMomentum{}; ///< about the origin
    PotentialMethod potentialMethod = PotentialMethod::DirectFp64;
    double potentialOpeningAngle = 0; ///< theta of the tree potential; 0 for the direct sum
    double totalEnergy() const { return kineticEnergy + potentialEnergy; }
    /// K / |W|: 0.5 for a system in virial equilibrium.
    double virialRatio() const;
};

Diagnostics computeDiagnosticsCpu(const Bodies& bodies, const GravityParams& gravity);

/// "tree, theta 0.5" or "fp64 direct sum": how diagnostics' W was measured, for panels and CSV headers.
std::string describePotentialMethod(const Diagnostics& diagnostics);

/// Kinetic energy and momenta in fp64, O(N); the potential energy is left 0 (fill it by either method).
Diagnostics computeBodySumsCpu(const Bodies& bodies);

/// W = 1/2 sum_i m_i phi_i, accumulated in fp64; the spans have one entry per body.
double potentialEnergyFromPotentials(std::span<const float> mass, std::span<const float> potential);

/// Per-body potentials phi_i (with G, own term excluded) by the CPU octree at openingAngle, in the bodies' order (out
/// is resized to N). Positions must be finite.
void computeTreePotentialsCpu(const Bodies& bodies, const GravityParams& gravity, double openingAngle,
                              std::vector<float>& out);

/// Diagnostics whose W comes from computeTreePotentialsCpu (potentialMethod Tree).
Diagnostics computeTreeDiagnosticsCpu(const Bodies& bodies, const GravityParams& gravity, double openingAngle);

/// Per-body potentials phi_i (with G, own term excluded) by the exact pair sum in fp64, O(N^2): the reference.
void computeDirectPotentialsFp64(const Bodies& bodies, const GravityParams& gravity, std::vector<double>& out);

} // namespace gravlab
