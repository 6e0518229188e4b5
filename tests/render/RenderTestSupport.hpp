#pragma once
// Shared helpers of the render tests: the headless context fixture, an independent projection of world points to
// pixels and of boxes to their edges, reading PNG files back with stb_image, and a backend test double that holds
// nothing.
#include <HeadlessContext.hpp>
#include <Image.hpp>
#include <OrbitCamera.hpp>
#include <SimulationBackend.hpp>
#include <TestSupport.hpp>
#include <array>
#include <cstdint>
#include <filesystem>
#include <glm/glm.hpp>
#include <gtest/gtest.h>
#include <memory>
#include <optional>
#include <vector>

namespace gravlab::test {

/// Creates a headless EGL context per test, or skips the test printing why no EGL display could be used.
class HeadlessGlTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    std::unique_ptr<HeadlessContext> m_context;
};

/// Where a world point lands in a width x height image whose first row is the top, computed directly from the
/// camera matrices (clip = P V p, NDC = clip / w, pixel centres at half-integers). Empty when behind the camera.
std::optional<glm::vec2> projectToPixel(const glm::mat4& view, const glm::mat4& projection, const glm::vec3& point,
                                        int width, int height);

struct Segment {
    glm::vec2 a, b; ///< pixels, rows from the top
};

/// The 12 edges of the axis-aligned box lower..upper projected to pixels with projectToPixel; fails the test when a
/// corner is not well inside the image (the test's set-up would be broken).
std::vector<Segment> projectedBoxEdges(const glm::vec3& lower, const glm::vec3& upper, const OrbitCamera& camera,
                                       int width, int height);

float distanceToSegment(const glm::vec2& p, const Segment& s);

/// The brightest pixel (largest of r, g, b) in the 3x3 block around pixel; its channels.
std::array<int, 3> brightestAround(const ImageRgba8& image, const glm::vec2& pixel);

struct LoadedImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgba; ///< rows top to bottom

    /// Largest of r, g, b at (x, y), in [0, 255].
    int brightness(int x, int y) const;
};

/// Reads a PNG with stb_image (independent of the code that wrote it); fails the test when it cannot.
LoadedImage loadPng(const std::filesystem::path& path);

/// A backend with no bodies and no tree; test doubles derive from it and override what their test feeds the renderer.
class InertBackend : public SimulationBackend {
public:
    std::string description() const override { return "inert (test)"; }
    void load(const Bodies&) override {}
    void step(const SimParams&, int) override {}
    void readBodies(Bodies& out) const override { out.resize(0); }
    Diagnostics diagnostics(const SimParams&) const override { return {}; }
    void readAccelerations(const SimParams&, Vec3Arrays<float>& out) override { out.resize(0); }
    void writeRenderVertices(std::span<RenderVertex>) const override {}
    std::vector<PhaseTiming> lastStepTimings() const override { return {}; }
};

} // namespace gravlab::test
