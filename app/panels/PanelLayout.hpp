#pragma once
// Where each panel first appears, in one table, so the window opens tidy at any size and UI scale.
//
// Design note: a dozen panels placed each by its own fixed coordinates overlapped one another and the scene (the plots
// covered the simulation panel at 1920x1080, the colour bar hid behind them). Here the simulation panel takes the top
// left, the colour legend and the plots the right-hand column (what a class looks at while it runs), and the panels one
// opens on purpose (files, octree, ORB, comparison, session) start collapsed as a column of title bars beside the
// simulation panel, so the middle of the window shows the bodies. Positions scale with the font (the UI scale) and the
// display; ImGui keeps a panel wherever the user moves it afterwards (first use only), and ImGuiLayer keeps it on
// screen.
namespace gravlab {

enum class PanelSlot { Simulation, Colours, Plots, Files, Octree, Orb, Compare, Session, Inspector, Window };

/// Sets the next ImGui window's first position, size and collapsed state for slot; call right before its Begin.
void placePanelOnFirstUse(PanelSlot slot);

} // namespace gravlab
