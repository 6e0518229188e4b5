// The direct-sum solvers' registrations and the CPU one's implementation.
//
// Design note: both compute every pair's softened force (DirectSumCpu.hpp states the sum); on the CPU the plain sum is
// the only one, since evaluating each pair once pays off only where atomics are cheap (the GPU's pair-once solver).
// Every body's work weight is N: its sum meets every body, itself included.
#include "core/Stopwatch.hpp"
#include "solvers/CpuForceSolver.hpp"
#include "solvers/SolverRegistration.hpp"

namespace gravlab {

std::unique_ptr<CudaForceSolver> makeDirectCudaSolver();
std::unique_ptr<CudaForceSolver> makeDirectSymmetricCudaSolver();

namespace {

class DirectCpuSolver final : public CpuForceSolver {
public:
    void computeAccelerations(const Bodies& bodies, const ForceParams& params, Vec3Arrays<float>& accelerations,
                              std::vector<float>& work, std::vector<PhaseTiming>& times) override {
        const Stopwatch force;
        computeAccelerationsCpu(bodies, params.gravity, accelerations);
        work.assign(bodies.size(), float(bodies.size()));
        addPhaseTime(times, "force", force.elapsedMilliseconds());
    }
    void computeAccelerationsOf(const Bodies& bodies, const ForceParams& params, std::span<const std::uint32_t> targets,
                                Vec3Arrays<float>& accelerations, std::vector<float>& work,
                                std::vector<PhaseTiming>& times) override {
        const Stopwatch force;
        computeAccelerationsCpu(bodies, params.gravity, targets, accelerations);
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
             .cudaPhases = {"force"}},
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
