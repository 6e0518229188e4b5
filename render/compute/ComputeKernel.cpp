// Compute shaders dispatched one invocation per body (see ComputeKernel.hpp).
#include "compute/ComputeKernel.hpp"

#include <string>

namespace gravlab {

ComputeKernel::ComputeKernel(std::string_view name, std::string_view code, std::uint32_t bodiesPerInvocation)
    : m_program(std::string(name), {{name, GL_COMPUTE_SHADER, code}}),
      m_bodyCountLocation(m_program.uniformLocation("u_bodyCount")) {
    GLint groupSize[3] = {0, 0, 0};
    glGetProgramiv(m_program.id(), GL_COMPUTE_WORK_GROUP_SIZE, groupSize);
    m_bodiesPerGroup = static_cast<std::uint32_t>(groupSize[0]) * bodiesPerInvocation;
}

void ComputeKernel::dispatch(std::uint32_t bodyCount, std::uint32_t coveredBodies) const {
    if (coveredBodies == 0)
        return;
    glProgramUniform1ui(m_program.id(), m_bodyCountLocation, bodyCount);
    m_program.use();
    glDispatchCompute((coveredBodies + m_bodiesPerGroup - 1) / m_bodiesPerGroup, 1, 1);
}

} // namespace gravlab
