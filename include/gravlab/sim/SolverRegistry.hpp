#pragma once
// The force solvers Gravlab knows, by name: what each one computes, where it runs, which parameters it reads, which
// phases it times and what it can draw.
//
// Design note: solvers are plug-ins (the idea of tiny-cuda-nn's create_encoding). Each solver registers one
// SolverInfo plus a factory per device it runs on (SolverRegistration.hpp, listed once in SolverList.def); everything
// else, the command line's choices and help, the panel's list, bench, accuracy, validation and the tests, enumerates
// solverInfos() or asks findSolver(name) instead of switching over kinds. The information is plain data, compiled in
// every build, so a build without CUDA still knows that a CUDA-only solver exists and can say where it runs.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gravlab {

/// Where a solver's implementation runs.
enum class Device : std::uint8_t {
    Cpu,  ///< host threads (OpenMP)
    Cuda, ///< an NVIDIA GPU through the CUDA core
    Gl,   ///< any GPU with OpenGL 4.5 compute shaders (render/compute/; the app creates it, it needs a GL context)
};
std::string_view toString(Device device);

struct SolverInfo {
    std::string_view name;         ///< as the command line spells it, e.g. "tree"
    std::string_view description;  ///< one line for help texts and tooltips
    bool usesOpeningAngle = false; ///< reads theta (SimParams::openingAngle); others ignore it
    bool drawsTreeCells = false;   ///< has octree cells and leaf depths to show; others draw nothing extra
    bool allPairs = false;         ///< evaluates every pair (N^2 interactions per step: bench reports their rate)
    /// Smallest softening length the solver takes, N-body length units: 0 for the direct sums (the exact Newtonian
    /// problem), positive for solvers whose approximations are softened; softeningNeed then says why, for messages.
    double minSoftening = 0.0;
    std::string_view softeningNeed = {};
    /// The phases a step's force evaluation is timed in, per device, in order; empty: does not run on that device.
    std::vector<std::string_view> cpuPhases = {};
    std::vector<std::string_view> cudaPhases = {};
    std::vector<std::string_view> glPhases = {};
    /// Host bytes per body the CPU implementation keeps between steps, and the most it allocates during one
    /// evaluation, beyond the accelerations and work weights every solver has (for memory checks).
    std::uint64_t cpuResidentBytesPerBody = 0;
    std::uint64_t cpuScratchBytesPerBody = 0;

    bool runsOn(Device device) const { return !phases(device).empty(); }
    std::span<const std::string_view> phases(Device device) const {
        switch (device) {
        case Device::Cpu:
            return cpuPhases;
        case Device::Cuda:
            return cudaPhases;
        case Device::Gl:
            return glPhases;
        }
        return {};
    }
    /// "cpu, cuda, gl", "cpu, cuda" or "cuda only".
    std::string devicesText() const;
};

/// Every registered solver, in the order the command line and the panel list them.
std::span<const SolverInfo> solverInfos();

/// The solver named name; throws InvalidParameterError (field "solver") listing the known names.
const SolverInfo& findSolver(std::string_view name);

/// "'direct', 'tree' or ...", for messages.
std::string solverNamesText();

/// Throws InvalidParameterError (field "solver") when the solver has no implementation for device, saying where it
/// runs and which solvers do run there; `why` says how the device was chosen (e.g. "this machine has no CUDA device").
void requireSolverRunsOn(const SolverInfo& solver, Device device, std::string_view why);

/// "'direct', 'direct-symmetric' or 'direct-fp64'": the solvers that take softening, for messages.
std::string solversTakingSofteningText(double softening);

/// The first registered solver that draws octree cells: what the overlay and leaf-depth colours need.
const SolverInfo& treeDrawingSolver();

/// "direct (all pairs...; cpu, cuda), tree (...)": every solver with its description and devices, for help texts.
std::string solversHelpText();

/// The solver the app uses on a GPU when the user names none.
inline constexpr std::string_view kDefaultGpuSolver = "tree";
/// The solver everything else defaults to: exact, and available on every device.
inline constexpr std::string_view kDefaultSolver = "direct";

} // namespace gravlab
