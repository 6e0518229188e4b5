#pragma once
// The comparison run drawn beside the main run: left half the main run, right half the comparison, one camera.
//
// Design note: the comparison owns a second FramePipeline (its own vertex buffer, overlay feeds and HDR light buffer)
// rather than teaching the one pipeline to hold two simulations: a pipeline is one simulation's picture, and two of
// them stay independent (the comparison's ORB domains, octree and colour scalars are its own), while the window and
// headless loops change by a few lines. Both pictures draw into halves of one target through RenderTarget's offset,
// so the tone mapping, the overlays and the recorder need no second code path. A frame in compare mode: the main
// session's advanceFrame() -> ComparisonView::follow() (the comparison steps to the main run's step count and samples,
// Comparison.hpp; its vertices are refreshed and its overlays marked stale when it stepped) -> both pipelines'
// updateOverlays() -> render() of each into its half. The particle style of the comparison's picture is fitted once
// to its bodies at start, which are the main run's, so both halves show the same sizes.
#include "FramePipeline.hpp"
#include "session/Comparison.hpp"

#include <array>
#include <iosfwd>
#include <string>

namespace gravlab {

/// The left and right halves of whole (the right one takes the odd pixel).
std::array<RenderTarget, 2> sideBySide(const RenderTarget& whole);

/// "tree, theta 0.7, dt 0.005" or "direct, dt 0.005": what a half's label says about a run.
std::string runLabel(const SimParams& params);

class ComparisonView {
public:
    /// Starts the comparison run from main's current state (Comparison's refusals apply); a GL context must be
    /// current. The memory check counts the second picture's buffers (renderMemory()).
    ComparisonView(const Simulation& main, const ComparisonChoice& choice, ComparisonCadence cadence,
                   ColorMode colorMode, std::ostream& log);

    /// After the main session's frame: steps the comparison to main's step count in colorMode, samples when due.
    void follow(const Simulation& main, ColorMode colorMode);
    /// Starts again from main's current state.
    void restart(const Simulation& main);
    /// Brings the comparison's overlays up to date for view (its own octree and domains) and draws it into target.
    void draw(const OrbitCamera& camera, const RenderTarget& target, const OverlayView& view);

    const Comparison& comparison() const { return m_comparison; }
    Comparison& comparison() { return m_comparison; }

private:
    void refreshPicture();
    void fitLook();

    Comparison m_comparison;
    FramePipeline m_pipeline;
};

} // namespace gravlab
