#pragma once
// How a solver plugs in: its SolverInfo and one factory per device it runs on (private to gravlab_sim).
//
// Design note: a solver is added by writing its implementation files, a function returning its SolverRegistration,
// and one line in SolverList.def; nothing else changes. A CUDA factory is only set in builds with the CUDA core
// (GRAVLAB_HAS_CUDA), so the registration of a CUDA-only solver lives in a plain .cpp file that every build compiles
// and names its factory only under that macro.
#include <gravlab/sim/SolverRegistry.hpp>

#include <memory>
#include <span>

namespace gravlab {

class CpuForceSolver;
class CudaForceSolver;

struct SolverRegistration {
    SolverInfo info;
    std::unique_ptr<CpuForceSolver> (*makeCpu)() = nullptr;  ///< set when info runs on the CPU
    std::unique_ptr<CudaForceSolver> (*makeCuda)() = nullptr; ///< set when info runs on CUDA and this build has it
};

/// Every registration, in SolverList.def's order.
std::span<const SolverRegistration> solverRegistrations();

/// The registration of a known solver (findSolver's name check).
const SolverRegistration& findSolverRegistration(std::string_view name);

} // namespace gravlab

/// The CUDA factory of a registration: the function in builds with the CUDA core, none otherwise (its definition is
/// then not compiled).
#if defined(GRAVLAB_HAS_CUDA)
#define GRAVLAB_CUDA_FACTORY(factory) &(factory)
#else
#define GRAVLAB_CUDA_FACTORY(factory) nullptr
#endif
