// The CUDA backend's tree potentials and tree-potential diagnostics (CudaBackend.hpp).
//
// Design note: the stepping tree solver's octree is reused when it is current for params (same G, softening and
// theta, built from the present positions: every step ends with a force evaluation, and ORB reorders invalidate it)
// and its cells were sized for theta, so a measurement costs one potential walk. Otherwise (another solver, the
// relative criterion, whose cells are sized for its safety angle, theta or softening edited while paused, ORB
// re-partitioned) a separate DeviceTree is built for the measurement and kept, so measurements at the plots' cadence
// do not reallocate; load() frees it. Either way the per-body potentials stay in m_potential on the device and W is
// reduced there in fp64; only the few block partials come back.
#include "device/cuda/CudaBackend.hpp"
#include "device/cuda/DeviceDiagnostics.hpp"

#include <stdexcept>

namespace gravlab {

const float* CudaBackend::computePotentialsOnDevice(const SimParams& params) const {
    const std::size_t count = m_bodies.size();
    if (m_potential.size() != count)
        m_potential.resize(count);
    if (count == 0)
        return m_potential.data();
    const GravityParams gravity = params.gravity();
    cudaStream_t stream = m_stream.get();
    const ForceSettings settings = forceSettingsOf(params);
    if (settings.solver->usesOpeningAngle && accelerationsCurrentFor(settings) &&
        m_solver->writePotentials(m_bodies.positionMass.data(), m_bodyScratch.data(), gravity,
                                  float(params.openingAngle), m_potential.data(), stream))
        return m_potential.data();
    if (!m_potentialTree)
        m_potentialTree = std::make_unique<DeviceTree>();
    PhaseTimeline untimed(1);
    untimed.begin(stream);
    const DeviceTree::PhaseMarks marks{.box = 0, .build = 0, .sort = 0, .summary = 0, .force = 0};
    if (const unsigned nonFinite =
            m_potentialTree->build(m_bodies.positionMass.data(), unsigned(count), m_bodyScratch.data(),
                                   float(params.openingAngle), stream, untimed, marks);
        nonFinite != 0)
        throw NonFiniteStateError(m_stepsTaken, nonFinite, count, m_stepsTaken);
    m_potentialTree->writePotentials(m_bodies.positionMass.data(), m_bodyScratch.data(), gravity, m_potential.data(),
                                     stream);
    return m_potential.data();
}

void CudaBackend::readPotentials(const SimParams& params, std::vector<float>& out) {
    computePotentialsOnDevice(params);
    out.resize(m_bodies.size());
    m_potential.download(out, m_stream.get());
    m_stream.synchronize();
}

Diagnostics CudaBackend::measureDiagnostics(const SimParams& params, PotentialMethod method) {
    if (method == PotentialMethod::DirectFp64)
        return diagnostics(params);
    const float* potential = computePotentialsOnDevice(params);
    Diagnostics result =
        computeBodySumsDevice(m_bodies.positionMass.data(), m_bodies.velocityColor.data(), m_bodies.size(),
                              m_stream.get(), {m_bodies.positionLow.data(), m_bodies.velocityLow.data()});
    result.potentialEnergy =
        potentialEnergyFromDevicePotentials(m_bodies.positionMass.data(), potential, m_bodies.size(), m_stream.get());
    result.potentialMethod = PotentialMethod::Tree;
    result.potentialOpeningAngle = params.openingAngle;
    return result;
}

} // namespace gravlab
