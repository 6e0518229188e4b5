#pragma once
// The time-step-level colour mode against the level histogram, shared by the CPU and GPU tests: after one base step,
// every vertex's colour scalar must be a level / maxLevel, the counts per level the histogram's, and the positions
// the bodies'.
#include <gravlab/sim/SimulationBackend.hpp>
#include <gravlab/sim/Units.hpp>

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace gravlab::test {

/// Loads start into backend, steps it once with params (hierarchical, several levels in use) in the time-step-level
/// colour mode and checks the vertices against the histogram.
inline void expectLevelColoursMatchTheHistogram(SimulationBackend& backend, const Bodies& start,
                                                const SimParams& params) {
    backend.load(start);
    backend.visuals().setColorMode(ColorMode::TimeStepLevel);
    backend.step(params, 1);
    std::vector<RenderVertex> vertices(start.size());
    backend.visuals().writeVertices(vertices);
    const std::vector<std::uint64_t> histogram = backend.timeStepStatistics().bodiesPerLevel;
    ASSERT_GE(histogram.size(), 3u) << "the test needs several levels in use";
    std::vector<std::uint64_t> drawn(params.timeSteps.maxLevel + 1, 0);
    Bodies bodies;
    backend.readBodies(bodies);
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        const double level = vertices[i].colorScalar * params.timeSteps.maxLevel;
        ASSERT_NEAR(level, std::round(level), 1e-5) << "body " << i;
        ++drawn[std::size_t(std::lround(level))];
        ASSERT_EQ(vertices[i].x, bodies.x[i]);
    }
    drawn.resize(histogram.size());
    EXPECT_EQ(drawn, histogram);
    EXPECT_EQ(backend.visuals().colorScale(nbodyUnits()).legend, ColorLegend::Scalar);
}

} // namespace gravlab::test
