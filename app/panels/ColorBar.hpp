#pragma once
// The legend of the body colours: a colour bar for a per-body quantity, or the component or domain colours.
//
// Design note: drawn with ImDrawList into the current ImGui window, from the ColorScale the backend reports for its
// last vertex write, so it always describes what is on screen. The gradient is a row of narrow rectangles whose
// colours come from paletteColor(), the C++ mirror of the particle shader's palette (a render test keeps the two
// equal), so the bar shows exactly the colours of the bodies. Ticks come from colorScaleTicks(): decades on a log
// scale, five steps on a linear one. The component legend names the components (componentName()) beside the colour
// their key has; the domain legend says that each domain has its own hue.
#include <gravlab/render/ColorPalettes.hpp>
#include <gravlab/sim/ColorScale.hpp>

namespace gravlab {

struct ColorLegendView {
    const ColorScale& scale;
    BodyPalette palette = BodyPalette::CoolWarm;
};

/// The legend into the current ImGui window.
void drawColorLegend(const ColorLegendView& view);

} // namespace gravlab
