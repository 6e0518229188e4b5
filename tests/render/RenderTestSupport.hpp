#pragma once
// Shared helpers of the render tests: the headless context fixture, an independent projection of world points to
// pixels and of boxes to their edges, reading PNG files back with stb_image, and a visual source test double that
// holds nothing.
#include <gravlab/render/HeadlessContext.hpp>
#include <gravlab/render/Image.hpp>
#include <gravlab/render/OrbitCamera.hpp>
#include <gravlab/sim/VisualSource.hpp>

#include <TestSupport.hpp>
#include <array>
#include <cstdint>
#include <filesystem>
#include <glm/glm.hpp>
#include <gtest/gtest.h>
#include <memory>
#include <optional>
#include <random>
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

/// A visual source with no bodies, no tree and no ORB domains; test doubles derive from it and override what their
/// test feeds the renderer.
class InertVisuals : public VisualSource {
public:
    std::size_t vertexCount() const override { return 0; }
    void writeVertices(std::span<RenderVertex>) const override {}
    void setColorMode(ColorMode mode) override { m_colorMode = mode; }
    ColorMode colorMode() const override { return m_colorMode; }

private:
    ColorMode m_colorMode = ColorMode::Component;
};

/// A visual source whose ORB domains are a fixed list of cells; it counts how often it is asked for them.
class KnownOrbVisuals final : public InertVisuals {
public:
    explicit KnownOrbVisuals(std::vector<OrbCell> cells) : m_cells(std::move(cells)) {}
    void collectOrbCells(std::vector<OrbCell>& out) const override {
        ++collectCount;
        out = m_cells;
    }
    mutable int collectCount = 0;

private:
    std::vector<OrbCell> m_cells;
};

/// An ORB cell with the given box and tree fields (its body range is empty: the overlay draws boxes only).
inline OrbCell orbCell(const glm::vec3& lower, const glm::vec3& upper, std::int32_t leftChild, std::int32_t cutAxis,
                       std::uint32_t firstDomain, std::uint32_t domainCount) {
    return {
        {lower.x, lower.y, lower.z}, {upper.x, upper.y, upper.z}, 0, 0, leftChild, cutAxis, firstDomain, domainCount};
}

/// A camera looking at the origin from 8 units away, from a random direction: a scene within about 2 units of the
/// origin stays inside the image at a 45 degree field of view.
inline OrbitCamera randomCameraAtEightUnits(std::mt19937_64& random) {
    OrbitCamera camera;
    camera.setAngles(std::uniform_real_distribution<float>(-3.1f, 3.1f)(random),
                     std::uniform_real_distribution<float>(-1.3f, 1.3f)(random));
    camera.setDistance(8.0f);
    return camera;
}

} // namespace gravlab::test
