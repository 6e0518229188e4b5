#pragma once
// Internal to the scenarios: the mass model of a disk galaxy and the kinematics derived from it.
//
// Design note: a galaxy is an exponential disk, Sigma(R) = Md / (2 pi Rd^2) exp(-R / Rd), with an isothermal
// vertical profile sech^2(z / z0), plus a spherical Plummer bulge (mass Mb, scale radius b), in units with G = 1.
// Velocities are set for the forces an N-body code with Plummer softening eps = kDesignSoftening (the default
// softening of SimParams) actually exerts, so the default scene starts close to equilibrium:
//   thin disk         the exact rotation curve of a razor-thin exponential disk (Freeman 1970, ApJ 160, 811):
//                     v^2 = 4 pi G Sigma0 Rd y^2 [I0(y) K0(y) - I1(y) K1(y)], y = R / (2 Rd), tabulated once in y;
//   thickness and     a thick disk is a stack of thin sheets, and Plummer softening acts on a sheet exactly like a
//   softening         vertical offset sqrt(dz^2 + eps^2). Near a sheet of slowly varying Sigma the potential is
//                     Phi(R, h) = Phi(R, 0) + 2 pi G Sigma(R) |h| + O(h^2), so the radial force weakens by
//                     2 pi G Sigma(R) / Rd * H(z) with H(z) = < sqrt((z - z')^2 + eps^2) > over the sech^2 profile
//                     (tabulated); the O(h^2 / Rd^2) remainder is ~1%, and the expansion fails only at R < ~2 z0,
//                     where the bulge dominates;
//   bulge rotation    the Plummer sphere at the body's (R, z), with softening folded into the scale radius (exact
//                     for a point, a close approximation for b >~ eps): R a_R = G Mb R^2 / (r^2 + b^2 + eps^2)^(3/2);
//   disk dispersion   radial: sigma_R = Q 3.36 G Sigma / kappa (Toomre 1964) for the model's Toomre Q, with
//                     kappa^2 = (1/R) d(v_c^2)/dR + 2 v_c^2 / R^2 from the softened rotation curve (taken no further in
//                     than R = Rd / 4, where the softened cusp would send kappa to zero without a bulge); azimuthal:
//                     the epicyclic ratio sigma_phi = sigma_R kappa / (2 Omega); vertical: equilibrium of each column
//                     by the virial theorem, Sigma sigma_z^2 = -int rho z a_z dz,
//                     with three parts of a_z: the local sheet's self-gravity, softened, pi G Sigma(R) times
//                     D = < (z - z')^2 / sqrt((z - z')^2 + eps^2) > over pairs of layers (D = z0 unsoftened); the
//                     bulge, < G Mb z^2 / (R^2 + z^2 + b^2 + eps^2)^(3/2) > over the layers (tabulated in R); and the
//                     rest of the disk, whose radial field's divergence leaves nu^2 = -(1/R) d(v_disk^2)/dR
//                     (cylindrical Poisson equation), times <z^2> = pi^2 z0^2 / 12. The default Q = 1.5 keeps the disk
//                     stable against axisymmetric collapse (Q > 1) with a margin for the swing amplifier;
//   mean rotation     the asymmetric-drift equation (Binney & Tremaine 2008, eq. 4.228) with the density of the
//                     exponential disk: vbar_phi^2 = v_c^2 + sigma_R^2 (1 - sigma_phi^2 / sigma_R^2 - R / Rd
//                     + d ln sigma_R^2 / d ln R), so the warmer disk does not start with too much rotation;
//   bulge dispersion  isotropic Jeans equation in the bulge plus the disk mass within radius r (taken as if it were
//                     spherical): sigma^2(r) = (1 / rho_b) int_r^inf rho_b G M(r') / r'^2 dr', tabulated in ln r.
#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gravlab::scenario {

/// Softening the velocities are balanced for: SimParams' default softening length. Another softening changes v_c by
/// about 1% beyond R = 0.5.
inline constexpr double kDesignSoftening = 0.05;

struct DiskGalaxyModel {
    double diskMass = 0.8;         ///< Md, mass units
    double diskScaleLength = 1.0;  ///< Rd, length units
    double diskScaleHeight = 0.1;  ///< z0 of the sech^2(z / z0) vertical profile, length units
    double bulgeMass = 0.2;        ///< Mb, mass units
    double bulgeScaleRadius = 0.2; ///< Plummer scale radius b of the bulge, length units
    double toomreQ = 1.5;          ///< Toomre Q of the disk, which sets its radial velocity dispersion; > 1 stable
};

/// Values of a function at start + k step, k = 0 .. values.size() - 1, interpolated linearly.
struct LinearTable {
    double start = 0;
    double step = 1;
    std::vector<double> values;

    /// Whether x lies on the grid (at() clamps below the start; beyond the end, callers use an asymptote).
    bool covers(double x) const { return x <= start + step * double(values.size() - 1); }
    double at(double x) const;
};

/// Kinematic profiles of one DiskGalaxyModel (G = 1), precomputed so sampling a body is O(1).
class DiskGalaxyKinematics {
public:
    explicit DiskGalaxyKinematics(const DiskGalaxyModel& model);

    /// v_c^2 = R |a_R| at cylindrical radius R and height z in the model's total (disk + bulge) potential.
    double circularSpeedSquared(double radius, double height) const;
    /// Epicyclic frequency kappa of the midplane rotation curve at cylindrical radius R.
    double epicyclicFrequency(double radius) const;
    /// Radial velocity dispersion sigma_R of the disk at R, from its Toomre Q.
    double radialDispersion(double radius) const;
    /// Azimuthal velocity dispersion of the disk at R (epicyclic ratio).
    double azimuthalDispersion(double radius) const;
    /// Mean rotation speed of the disk at R (asymmetric drift below v_c).
    double meanRotationSpeed(double radius, double height) const;
    /// Vertical velocity dispersion of the disk at R (vertical equilibrium).
    double verticalDispersion(double radius) const;
    /// One-dimensional (isotropic) velocity dispersion of the bulge at spherical radius r.
    double bulgeDispersion(double radius) const;

private:
    double diskCircularSpeedSquared(double radius, double height) const;
    double thinDiskCircularSpeedSquared(double radius) const;
    double surfaceDensity(double radius) const;
    double angularSpeedSquared(double radius) const;

    DiskGalaxyModel m_model;
    double m_sheetPairSeparation = 0;     ///< D, see the design note
    double m_meanSquareHeight = 0;        ///< <z^2> of the sech^2 profile
    LinearTable m_meanSheetOffset;        ///< H(|z|) = < sqrt((z - z')^2 + eps^2) > over the layers
    LinearTable m_bulgeVerticalTerm;      ///< < G Mb z^2 / (R^2 + z^2 + b^2 + eps^2)^(3/2) > over the layers, in R
    LinearTable m_bulgeDispersionSquared; ///< in ln r
};

/// Body colours of one galaxy: the disk runs from diskInner (centre) to diskOuter (edge), the bulge is one colour.
struct GalaxyPalette {
    double diskInner;
    double diskOuter;
    double bulge;
};

/// Bodies of the bulge when a galaxy of bodyCount bodies is shared in proportion to the component masses.
std::size_t bulgeBodyCount(const DiskGalaxyModel& model, std::size_t bodyCount);

/// Samples a galaxy into bodies [first, first + diskCount + bulgeCount): disk bodies first, spin along +z, centre of
/// mass at the origin and at rest. Each component's mass is shared equally among its bodies; a component without
/// bodies is left out of the model (so tiny N still gives finite, bound bodies).
void sampleDiskGalaxy(const DiskGalaxyModel& model, const GalaxyPalette& palette, std::uint64_t seed,
                      std::size_t diskCount, std::size_t bulgeCount, std::size_t first, Bodies& out);

} // namespace gravlab::scenario
