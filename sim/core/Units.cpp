// UnitSystem: G from the base units, and names people read (see Units.hpp).
#include <gravlab/sim/Units.hpp>

#include <cmath>
#include <cstdio>

namespace gravlab {
namespace {

/// Names are for people: a factor within 0.1% of 1 is not shown ("kpc" for GADGET's 3.085678e21 cm, which differs
/// from the IAU kiloparsec in the seventh digit), one within 0.1% of a power of ten is shown as that power ("1e10 Msun"
/// for 1.989e43 g), any other with four digits ("2.5e+06 Msun"). The scales themselves stay exact.
constexpr double kNameTolerance = 1e-3;

std::string scaled(double factor, const char* unit) {
    if (std::abs(factor - 1.0) < kNameTolerance)
        return unit;
    const double decade = std::round(std::log10(factor));
    char text[48];
    if (std::abs(factor / std::pow(10.0, decade) - 1.0) < kNameTolerance)
        std::snprintf(text, sizeof text, "1e%d %s", int(decade), unit);
    else
        std::snprintf(text, sizeof text, "%.4g %s", factor, unit);
    return text;
}

std::string lengthName(double lengthInCm) {
    for (const auto& [scale, name] : {std::pair{1e6 * kParsecInCm, "Mpc"}, std::pair{1e3 * kParsecInCm, "kpc"},
                                      std::pair{kParsecInCm, "pc"}})
        if (lengthInCm >= (1.0 - kNameTolerance) * scale)
            return scaled(lengthInCm / scale, name);
    return scaled(lengthInCm, "cm");
}

std::string massName(double massInGrams) {
    if (massInGrams >= 1e-3 * kSolarMassInGrams)
        return scaled(massInGrams / kSolarMassInGrams, "Msun");
    return scaled(massInGrams, "g");
}

std::string velocityName(double velocityInCmPerSecond) {
    if (velocityInCmPerSecond >= 1e5 * (1.0 - kNameTolerance))
        return scaled(velocityInCmPerSecond / 1e5, "km/s");
    return scaled(velocityInCmPerSecond, "cm/s");
}

} // namespace

double UnitSystem::gravitationalConstant() const {
    if (!physical())
        return 1.0;
    return kGravitationalConstantCgs * massInGrams / (lengthInCm * velocityInCmPerSecond * velocityInCmPerSecond);
}

std::string UnitSystem::timeName() const {
    if (!physical())
        return "time unit";
    const double years = timeInSeconds() / kYearInSeconds;
    char text[48];
    if (years >= 1e9)
        std::snprintf(text, sizeof text, "%.4g Gyr", years / 1e9);
    else if (years >= 1e6)
        std::snprintf(text, sizeof text, "%.4g Myr", years / 1e6);
    else
        std::snprintf(text, sizeof text, "%.4g yr", years);
    return text;
}

std::string UnitSystem::summary() const {
    char gravity[40];
    std::snprintf(gravity, sizeof gravity, "%.6g", gravitationalConstant());
    if (!physical())
        return "N-body units (G = 1)";
    return lengthName + ", " + massName + ", " + velocityName + "; time unit " + timeName() + " (G = " + gravity + ")";
}

UnitSystem nbodyUnits() {
    return UnitSystem{};
}

UnitSystem unitSystemFromCgs(double lengthInCm, double massInGrams, double velocityInCmPerSecond) {
    if (!(lengthInCm > 0) || !(massInGrams > 0) || !(velocityInCmPerSecond > 0) || !std::isfinite(lengthInCm) ||
        !std::isfinite(massInGrams) || !std::isfinite(velocityInCmPerSecond))
        return nbodyUnits();
    return UnitSystem{lengthInCm,
                      massInGrams,
                      velocityInCmPerSecond,
                      gravlab::lengthName(lengthInCm),
                      gravlab::massName(massInGrams),
                      gravlab::velocityName(velocityInCmPerSecond)};
}

UnitSystem gadgetDefaultUnits() {
    return unitSystemFromCgs(1e3 * kParsecInCm, 1e10 * kSolarMassInGrams, 1e5);
}

} // namespace gravlab
