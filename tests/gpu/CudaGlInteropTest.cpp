// CUDA-GL interop on a headless EGL context: the mapped GL buffer receives exactly the device state, written through
// the backend's VisualSource as BodyVertexFeed does.
#include "CudaGlInterop.hpp"

#include "GpuTestSupport.hpp"
#include "device/cuda/CudaBackend.hpp"

#include <gravlab/render/GlObjects.hpp>
#include <gravlab/render/HeadlessContext.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <cmath>
#include <optional>

namespace gravlab::gputest {
namespace {

// The backend writes the vertices through the interop pointer; reading the GL buffer back through GL must give the
// device positions and colour keys bit for bit (a poison value fills the buffer first, so an unwritten vertex
// fails too). Needs an EGL context on an NVIDIA GPU; on Mesa's software renderer there is nothing to share and the
// test is skipped, saying so.
TEST_F(CudaDeviceTest, InteropBufferHoldsExactlyTheDevicePositions) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    HeadlessContext context;
    if (context.cudaDeviceOrdinal() < 0)
        GTEST_SKIP() << "the EGL context is not on a CUDA device: " << context.description();
    CUDA_CHECK(cudaSetDevice(context.cudaDeviceOrdinal()));

    CudaBackend gpu;
    gpu.load(generateScenario("galaxy-collision", 100'003, seed));
    SimParams params;
    gpu.step(params, 2);
    const VisualSource& visuals = gpu.visuals();
    ASSERT_TRUE(visuals.canWriteVerticesOnDevice());
    const std::size_t count = visuals.vertexCount();
    ASSERT_EQ(count, gpu.bodyCount());

    const std::vector<RenderVertex> poison(count + 5, RenderVertex{NAN, NAN, NAN, NAN});
    GlBuffer buffer = createBuffer();
    glNamedBufferData(buffer.id(), GLsizeiptr(poison.size() * sizeof(RenderVertex)), poison.data(), GL_DYNAMIC_DRAW);
    throwOnGlError("creating the vertex buffer");
    {
        std::string reason;
        std::optional<CudaGlBuffer> registered = CudaGlBuffer::tryRegister(buffer.id(), reason);
        ASSERT_TRUE(registered.has_value()) << reason;
        ScopedCudaGlMap map(*registered, visuals.deviceStream());
        ASSERT_GE(map.capacity(), count);
        visuals.writeVerticesOnDevice(map.vertices(), map.capacity(), visuals.deviceStream());
        map.unmap();
    }
    std::vector<RenderVertex> fromGl(count);
    glGetNamedBufferSubData(buffer.id(), 0, GLsizeiptr(count * sizeof(RenderVertex)), fromGl.data());
    throwOnGlError("reading the vertex buffer back");

    Bodies state;
    gpu.readBodies(state);
    for (std::size_t i = 0; i < count; ++i) {
        ASSERT_EQ(fromGl[i].x, state.x[i]) << "body " << i;
        ASSERT_EQ(fromGl[i].y, state.y[i]) << "body " << i;
        ASSERT_EQ(fromGl[i].z, state.z[i]) << "body " << i;
        ASSERT_EQ(fromGl[i].colorScalar, state.colorKey[i]) << "body " << i;
    }
}

} // namespace
} // namespace gravlab::gputest
