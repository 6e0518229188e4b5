#pragma once
// The unit system of a simulation: N-body units (G = 1) unless a file states physical units.
//
// Design note: the state is stored in three base units (length, mass, velocity); time is length / velocity, as in
// GADGET and SWIFT, so a file's units carry over unchanged and G follows from them: G = G_cgs * M / (L * V^2). A
// UnitSystem without physical scales (lengthInCm == 0) is the dimensionless N-body system of the built-in scenarios.
// Names are for people (panel, help, messages): "kpc", "1e10 Msun", "km/s", "0.978 Gyr".
#include <string>

namespace gravlab {

/// Newton's constant in cgs, cm^3 g^-1 s^-2 (CODATA 2018).
inline constexpr double kGravitationalConstantCgs = 6.67430e-8;
inline constexpr double kParsecInCm = 3.085677581491367e18;
inline constexpr double kSolarMassInGrams = 1.98841e33;
inline constexpr double kYearInSeconds = 3.15576e7; ///< Julian year

struct UnitSystem {
    double lengthInCm = 0; ///< 0: N-body units, no physical scale
    double massInGrams = 0;
    double velocityInCmPerSecond = 0;
    std::string lengthName = "length unit";
    std::string massName = "mass unit";
    std::string velocityName = "velocity unit";

    bool physical() const { return lengthInCm > 0 && massInGrams > 0 && velocityInCmPerSecond > 0; }
    double timeInSeconds() const { return physical() ? lengthInCm / velocityInCmPerSecond : 0.0; }
    /// G expressed in this system; 1 for N-body units.
    double gravitationalConstant() const;
    /// The time unit in words, e.g. "0.978 Gyr" ("time unit" for N-body units).
    std::string timeName() const;
    /// One line for the panel and messages, e.g. "kpc, 1e10 Msun, km/s (G = 43009.2)" or "N-body units (G = 1)".
    std::string summary() const;
    bool operator==(const UnitSystem&) const = default;
};

/// The dimensionless system of the built-in scenarios.
UnitSystem nbodyUnits();
/// A physical system from its cgs scales, with names chosen for people: lengths in pc, kpc or Mpc multiples, masses
/// in Msun multiples, velocities in km/s multiples, or cm, g and cm/s when none fits. N-body units when a scale is
/// not a positive finite number.
UnitSystem unitSystemFromCgs(double lengthInCm, double massInGrams, double velocityInCmPerSecond);
/// kpc, 1e10 Msun and km/s: the GADGET default (G = 43009.2).
UnitSystem gadgetDefaultUnits();

} // namespace gravlab
