#pragma once
// What a body's colour means: the colour scale of the per-body quantities (speed, |a|, density, potential, tree-force
// error) and the legend the viewer draws beside the bodies.
//
// Design note: a backend computes one float per body for the colour mode's quantity and maps it to the vertex's colour
// scalar in [0, 1] with mapToColorScalar, over a robust range (the 1st to 99th percentile of a sample of the values,
// ScalarRange.hpp), so one escaper does not wash out the whole map. Quantities that span decades (density, |a|, the
// force error) are mapped logarithmically unless the user asks for linear; the others linearly unless asked for log.
// The mapping is GRAVLAB_HOST_DEVICE so the CPU loop and the CUDA kernel run the same arithmetic. A body without a
// value (the force error of a body outside the error sample) gets kUnsampledColorScalar, which the palettes draw as a
// dim grey. ColorScale is what the viewer's colour bar and the headless summary show: quantity, unit (named from the
// simulation's UnitSystem), range, log or linear, and a note (the sample, or why the mode fell back to the
// component colours).
#include <gravlab/sim/EnumNames.hpp>
#include <gravlab/sim/HostDevice.hpp>
#include <gravlab/sim/TreeView.hpp>
#include <gravlab/sim/Units.hpp>

#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace gravlab {

/// How a per-body quantity is mapped to colours (--color-scale).
enum class ColorScaleChoice {
    Auto,        ///< logarithmic for quantities that span decades (density, |a|, force error), linear otherwise
    Linear,      ///< linear between the range's ends
    Logarithmic, ///< log10 between the range's ends (non-positive values take the low end)
};

template <> struct EnumNames<ColorScaleChoice> {
    static constexpr std::string_view field = "color-scale";
    static constexpr std::array entries{
        EnumName<ColorScaleChoice>{ColorScaleChoice::Auto, "auto", "log for density, |a| and error, else linear"},
        EnumName<ColorScaleChoice>{ColorScaleChoice::Linear, "linear", "linear colour scale"},
        EnumName<ColorScaleChoice>{ColorScaleChoice::Logarithmic, "log", "logarithmic colour scale"}};
};

/// What the legend beside the bodies shows.
enum class ColorLegend {
    Components, ///< the scenario's components (colour keys), named by componentName()
    Domains,    ///< ORB domains, each its own hue
    Scalar,     ///< a colour bar from low to high with the quantity and its unit
};

struct ColorScale {
    ColorLegend legend = ColorLegend::Components;
    std::string quantity; ///< "speed |v|"; empty for the component and domain legends
    std::string unit;     ///< "velocity unit", "kpc"; empty where the quantity has none
    double low = 0;       ///< the value mapped to colour scalar 0
    double high = 1;      ///< the value mapped to colour scalar 1
    bool logarithmic = false;
    /// The sample the range or the error came from, or why the mode shows component colours instead.
    std::string note;
};

/// Colour scalar of a body the quantity has no value for; drawn dim grey by both palettes.
inline constexpr float kUnsampledColorScalar = -1.0f;

/// value mapped to [0, 1] between low and high, linearly or by log10, clamped at both ends; kUnsampledColorScalar for
/// NaN (no value). log: values at or below zero take 0. A range of zero width maps everything to 0.5.
GRAVLAB_HOST_DEVICE float mapToColorScalar(float value, float low, float high, bool logarithmic) {
    if (value != value)
        return kUnsampledColorScalar;
    float t = 0.5f;
    if (logarithmic) {
        if (value <= 0.0f || low <= 0.0f)
            return 0.0f;
        const float span = std::log10(high) - std::log10(low);
        if (span > 0.0f)
            t = (std::log10(value) - std::log10(low)) / span;
    } else if (high > low) {
        t = (value - low) / (high - low);
    }
    return t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
}

/// Whether mode colours by a per-body quantity through a ColorScale (speed, |a|, density, potential, force error).
bool isScalarColorMode(ColorMode mode);
/// Whether ColorScaleChoice::Auto maps mode's quantity logarithmically.
bool logarithmicByDefault(ColorMode mode);
/// Whether mode, with choice, maps logarithmically.
bool usesLogarithmicScale(ColorMode mode, ColorScaleChoice choice);
/// The quantity as the legend names it, e.g. "speed |v|", "octree leaf depth".
std::string colorQuantityName(ColorMode mode);
/// The quantity's unit in units' names: velocity, velocity/time, mass/length^3, velocity^2; "" when dimensionless.
std::string colorUnitName(ColorMode mode, const UnitSystem& units);
/// A labelled value on a colour bar.
struct ColorTick {
    float position; ///< where on the bar, 0 (low end) to 1 (high end)
    double value;
};
/// The values a colour bar of scale labels: for a log scale every power of ten inside the range (the ends too when
/// fewer than two powers fall inside), for a linear one five evenly spaced values from low to high.
std::vector<ColorTick> colorScaleTicks(const ColorScale& scale);

/// One line for the headless summary: "colour: speed |v| 0.05 .. 1.9 velocity unit (linear; note)".
std::string describeColorScale(const ColorScale& scale);

} // namespace gravlab
