// The CUDA implementations of the direct-sum solvers: the tiled sum and the pair-once sum (DeviceForces.hpp).
#include "direct/cuda/DeviceForces.hpp"
#include "solvers/cuda/CudaForceSolver.hpp"

#include <memory>

namespace gravlab {
namespace {

using DirectLaunch = void (*)(const float4*, float4*, std::size_t, const GravityParams&, const CoincidenceOutput&,
                              cudaStream_t);

/// Both direct solvers are one launch timed as phase 0, "force"; with softening 0 they report coincident pairs. A
/// partial evaluation is the tiled sum over the listed targets for both: the pair-once sum saves half the pairs only
/// when every body is a target.
class DirectCudaSolver final : public CudaForceSolver {
public:
    explicit DirectCudaSolver(DirectLaunch launch) : m_launch(launch) {}
    unsigned computeAccelerations(DeviceBodies& bodies, DeviceBuffer<float4>&, const ForceParams& params,
                                  cudaStream_t stream, PhaseTimeline& timeline) override {
        m_launch(bodies.positionMass.data(), bodies.acceleration.data(), bodies.size(), params.gravity,
                 coincidenceOutput(bodies, params, stream), stream);
        timeline.mark(0, stream);
        return 0;
    }
    unsigned computeAccelerationsOf(DeviceBodies& bodies, DeviceBuffer<float4>&, const ForceParams& params,
                                    const DeviceTargets& targets, cudaStream_t stream,
                                    PhaseTimeline& timeline) override {
        launchDirectForcesOf(bodies.positionMass.data(), bodies.acceleration.data(), bodies.size(), targets.index,
                             targets.count, params.gravity, coincidenceOutput(bodies, params, stream), stream);
        timeline.mark(0, stream);
        return 0;
    }
    std::optional<CoincidenceRecord> takeCoincidentPair(cudaStream_t stream) override {
        return m_coincidence.take(stream);
    }
    std::uint64_t allocatedBytes() const override { return m_coincidence.allocatedBytes(); }

private:
    /// Where the kernels record a coincident pair: armed for softening 0 only.
    CoincidenceOutput coincidenceOutput(const DeviceBodies& bodies, const ForceParams& params, cudaStream_t stream) {
        return params.gravity.softeningLength == 0.0 ? m_coincidence.arm(bodies.loadOrder.data(), stream)
                                                     : CoincidenceOutput{};
    }

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
