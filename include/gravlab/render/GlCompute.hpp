#pragma once
// The OpenGL compute backend as the app sees it: whether the current context can run it, and its factory.
//
// Design note: the GL backend (render/compute/GlComputeBackend.hpp) keeps the bodies in shader storage buffers of the
// context that is current when it is created, and every call on it must come from the thread where that context is
// current; it never creates or switches contexts itself. So the app creates the context first (HeadlessContext for
// bench and headless runs), asks queryGlComputeSupport() what the driver offers, and hands Simulation a factory that
// calls createGlComputeBackend(). Only this header is public: app/ names no GL type of the backend.
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace gravlab {

/// The current context cannot run the GL backend (no GL 4.5, no compute shaders, a shader the driver rejects, too
/// many bodies for a storage buffer, no memory); what() names what is missing and the backend to use instead.
class GlComputeUnavailableError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What the current GL context offers the compute backend.
struct GlComputeSupport {
    std::string renderer;          ///< GL_RENDERER, e.g. "AMD Radeon 780M (radeonsi, ...)" or "llvmpipe (LLVM 15...)"
    std::string vendor;            ///< GL_VENDOR
    std::string version;           ///< GL_VERSION
    bool softwareRenderer = false; ///< Mesa's llvmpipe, softpipe or swrast: slower than the CPU backend
    /// Why the backend cannot run here (what is missing), empty when it can.
    std::string missing;
    /// The most bodies the backend takes: what one storage block of 16-byte records holds
    /// (GL_MAX_SHADER_STORAGE_BLOCK_SIZE / 16) and one dispatch of 256-wide work groups covers.
    std::uint64_t maxBodies = 0;

    bool usable() const { return missing.empty(); }
    /// "renderer (vendor), OpenGL version".
    std::string description() const;
};

/// Whether an OpenGL context (EGL's headless one or a GLFW window's) is current on the calling thread.
bool glContextCurrentOnThisThread();

/// Queries the context current on this thread; never throws for a missing feature (see missing).
GlComputeSupport queryGlComputeSupport();

/// The GL backend in the current context for params (GlBackendParams.hpp states what it takes). Throws
/// GlComputeUnavailableError when the context cannot run it, InvalidParameterError when params ask for what it does
/// not do. why: a note appended to the description, e.g. why backend auto chose GL.
std::unique_ptr<SimulationBackend> createGlComputeBackend(const SimParams& params, std::string why = {});

} // namespace gravlab
