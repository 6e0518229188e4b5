#pragma once
// One compute shader of the GL backend, dispatched over the bodies.
//
// Design note: every shader under shaders/compute/ runs one invocation per body in 1-D work groups and reads the body
// count from u_bodyCount, so one helper sizes every dispatch (tiny-cuda-nn's linear_kernel idea): the group size is
// read back from the linked program (GL_COMPUTE_WORK_GROUP_SIZE), stated once, in the shader; a shader whose
// invocations handle several bodies says how many when it is built. Other uniforms are
// looked up once by name (ShaderProgram throws for a misspelt one at start-up).
#include <gravlab/render/ShaderProgram.hpp>

#include <cstdint>
#include <string_view>

namespace gravlab {

class ComputeKernel {
public:
    /// Compiles and links name (e.g. "direct_forces.comp"); throws ShaderBuildError with the driver's log.
    /// bodiesPerInvocation: how many bodies one invocation handles (the direct sum's register blocking), as the shader
    /// states it.
    ComputeKernel(std::string_view name, std::string_view code, std::uint32_t bodiesPerInvocation = 1);

    GLint uniformLocation(std::string_view name) const { return m_program.uniformLocation(name); }
    void setUniform(GLint location, float value) const { m_program.setUniform(location, value); }
    void setUniform(GLint location, std::uint32_t value) const { glProgramUniform1ui(m_program.id(), location, value); }
    /// Covers bodyCount bodies (rounded up to whole work groups; the shader skips the rest) with u_bodyCount set;
    /// the storage buffers must be bound. Nothing is waited for: callers place glMemoryBarrier where a later read
    /// needs the writes.
    void dispatch(std::uint32_t bodyCount) const { dispatch(bodyCount, bodyCount); }
    /// As above, with enough work groups for coveredBodies bodies only (a part of a split dispatch; the shader reads
    /// where its part begins from a uniform of its own).
    void dispatch(std::uint32_t bodyCount, std::uint32_t coveredBodies) const;
    /// Bodies one work group covers.
    std::uint32_t bodiesPerGroup() const { return m_bodiesPerGroup; }

private:
    ShaderProgram m_program;
    GLint m_bodyCountLocation = -1;
    std::uint32_t m_bodiesPerGroup = 0;
};

} // namespace gravlab
