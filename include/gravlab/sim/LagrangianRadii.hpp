#pragma once
// Lagrangian radii: the radii about the centre of mass that enclose given fractions of the total mass.
//
// Design note: computed from a host copy of the bodies (readBodies), O(N log N): distances squared from the fp64
// centre of mass are paired with the masses and sorted, then the cumulative mass is scanned once for all fractions.
// A sort rather than nth_element because the scenarios mix masses (a galaxy's halo, disk and bulge particles), and a
// mass fraction is not a body-count fraction then. The host read is what keeps this backend-independent; at the
// plots' cadence (a sample every fraction of a second, N up to ~1e6 on the GPU) the 32-byte-per-body copy and the
// sort take tens of milliseconds, which is why the session samples them only when that is cheap.
#include <gravlab/sim/Bodies.hpp>

#include <span>
#include <vector>

namespace gravlab {

/// For each fraction f in (0, 1], the smallest radius r about the centre of mass such that the bodies at distance
/// <= r hold at least f of the total mass (N-body length units). Empty bodies give zeros. Throws
/// std::invalid_argument for a fraction outside (0, 1].
std::vector<double> lagrangianRadii(const Bodies& bodies, std::span<const double> massFractions);

} // namespace gravlab
