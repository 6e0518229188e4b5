// GL resources in a real (headless) context: the particle buffer holds exactly what was uploaded (directly or
// through BodyVertexFeed) and grows with a new generation, shader errors name their file and carry the driver's log,
// bad target sizes are refused, and the brightness scaling keeps a cloud's total light the same from 1k to 64k bodies.
#include "RenderTestSupport.hpp"

#include <gravlab/render/BodyVertexFeed.hpp>
#include <gravlab/render/OffscreenTarget.hpp>
#include <gravlab/render/SceneRenderer.hpp>
#include <gravlab/render/ShaderProgram.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

namespace gravlab::test {
namespace {

using GlResources = HeadlessGlTest;

TEST_F(GlResources, ParticleBufferHoldsTheUploadedVerticesAndGrowsIntoANewGeneration) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> value(-10.0f, 10.0f);
    ParticleRenderer renderer(4);
    const std::uint64_t firstGeneration = renderer.storageGeneration();
    EXPECT_EQ(renderer.capacity(), 4u);
    ASSERT_NE(renderer.vertexBuffer(), 0u);

    std::vector<RenderVertex> vertices(1000);
    for (RenderVertex& v : vertices)
        v = {value(random), value(random), value(random), value(random)};
    renderer.upload(vertices);

    EXPECT_GE(renderer.capacity(), vertices.size());
    EXPECT_EQ(renderer.vertexCount(), vertices.size());
    EXPECT_GT(renderer.storageGeneration(), firstGeneration);
    std::vector<RenderVertex> readBack(vertices.size());
    glGetNamedBufferSubData(renderer.vertexBuffer(), 0, GLsizeiptr(readBack.size() * sizeof(RenderVertex)),
                            readBack.data());
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        ASSERT_EQ(readBack[i].x, vertices[i].x) << "vertex " << i;
        ASSERT_EQ(readBack[i].y, vertices[i].y) << "vertex " << i;
        ASSERT_EQ(readBack[i].z, vertices[i].z) << "vertex " << i;
        ASSERT_EQ(readBack[i].colorScalar, vertices[i].colorScalar) << "vertex " << i;
    }
    EXPECT_THROW(renderer.setVertexCount(renderer.capacity() + 1), std::out_of_range);
}

/// A visual source that holds fixed vertices: what a real backend's writeVertices would produce.
class FixedVertices final : public InertVisuals {
public:
    explicit FixedVertices(std::vector<RenderVertex> vertices) : m_vertices(std::move(vertices)) {}
    std::size_t vertexCount() const override { return m_vertices.size(); }
    void writeVertices(std::span<RenderVertex> out) const override {
        std::copy_n(m_vertices.begin(), out.size(), out.begin());
    }

private:
    std::vector<RenderVertex> m_vertices;
};

TEST_F(GlResources, BodyVertexFeedCopiesTheBackendsVerticesIntoTheBuffer) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> value(-5.0f, 5.0f);
    std::vector<RenderVertex> vertices(std::uniform_int_distribution<std::size_t>(1, 5000)(random));
    for (RenderVertex& v : vertices)
        v = {value(random), value(random), value(random), value(random)};
    const FixedVertices source(vertices);
    ParticleRenderer renderer(1);
    std::ostringstream log;
    BodyVertexFeed feed(log);

    feed.update(source, renderer);

    ASSERT_EQ(renderer.vertexCount(), vertices.size());
    EXPECT_EQ(feed.path(), "host copy");
    EXPECT_TRUE(log.str().empty()) << log.str();
    const std::span<const RenderVertex> onHost = feed.copyToHost(source);
    ASSERT_EQ(onHost.size(), vertices.size());
    std::vector<RenderVertex> readBack(vertices.size());
    glGetNamedBufferSubData(renderer.vertexBuffer(), 0, GLsizeiptr(readBack.size() * sizeof(RenderVertex)),
                            readBack.data());
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        ASSERT_EQ(readBack[i].x, vertices[i].x) << "vertex " << i;
        ASSERT_EQ(readBack[i].colorScalar, vertices[i].colorScalar) << "vertex " << i;
        ASSERT_EQ(onHost[i].z, vertices[i].z) << "vertex " << i;
    }
}

TEST_F(GlResources, ShaderCompileErrorNamesTheFileAndQuotesTheDriverLog) {
    const std::string_view broken = "#version 450 core\nout vec4 c;\nvoid main() { c = undeclaredThing; }\n";
    try {
        ShaderProgram program("broken", {{"broken.frag", GL_FRAGMENT_SHADER, broken}});
        FAIL() << "a shader using an undeclared name compiled";
    } catch (const ShaderBuildError& error) {
        const std::string what = error.what();
        EXPECT_NE(what.find("broken.frag"), std::string::npos) << what;
        EXPECT_NE(what.find("undeclaredThing"), std::string::npos) << what;
    }
}

TEST_F(GlResources, OffscreenTargetRefusesImpossibleSizes) {
    EXPECT_THROW(OffscreenTarget(0, 10), std::invalid_argument);
    EXPECT_THROW(OffscreenTarget(10, -1), std::invalid_argument);
    EXPECT_THROW(OffscreenTarget(1 << 20, 10), std::invalid_argument);
}

/// Total light in the image, recovered by inverting the documented display mapping v = (1 - exp(-exposure L))^(1/2.2)
/// per channel.
double totalLight(const ImageRgba8& image, float exposure) {
    double sum = 0.0;
    for (std::size_t i = 0; i < image.pixels.size(); ++i) {
        if (i % 4 == 3)
            continue; // alpha
        const double mapped = std::pow(image.pixels[i] / 255.0, 2.2);
        sum += -std::log(std::max(1.0 - mapped, 1e-6)) / exposure;
    }
    return sum;
}

TEST_F(GlResources, BrightnessScalingKeepsACloudsTotalLightFrom1kTo64kBodies) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    std::normal_distribution<float> gaussian(0.0f, 1.0f);
    const int width = 320, height = 240;
    // A low exposure keeps every pixel far from saturation, so the inversion below loses nothing.
    const float exposure = 0.05f;
    const OffscreenTarget target(width, height);
    SceneRenderer renderer;
    std::vector<double> totals;
    for (const std::size_t count : {std::size_t{1} << 10, std::size_t{1} << 16}) {
        std::vector<RenderVertex> cloud(count);
        for (RenderVertex& v : cloud)
            v = {gaussian(random), gaussian(random), 0.3f * gaussian(random), 0.5f};
        renderer.particles().upload(cloud);
        const SceneBounds bounds = robustBounds(cloud);
        OrbitCamera camera;
        camera.fit(bounds, float(width) / float(height));
        FrameLook look;
        look.particles = particleStyleFor(count, bounds.radius);
        look.exposure = exposure;
        renderer.render(camera, look, {target.framebuffer(), width, height});
        totals.push_back(totalLight(target.readPixels(), exposure));
    }
    // Each sprite adds brightness x its pixel area ~ N^-1/3 x N^-2/3 = 1/N (sprites below the minimum size are
    // dimmed by the area ratio, which keeps that product), so N bodies add the same total at 1k and at 64k. Averaged
    // over sub-pixel positions the rasterised sprite sums to its continuous integral; what is left is 8-bit rounding
    // and where 1k sprites happen to fall relative to pixel centres: well under 1% in practice, so 5% holds with room.
    // Unscaled brightness would give 64x, a brightness missing the area factor 4x.
    ASSERT_GT(totals[0], 0.0) << "the 1k cloud is black";
    EXPECT_NEAR(totals[1] / totals[0], 1.0, 0.05);
}

} // namespace
} // namespace gravlab::test
