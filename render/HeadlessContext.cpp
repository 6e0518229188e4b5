// EGL display selection and OpenGL 4.5 core context creation for headless rendering.
#include "GlLoader.hpp"

#include <gravlab/render/HeadlessContext.hpp>

// Keep X11 out: without this, eglplatform.h includes Xlib.h on Linux.
#define EGL_NO_X11
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <cstring>
#include <vector>

namespace gravlab {

namespace {

const char* eglErrorName(EGLint error) {
    switch (error) {
    case EGL_SUCCESS:
        return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED:
        return "EGL_NOT_INITIALIZED (the display could not be initialised)";
    case EGL_BAD_ACCESS:
        return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC:
        return "EGL_BAD_ALLOC (out of resources)";
    case EGL_BAD_ATTRIBUTE:
        return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG:
        return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT:
        return "EGL_BAD_CONTEXT";
    case EGL_BAD_CURRENT_SURFACE:
        return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY:
        return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH:
        return "EGL_BAD_MATCH (the driver does not offer this context version or profile)";
    case EGL_BAD_NATIVE_PIXMAP:
        return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW:
        return "EGL_BAD_NATIVE_WINDOW";
    case EGL_BAD_PARAMETER:
        return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE:
        return "EGL_BAD_SURFACE";
    case EGL_CONTEXT_LOST:
        return "EGL_CONTEXT_LOST";
    default:
        return "unknown EGL error";
    }
}

[[noreturn]] void throwEglFailure(const char* call) {
    throw EglError(std::string(call) + " failed: " + eglErrorName(eglGetError()));
}

bool hasExtension(const char* extensionList, const char* name) {
    if (extensionList == nullptr)
        return false;
    const std::size_t length = std::strlen(name);
    for (const char* at = std::strstr(extensionList, name); at != nullptr; at = std::strstr(at + length, name)) {
        const bool startsWord = at == extensionList || at[-1] == ' ';
        const bool endsWord = at[length] == ' ' || at[length] == '\0';
        if (startsWord && endsWord)
            return true;
    }
    return false;
}

template <typename Function> Function eglFunction(const char* name) {
    return reinterpret_cast<Function>(eglGetProcAddress(name));
}

GLADapiproc eglLoader(const char* name) {
    return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name));
}

/// A display to try, with a label for messages and the CUDA ordinal of its device when it has one.
struct DisplayCandidate {
    std::string label;
    EGLDisplay display = EGL_NO_DISPLAY;
    int cudaDeviceOrdinal = -1;
    bool isSoftware = false;
};

DisplayCandidate describeDevice(EGLDeviceEXT device, int index, PFNEGLGETPLATFORMDISPLAYEXTPROC getPlatformDisplay) {
    const auto queryString = eglFunction<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
    const auto queryAttribute = eglFunction<PFNEGLQUERYDEVICEATTRIBEXTPROC>("eglQueryDeviceAttribEXT");
    const char* deviceExtensions = queryString != nullptr ? queryString(device, EGL_EXTENSIONS) : nullptr;

    DisplayCandidate candidate;
    candidate.label = "EGL device " + std::to_string(index);
    candidate.isSoftware = hasExtension(deviceExtensions, "EGL_MESA_device_software");
    if (candidate.isSoftware)
        candidate.label += " (software)";
    if (hasExtension(deviceExtensions, "EGL_EXT_device_drm")) {
        if (const char* file = queryString(device, EGL_DRM_DEVICE_FILE_EXT))
            candidate.label += std::string(" (") + file + ")";
    }
    EGLAttrib cudaDevice = -1;
    if (hasExtension(deviceExtensions, "EGL_NV_device_cuda") && queryAttribute != nullptr &&
        queryAttribute(device, EGL_CUDA_DEVICE_NV, &cudaDevice) == EGL_TRUE) {
        candidate.cudaDeviceOrdinal = static_cast<int>(cudaDevice);
        candidate.label += " (CUDA device " + std::to_string(cudaDevice) + ")";
    }
    candidate.display = getPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, device, nullptr);
    return candidate;
}

/// Every display worth trying, in order of preference (see the design note in the header).
std::vector<DisplayCandidate> listDisplayCandidates() {
    const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    const auto getPlatformDisplay = eglFunction<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
    const auto queryDevices = eglFunction<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");

    std::vector<DisplayCandidate> hardware, software;
    if (getPlatformDisplay != nullptr && queryDevices != nullptr &&
        hasExtension(clientExtensions, "EGL_EXT_platform_device")) {
        EGLint deviceCount = 0;
        std::vector<EGLDeviceEXT> devices(16);
        if (queryDevices(static_cast<EGLint>(devices.size()), devices.data(), &deviceCount) == EGL_TRUE) {
            for (EGLint i = 0; i < deviceCount; ++i) {
                DisplayCandidate candidate =
                    describeDevice(devices[static_cast<std::size_t>(i)], i, getPlatformDisplay);
                (candidate.isSoftware ? software : hardware).push_back(std::move(candidate));
            }
        }
    }
    std::vector<DisplayCandidate> candidates = std::move(hardware);
    for (DisplayCandidate& candidate : software)
        candidates.push_back(std::move(candidate));
    if (getPlatformDisplay != nullptr && hasExtension(clientExtensions, "EGL_MESA_platform_surfaceless"))
        candidates.push_back({"Mesa surfaceless platform",
                              getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr), -1,
                              false});
    candidates.push_back({"default EGL display", eglGetDisplay(EGL_DEFAULT_DISPLAY), -1, false});
    return candidates;
}

} // namespace

struct HeadlessContext::EglObjects {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
    EGLSurface surface = EGL_NO_SURFACE; ///< 1x1 pbuffer, only without EGL_KHR_surfaceless_context

    ~EglObjects() {
        if (display == EGL_NO_DISPLAY)
            return;
        eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (context != EGL_NO_CONTEXT)
            eglDestroyContext(display, context);
        if (surface != EGL_NO_SURFACE)
            eglDestroySurface(display, surface);
        eglTerminate(display);
        eglReleaseThread();
    }

    /// Makes a 4.5 core context current on display; throws EglError naming the failing call.
    void createOn(EGLDisplay candidateDisplay) {
        if (candidateDisplay == EGL_NO_DISPLAY)
            throwEglFailure("eglGetPlatformDisplay");
        EGLint major = 0, minor = 0;
        if (eglInitialize(candidateDisplay, &major, &minor) != EGL_TRUE)
            throwEglFailure("eglInitialize");
        display = candidateDisplay;
        if (eglBindAPI(EGL_OPENGL_API) != EGL_TRUE)
            throwEglFailure("eglBindAPI(EGL_OPENGL_API)");

        const bool surfaceless = hasExtension(eglQueryString(display, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context");
        const EGLint configAttributes[] = {EGL_SURFACE_TYPE, surfaceless ? 0 : EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                           EGL_OPENGL_BIT, EGL_NONE};
        EGLConfig config = nullptr;
        EGLint configCount = 0;
        if (eglChooseConfig(display, configAttributes, &config, 1, &configCount) != EGL_TRUE)
            throwEglFailure("eglChooseConfig");
        if (configCount == 0)
            throw EglError("eglChooseConfig found no configuration that renders with desktop OpenGL");

        const EGLint contextAttributes[] = {
            EGL_CONTEXT_MAJOR_VERSION,           4,       EGL_CONTEXT_MINOR_VERSION, 5, EGL_CONTEXT_OPENGL_PROFILE_MASK,
            EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
        context = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttributes);
        if (context == EGL_NO_CONTEXT)
            throwEglFailure("eglCreateContext (OpenGL 4.5 core)");
        if (!surfaceless) {
            const EGLint pbufferAttributes[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
            surface = eglCreatePbufferSurface(display, config, pbufferAttributes);
            if (surface == EGL_NO_SURFACE)
                throwEglFailure("eglCreatePbufferSurface");
        }
        if (eglMakeCurrent(display, surface, surface, context) != EGL_TRUE)
            throwEglFailure("eglMakeCurrent");
    }
};

HeadlessContext::HeadlessContext() {
    std::string failures;
    for (const DisplayCandidate& candidate : listDisplayCandidates()) {
        auto egl = std::make_unique<EglObjects>();
        try {
            egl->createOn(candidate.display);
            loadOpenGlFunctions(eglLoader, candidate.label);
        } catch (const std::exception& error) {
            failures += "\n  " + candidate.label + ": " + error.what();
            continue;
        }
        m_egl = std::move(egl);
        m_cudaDeviceOrdinal = candidate.cudaDeviceOrdinal;
        m_description = candidate.label + ", " + describeCurrentGlContext();
        return;
    }
    // Without a GPU driver the only EGL vendor is Mesa's, which Debian ships apart from the EGL dispatch library.
    throw EglError("could not create a headless OpenGL 4.5 core context through EGL; tried:" + failures +
                   (failures.empty() ? " no EGL display at all." : "") +
                   "\nWithout an NVIDIA driver, headless rendering needs Mesa's software OpenGL: install the Debian "
                   "packages libegl-mesa0 and libgl1-mesa-dri (scripts/setup.sh does).");
}

HeadlessContext::~HeadlessContext() = default;

} // namespace gravlab
