// The CUDA particle splat draws the picture the GL point sprites draw: the same bodies, camera and style rendered
// both ways on one headless EGL context on the GPU, compared pixel by pixel.
#include "GpuTestSupport.hpp"
#include "device/cuda/CudaBackend.hpp"

#include <gravlab/render/BodyVertexFeed.hpp>
#include <gravlab/render/HeadlessContext.hpp>
#include <gravlab/render/OffscreenTarget.hpp>
#include <gravlab/render/SceneBounds.hpp>
#include <gravlab/render/SceneRenderer.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace gravlab::gputest {
namespace {

struct ImageDifference {
    double meanAbsolute = 0; ///< per channel, in [0, 255]
    double litPixelsA = 0;   ///< pixels with any channel above 8
    double litPixelsB = 0;
    double sumA = 0; ///< sum over all channels
    double sumB = 0;
};

ImageDifference compare(const ImageRgba8& a, const ImageRgba8& b) {
    ImageDifference difference;
    for (std::size_t p = 0; p < a.pixels.size(); p += 4) {
        bool litA = false, litB = false;
        for (std::size_t c = 0; c < 3; ++c) {
            const int va = a.pixels[p + c], vb = b.pixels[p + c];
            difference.meanAbsolute += std::abs(va - vb);
            difference.sumA += va;
            difference.sumB += vb;
            litA = litA || va > 8;
            litB = litB || vb > 8;
        }
        difference.litPixelsA += litA;
        difference.litPixelsB += litB;
    }
    difference.meanAbsolute /= double(a.pixels.size() / 4 * 3);
    return difference;
}

// 100k bodies of the default scene seen by a fitted camera, drawn as GL point sprites from a host upload and by the
// CUDA splat from the interop buffer: the tone-mapped images must agree to within rounding of the summation order and
// of GL's point rasterization (sizes rounded, edge pixels): a mean difference under 1.5 of 255, the total light and
// the lit area within 3%.
TEST_F(CudaDeviceTest, SplattedParticlesMatchGlPointSprites) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    HeadlessContext context;
    if (context.cudaDeviceOrdinal() < 0)
        GTEST_SKIP() << "the EGL context is not on a CUDA device: " << context.description();
    CUDA_CHECK(cudaSetDevice(context.cudaDeviceOrdinal()));

    CudaBackend gpu;
    gpu.load(generateScenario("galaxy-collision", 100'003, seed));
    gpu.step(SimParams{}, 1);
    const VisualSource& visuals = gpu.visuals();

    constexpr int kWidth = 640, kHeight = 360;
    OffscreenTarget target(kWidth, kHeight);
    SceneRenderer scene;
    std::ostringstream log;
    BodyVertexFeed feed(log);
    const std::span<const RenderVertex> host = feed.copyToHost(visuals);
    const SceneBounds bounds = robustBounds(host);
    OrbitCamera camera;
    camera.fit(bounds, float(kWidth) / float(kHeight));
    FrameLook look;
    look.particles = particleStyleFor(host.size(), bounds.radius);
    const RenderTarget frame{target.framebuffer(), kWidth, kHeight};

    scene.particles().upload(host);
    scene.render(camera, look, frame);
    const ImageRgba8 points = target.readPixels();

    feed.update(visuals, scene.particles());
    DeviceParticleLight* splatter = feed.deviceLight();
    ASSERT_NE(splatter, nullptr) << feed.path();
    scene.render(camera, look, frame, splatter);
    const ImageRgba8 splatted = target.readPixels();

    const ImageDifference difference = compare(points, splatted);
    EXPECT_GT(difference.litPixelsA, 0.02 * kWidth * kHeight) << "the scene should fill part of the frame";
    EXPECT_LT(difference.meanAbsolute, 1.5);
    EXPECT_NEAR(difference.sumB / difference.sumA, 1.0, 0.03);
    EXPECT_NEAR(difference.litPixelsB / difference.litPixelsA, 1.0, 0.03);
}

} // namespace
} // namespace gravlab::gputest
