// The CUDA implementations of the direct-sum solvers: the tiled sum and the pair-once sum (DeviceForces.hpp).
#include "direct/cuda/DeviceForces.hpp"
#include "solvers/cuda/CudaForceSolver.hpp"

#include <memory>

namespace gravlab {
namespace {

using DirectLaunch = void (*)(const float4*, float4*, std::size_t, const GravityParams&, const CoincidenceOutput&,
                              cudaStream_t);

/// Both direct solvers are one launch timed as phase 0, "force"; with softening 0 they report coincident pairs.
class DirectCudaSolver final : public CudaForceSolver {
public:
    explicit DirectCudaSolver(DirectLaunch launch) : m_launch(launch) {}
    unsigned computeAccelerations(DeviceBodies& bodies, DeviceBuffer<float4>&, const ForceParams& params,
                                  cudaStream_t stream, PhaseTimeline& timeline) override {
        const CoincidenceOutput coincidence = params.gravity.softeningLength == 0.0
                                                  ? m_coincidence.arm(bodies.loadOrder.data(), stream)
                                                  : CoincidenceOutput{};
        m_launch(bodies.positionMass.data(), bodies.acceleration.data(), bodies.size(), params.gravity, coincidence,
                 stream);
        timeline.mark(0, stream);
        return 0;
    }
    std::optional<CoincidenceRecord> takeCoincidentPair(cudaStream_t stream) override {
        return m_coincidence.take(stream);
    }
    std::uint64_t allocatedBytes() const override { return m_coincidence.allocatedBytes(); }

private:
    DirectLaunch m_launch;
    CoincidenceReport m_coincidence;
};

} // namespace

std::unique_ptr<CudaForceSolver> makeDirectCudaSolver() {
    return std::make_unique<DirectCudaSolver>(&launchDirectForces);
}

std::unique_ptr<CudaForceSolver> makeDirectSymmetricCudaSolver() {
    return std::make_unique<DirectCudaSolver>(&launchDirectSymmetricForces);
}

} // namespace gravlab
