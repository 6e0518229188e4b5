#pragma once
// The colours panel: what colours the bodies (every colour mode with its description), log or linear scale, and the
// legend of what is on screen.
//
// Design note: display and edit only, as the other panels: it shows a read-only view (the session's mode and scale,
// the ColorScale the backend reports for the last frame) and returns the choices; the viewer hands them to the
// session controller. The modes are listed from EnumNames<ColorMode>, so a new colour map appears here by its table
// entry alone. The legend is ColorBar's.
#include <gravlab/render/ColorPalettes.hpp>
#include <gravlab/sim/ColorScale.hpp>

#include <optional>

namespace gravlab {

struct ColorPanelView {
    ColorMode mode = ColorMode::Component;
    ColorScaleChoice scale = ColorScaleChoice::Auto;
    const ColorScale& legend; ///< what the colours of the last frame mean
    BodyPalette palette = BodyPalette::CoolWarm;
};

struct ColorPanelRequests {
    std::optional<ColorMode> mode;         ///< a newly chosen colour mode
    std::optional<ColorScaleChoice> scale; ///< a newly chosen scale
};

ColorPanelRequests drawColorPanel(const ColorPanelView& view);

} // namespace gravlab
