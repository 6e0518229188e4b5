#pragma once
// Barnes-Hut arithmetic shared by the CPU tree (fallback, second reference) and the CUDA tree, so both accept the
// same cells and sum the same multipole series.
//
// Design note:
//   Opening criterion (Barnes & Hut 1986 with the centre-of-mass offset of Barnes 1994 / Salmon & Warren 1994): a
//   cell of side s whose centre of mass lies delta from its geometric centre may stand in for its bodies, seen from a
//   target at distance d from that centre of mass, when
//       d > s / theta + delta,
//   i.e. s / (d - delta) < theta. The delta term keeps the error bounded when the mass sits in a corner of a big
//   cell (the classic failure of plain s/d < theta). openingRadius() is computed once per cell in the summary pass;
//   traversal compares squared distances with its square.
//   Relative criterion (Springel 2005, GADGET-2): the error of a cell's expansion, to the octupole order that the
//   quadrupole expansion drops, is about G M s^3 / r^5 for a cell of mass M and side s at distance r. The cell is
//   accepted for a target whose previous acceleration was a when that error is at most alpha |a|, i.e. when
//       r^2 + eps^2 >= (M s^3 / (alpha |a| / G))^(2/5),
//   and, for safety, when the target lies beyond the geometric radius at theta = kRelativeOpeningSafetyAngle (so never
//   inside the cell). Each body thus gets about the same relative error, where the geometric criterion gives bodies in
//   weak fields (the outskirts) large relative errors and bodies in strong fields (the core) needless accuracy:
//   measured on the CPU tree at 200k bodies, the relative criterion reaches the geometric theta 0.5's 99th percentile
//   error with 0.4 (Plummer) to 0.65 (galaxy collision) times its interaction cost.
//   Multipoles: mass, centre of mass and the traceless quadrupole about the centre of mass,
//       Q_ij = sum_k m_k (3 x_i x_j - |x|^2 delta_ij),  x = x_k - com.
//   Softened expansion: the second-order Taylor expansion of the bodies' Plummer-softened potential about the centre
//   of mass, with d = target - com, r^2 = |d|^2 + eps^2 and T = sum_k m_k |x|^2 (the trace that Q leaves out),
//       phi = -G [ M / r + (d.Q.d - eps^2 T) / (2 r^5) ]
//       a   = -grad phi = G [ -M d / r^3 + (Q.d) / r^5 - (5/2) (d.Q.d - eps^2 T) d / r^7 ]
//   multipolePotential() evaluates phi itself (per-body potentials for the energy and the potential colour map).
//   It reduces to the Plummer-softened monopole of the direct solvers for a single body (Q = 0, T = 0) and to the
//   Newtonian series for eps = 0. Substituting r^2 + eps^2 into the Newtonian series alone misses the eps^2 T term,
//   which then dominates the error at the default eps = 0.05: at theta 0.5 the 99th percentile is 3.4e-3 instead of
//   8e-4 for a 100k-body Plummer sphere and 7.9e-3 instead of 8.5e-4 for the disk galaxy.
#include <gravlab/sim/HostDevice.hpp>

#include <cmath>

namespace gravlab {

/// Multipole of one cell about its centre of mass.
struct CellMultipole {
    float mass;
    float comX, comY, comZ;
    float qxx, qyy, qzz, qxy, qxz, qyz; ///< traceless quadrupole about the centre of mass
    float secondMoment;                 ///< T = sum m |x - com|^2, the weight of the softening term
};

GRAVLAB_HOST_DEVICE float reciprocalSqrt(float x) {
#if defined(__CUDA_ARCH__)
    return rsqrtf(x);
#else
    return 1.0f / std::sqrt(x);
#endif
}

/// Largest theta the opening radius is computed with: 2 / sqrt(3). A target inside a cell is at most
/// (sqrt(3) / 2) side + delta from its centre of mass, so with theta <= 2 / sqrt(3) no body ever accepts a cell that
/// contains it (whose multipole includes the body itself); larger values act as this one. Both trees use it.
inline constexpr float kLargestSelfSafeOpeningAngle = 1.1547005f;

/// Distance from the centre of mass beyond which a cell may be used whole: s / theta + delta (see the design note),
/// with theta capped at kLargestSelfSafeOpeningAngle.
GRAVLAB_HOST_DEVICE float openingRadius(float cellSide, float comOffsetFromCentre, float openingAngle) {
    const float theta = openingAngle < kLargestSelfSafeOpeningAngle ? openingAngle : kLargestSelfSafeOpeningAngle;
    return cellSide / theta + comOffsetFromCentre;
}

/// Opening angle of the relative criterion's geometric safety test: a target must lie farther than side + delta from
/// the centre of mass, so outside the cell.
inline constexpr float kRelativeOpeningSafetyAngle = 1.0f;

/// M s^3, the relative criterion's per-cell scale of its expansion's error (see the design note).
GRAVLAB_HOST_DEVICE float relativeErrorScale(float mass, float cellSide) {
    return mass * cellSide * cellSide * cellSide;
}

/// G / (alpha |a|): the inverse of the error (without G) the relative criterion tolerates for a target whose previous
/// acceleration (with G) had magnitude accelerationMagnitude; infinite for a = 0 (every cell is then opened).
GRAVLAB_HOST_DEVICE float relativeInverseTolerance(float gravitationalConstant, float forceAccuracy,
                                                   float accelerationMagnitude) {
    return gravitationalConstant / (forceAccuracy * accelerationMagnitude);
}

/// The squared distance from the centre of mass beyond which the relative criterion accepts a cell of this error
/// scale: (errorScale * inverseTolerance)^(2/5) - eps^2 (see the design note); the caller takes the larger of this and
/// the safety radius.
GRAVLAB_HOST_DEVICE float relativeOpeningRadius2(float errorScale, float inverseTolerance, float eps2) {
#if defined(__CUDA_ARCH__)
    return exp2f(0.4f * __log2f(errorScale * inverseTolerance)) - eps2;
#else
    return std::pow(errorScale * inverseTolerance, 0.4f) - eps2;
#endif
}

/// The same test without the power (the CPU walk's form): whether a target at squared distance distance2 from the
/// centre of mass satisfies errorScale * inverseTolerance <= (distance2 + eps^2)^(5/2).
GRAVLAB_HOST_DEVICE bool relativeCriterionAccepts(float errorScale, float inverseTolerance, float distance2,
                                                  float eps2) {
    const float r2 = distance2 + eps2;
    return errorScale * inverseTolerance <= r2 * r2 * std::sqrt(r2);
}

/// Adds the cell's acceleration (without G) on a target at d = target - com, Plummer softening eps2 = eps^2.
/// The series above, factored as a += r^-5 [Q.d - (M r^2 + (5/2) (d.Q.d - eps^2 T) / r^2) d] so that every term
/// is one fused multiply-add on the GPU: 3 + 3 + 24 operations and one rsqrt (36 before the factoring).
GRAVLAB_HOST_DEVICE void addMultipoleAcceleration(float dx, float dy, float dz, const CellMultipole& cell, float eps2,
                                                  float& ax, float& ay, float& az) {
    const float r2 = eps2 + dx * dx + dy * dy + dz * dz;
    const float rInv = reciprocalSqrt(r2);
    const float rInv2 = rInv * rInv;
    const float rInv5 = rInv2 * rInv2 * rInv;
    const float qdx = cell.qxx * dx + cell.qxy * dy + cell.qxz * dz;
    const float qdy = cell.qxy * dx + cell.qyy * dy + cell.qyz * dz;
    const float qdz = cell.qxz * dx + cell.qyz * dy + cell.qzz * dz;
    const float softenedDQd = dx * qdx + dy * qdy + dz * qdz - eps2 * cell.secondMoment;
    const float radial = -2.5f * (softenedDQd * rInv2) - cell.mass * r2; ///< the radial factor over r^-5
    ax += (radial * dx + qdx) * rInv5;
    ay += (radial * dy + qdy) * rInv5;
    az += (radial * dz + qdz) * rInv5;
}

/// The cell's potential (without G) at a target at d = target - com: -[M / r + (d.Q.d - eps^2 T) / (2 r^5)], the
/// series of the design note whose gradient addMultipoleAcceleration takes, so forces and potentials agree.
GRAVLAB_HOST_DEVICE float multipolePotential(float dx, float dy, float dz, const CellMultipole& cell, float eps2) {
    const float r2 = eps2 + dx * dx + dy * dy + dz * dz;
    const float rInv = reciprocalSqrt(r2);
    const float rInv2 = rInv * rInv;
    const float qdx = cell.qxx * dx + cell.qxy * dy + cell.qxz * dz;
    const float qdy = cell.qxy * dx + cell.qyy * dy + cell.qyz * dz;
    const float qdz = cell.qxz * dx + cell.qyz * dy + cell.qzz * dz;
    const float softenedDQd = dx * qdx + dy * qdy + dz * qdz - eps2 * cell.secondMoment;
    return -rInv * (cell.mass + 0.5f * softenedDQd * rInv2 * rInv2);
}

/// One body's softened potential (without G) at a target at d = target - body: -m / sqrt(d^2 + eps^2).
GRAVLAB_HOST_DEVICE float bodyPotential(float dx, float dy, float dz, float mass, float eps2) {
    return -mass * reciprocalSqrt(eps2 + dx * dx + dy * dy + dz * dz);
}

/// Whether a cell may be evaluated as its softened monopole alone (addBodyAcceleration with its mass at its centre of
/// mass) for every target at least sqrt(distance2) from its centre of mass: when the terms it leaves out are below
/// kappa (T / (M r^2))^(3/2) of the monopole term, the relative size of the octupole-order term that the quadrupole
/// expansion already leaves out (cell extent b^2 = T / M). Cells are accepted at distances of at least their side over
/// theta, so this tolerance falls like theta^3, as the expansion's own error does.
/// The bound on the left-out terms: with r^2 = d^2 + eps^2 and |Q| the Frobenius norm (>= |Q.d| / |d| and
/// >= |d.Q.d| / |d|^2), addMultipoleAcceleration adds at most (7/2 |Q| r^2 + 5/2 eps^2 T) |d| / r^7 to the monopole's
/// M |d| / r^3. That ratio falls like r^-2, so for targets farther than sqrt(distance2) the left-out part stays below
/// the tolerance taken at sqrt(distance2) (the GPU walk passes the distance from its group's box; a farther target's
/// own kappa (b / r)^3 would be smaller). Multiplied out (leftOut sqrt(M) < kappa T sqrt(T r^2)), so a cell of zero
/// mass keeps its expansion.
GRAVLAB_HOST_DEVICE bool monopoleSuffices(const CellMultipole& cell, float distance2, float eps2, float kappa) {
    const float offDiagonal2 = cell.qxy * cell.qxy + cell.qxz * cell.qxz + cell.qyz * cell.qyz;
    const float quadrupoleNorm2 = cell.qxx * cell.qxx + cell.qyy * cell.qyy + cell.qzz * cell.qzz + 2.0f * offDiagonal2;
    const float r2 = distance2 + eps2;
    const float leftOut = 3.5f * std::sqrt(quadrupoleNorm2) * r2 + 2.5f * eps2 * cell.secondMoment;
    return leftOut * std::sqrt(cell.mass) < kappa * cell.secondMoment * std::sqrt(cell.secondMoment * r2);
}

/// Adds one body's softened acceleration (without G) on a target at d = target - body: the monopole term alone.
GRAVLAB_HOST_DEVICE void addBodyAcceleration(float dx, float dy, float dz, float mass, float eps2, float& ax, float& ay,
                                             float& az) {
    const float r2 = eps2 + dx * dx + dy * dy + dz * dz; // eps2 first: three fused multiply-adds on the GPU
    const float rInv = reciprocalSqrt(r2);
    const float factor = -mass * rInv * rInv * rInv;
    ax += factor * dx;
    ay += factor * dy;
    az += factor * dz;
}

} // namespace gravlab
