// Registration of the fp64 direct sum on the GPU (cuda/DirectFp64Solver.cu): CUDA only, since on the CPU the same sum
// is the test oracle (computeAccelerationsFp64), not a solver one steps with.
#include "solvers/SolverRegistration.hpp"

namespace gravlab {

std::unique_ptr<CudaForceSolver> makeDirectFp64CudaSolver();

SolverRegistration directFp64SolverRegistration() {
    return {{.name = "direct-fp64",
             .description = "all pairs in double precision, O(N^2): the reference, at fp64 speed",
             .allPairs = true,
             .cudaPhases = {"force"}},
            nullptr,
            GRAVLAB_CUDA_FACTORY(makeDirectFp64CudaSolver)};
}

} // namespace gravlab
