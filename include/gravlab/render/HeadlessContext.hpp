#pragma once
// An OpenGL 4.5 core context without any window system, created with EGL directly.
//
// Design note: GLFW is deliberately not involved: on GPU servers a GLFW/X11 context could not share buffers with
// CUDA, while an EGL context on the NVIDIA EGL device can. Displays are tried in this order, and the first one that
// yields a current 4.5 core context wins:
//   1. every EGL device (EGL_EXT_device_enumeration + EGL_EXT_platform_device), hardware devices before Mesa's
//      software device, so an NVIDIA GPU is preferred when present;
//   2. Mesa's surfaceless platform (EGL_MESA_platform_surfaceless), which needs no X server;
//   3. the default display.
// The context is made current without a surface when EGL_KHR_surfaceless_context is available, otherwise with a
// 1x1 pbuffer; either way rendering goes into a framebuffer object (OffscreenTarget) of the requested size. EGL types
// stay out of this header because <EGL/egl.h> can pull in X11 headers whose macros break ordinary code.
#include <memory>
#include <stdexcept>
#include <string>

namespace gravlab {

/// An EGL failure; what() names the call and the EGL error code in words.
class EglError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class HeadlessContext {
public:
    /// Creates and makes current a 4.5 core context; throws EglError listing why every display failed.
    HeadlessContext();
    ~HeadlessContext();
    HeadlessContext(const HeadlessContext&) = delete;
    HeadlessContext& operator=(const HeadlessContext&) = delete;

    /// Which display was used and the GL renderer, e.g. "EGL device 0 (software), llvmpipe ..., OpenGL 4.5 ...".
    const std::string& description() const { return m_description; }
    /// CUDA ordinal of the EGL device behind this context (EGL_NV_device_cuda), or -1 when unknown; CUDA-GL interop
    /// must use this CUDA device.
    int cudaDeviceOrdinal() const { return m_cudaDeviceOrdinal; }

private:
    struct EglObjects;
    std::unique_ptr<EglObjects> m_egl;
    std::string m_description;
    int m_cudaDeviceOrdinal = -1;
};

} // namespace gravlab
