// Names, units and defaults of the per-body colour quantities (ColorScale.hpp).
#include <gravlab/sim/ColorScale.hpp>

#include <cmath>
#include <cstdio>

namespace gravlab {

bool isScalarColorMode(ColorMode mode) {
    switch (mode) {
    case ColorMode::Speed:
    case ColorMode::Acceleration:
    case ColorMode::Density:
    case ColorMode::Potential:
    case ColorMode::ForceError:
        return true;
    case ColorMode::Component:
    case ColorMode::LeafDepth:
    case ColorMode::OrbDomain:
    case ColorMode::TimeStepLevel:
        return false;
    }
    return false;
}

bool logarithmicByDefault(ColorMode mode) {
    // Densities of a galaxy span many decades, |a| grows as 1/r^2 towards every clump, and tree errors range from
    // 1e-6 deep inside to 1e-2 at cell edges: a linear map would paint nearly every body the lowest colour.
    return mode == ColorMode::Density || mode == ColorMode::Acceleration || mode == ColorMode::ForceError;
}

bool usesLogarithmicScale(ColorMode mode, ColorScaleChoice choice) {
    return choice == ColorScaleChoice::Auto ? logarithmicByDefault(mode) : choice == ColorScaleChoice::Logarithmic;
}

std::string colorQuantityName(ColorMode mode) {
    switch (mode) {
    case ColorMode::Speed:
        return "speed |v|";
    case ColorMode::Acceleration:
        return "acceleration |a|";
    case ColorMode::Density:
        return "density";
    case ColorMode::Potential:
        return "potential";
    case ColorMode::ForceError:
        return "tree force error |a_tree - a_direct| / |a_direct|";
    case ColorMode::LeafDepth:
        return "octree leaf depth";
    case ColorMode::TimeStepLevel:
        return "time-step level (step dt / 2^level)";
    case ColorMode::Component:
    case ColorMode::OrbDomain:
        return "";
    }
    return "";
}

std::string colorUnitName(ColorMode mode, const UnitSystem& units) {
    // Built by append: GCC 12's -Wrestrict misreads chains of operator+ on temporaries.
    std::string unit = units.physical() ? units.velocityName : std::string("velocity unit");
    switch (mode) {
    case ColorMode::Speed:
        return unit;
    case ColorMode::Acceleration:
        unit.append(" per ").append(units.physical() ? units.timeName() : std::string("time unit"));
        return unit;
    case ColorMode::Density:
        unit = units.massName;
        unit.append(" / ").append(units.lengthName).append("^3");
        return unit;
    case ColorMode::Potential: {
        std::string squared = "(";
        squared.append(unit).append(")^2");
        return squared;
    }
    case ColorMode::ForceError:
    case ColorMode::LeafDepth:
    case ColorMode::TimeStepLevel:
    case ColorMode::Component:
    case ColorMode::OrbDomain:
        return "";
    }
    return "";
}

std::vector<ColorTick> colorScaleTicks(const ColorScale& scale) {
    std::vector<ColorTick> ticks;
    const auto at = [&](double value) {
        ticks.push_back(
            {mapToColorScalar(float(value), float(scale.low), float(scale.high), scale.logarithmic), value});
    };
    if (scale.logarithmic && scale.low > 0 && scale.high > scale.low) {
        for (double exponent = std::ceil(std::log10(scale.low)); exponent <= std::floor(std::log10(scale.high));
             exponent += 1.0)
            at(std::pow(10.0, exponent));
        if (ticks.size() < 2) {
            ticks.clear();
            at(scale.low);
            at(scale.high);
        }
        return ticks;
    }
    constexpr int kLinearTicks = 5;
    for (int k = 0; k < kLinearTicks; ++k)
        at(scale.low + (scale.high - scale.low) * k / (kLinearTicks - 1));
    return ticks;
}

std::string describeColorScale(const ColorScale& scale) {
    std::string line = "colour: ";
    if (scale.legend == ColorLegend::Scalar) {
        char range[96];
        std::snprintf(range, sizeof(range), " %.4g .. %.4g", scale.low, scale.high);
        line += scale.quantity + range + (scale.unit.empty() ? "" : " " + scale.unit) +
                (scale.logarithmic ? " (log" : " (linear");
        line += scale.note.empty() ? ")" : "; " + scale.note + ")";
        return line;
    }
    line += scale.legend == ColorLegend::Domains ? "ORB domains" : "components";
    return scale.note.empty() ? line : line + " (" + scale.note + ")";
}

} // namespace gravlab
