// The direct-sum solvers' registrations and the CPU one's implementation.
//
// Design note: both compute every pair's softened force (DirectSumCpu.hpp states the sum); on the CPU the plain sum is
// the only one, since evaluating each pair once pays off only where atomics are cheap (the GPU's pair-once solver).
// Every body's work weight is N: its sum meets every body, itself included. With zero softening a coincident pair
// throws CoincidentBodiesError (CoincidentBodies.hpp), which the backend turns into a rolled-back step.
#include "core/Stopwatch.hpp"
#include "solvers/CpuForceSolver.hpp"
#include "solvers/SolverRegistration.hpp"

#include <gravlab/sim/CoincidentBodies.hpp>

namespace gravlab {

std::unique_ptr<CudaForceSolver> makeDirectCudaSolver();
std::unique_ptr<CudaForceSolver> makeDirectSymmetricCudaSolver();

namespace {

/// Names body index and its partner at r = 0; the backend rolls the step back and says which step it restored.
[[noreturn]] void throwCoincidentPair(const Bodies& bodies, std::size_t index) {
    const std::size_t partner = nearestOtherBody(bodies.x, bodies.y, bodies.z, index);
    throw CoincidentBodiesError(
        {bodies.id[index], bodies.id[partner], {bodies.x[index], bodies.y[index], bodies.z[index]}}, 0);
}

class DirectCpuSolver final : public CpuForceSolver {
public:
    void computeAccelerations(const Bodies& bodies, const ForceParams& params, Vec3Arrays<float>& accelerations,
                              std::vector<float>& work, std::vector<PhaseTiming>& times) override {
        const Stopwatch force;
        if (const std::optional<std::size_t> coincident =
                computeAccelerationsCpu(bodies, params.gravity, accelerations))
            throwCoincidentPair(bodies, *coincident);
        work.assign(bodies.size(), float(bodies.size()));
        addPhaseTime(times, "force", force.elapsedMilliseconds());
    }
    void computeAccelerationsOf(const Bodies& bodies, const ForceParams& params, std::span<const std::uint32_t> targets,
                                Vec3Arrays<float>& accelerations, std::vector<float>& work,
                                std::vector<PhaseTiming>& times) override {
        const Stopwatch force;
        if (const std::optional<std::size_t> coincident =
                computeAccelerationsCpu(bodies, params.gravity, targets, accelerations))
            throwCoincidentPair(bodies, *coincident);
        for (const std::uint32_t target : targets)
            work[target] = float(bodies.size());
        addPhaseTime(times, "force", force.elapsedMilliseconds());
    }
};

std::unique_ptr<CpuForceSolver> makeDirectCpuSolver() {
    return std::make_unique<DirectCpuSolver>();
}

} // namespace

SolverRegistration directSolverRegistration() {
    return {{.name = "direct",
             .description = "all pairs, O(N^2): exact up to float rounding",
             .allPairs = true,
             .cpuPhases = {"force"},
             .cudaPhases = {"force"},
             .glPhases = {"force"}},
            &makeDirectCpuSolver,
            GRAVLAB_CUDA_FACTORY(makeDirectCudaSolver)};
}

SolverRegistration directSymmetricSolverRegistration() {
    return {{.name = "direct-symmetric",
             .description = "all pairs, each pair evaluated once and applied to both bodies",
             .allPairs = true,
             .cudaPhases = {"force"}},
            nullptr,
            GRAVLAB_CUDA_FACTORY(makeDirectSymmetricCudaSolver)};
}

} // namespace gravlab
