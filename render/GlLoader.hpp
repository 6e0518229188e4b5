#pragma once
// Loading OpenGL 4.5 core functions (glad) for the context that is current, whichever created it.
//
// Design note: the window context loads through glfwGetProcAddress, the headless one through eglGetProcAddress; both
// end here so the version check and its message live in one place. glad's function pointers are process-wide, so
// only one context family is used per process at a time (the app picks window or headless, never both).
#include <glad/gl.h>
#include <string>
#include <string_view>

namespace gravlab {

/// Loads the GL functions of the current context; throws std::runtime_error naming contextName when the context does
/// not provide OpenGL 4.5.
void loadOpenGlFunctions(GLADloadfunc loader, std::string_view contextName);

/// Renderer and version of the current context, e.g. "llvmpipe (LLVM 15.0.6, 256 bits), OpenGL 4.5 (Core Profile)".
std::string describeCurrentGlContext();

} // namespace gravlab
