// The gravlab Python module: `import gravlab` with PYTHONPATH=build/python, for Debian's /usr/bin/python3.
//
// Design note: the module exposes the library as it is, through pybind11, with numpy arrays in and out:
//   gravlab.Simulation      a simulation from a scenario, arrays or a file: step, reset, state arrays, accelerations,
//                           diagnostics and energy drift, parameters (set), snapshot files, a PNG of the bodies
//   read_snapshot, write_snapshot, snapshot_formats, scenarios, solvers    files and the registries
//   Units, Diagnostics      small read-only values
//   SnapshotError, NonFiniteStateError, EglError    errors under OSError, ArithmeticError, RuntimeError
// Arrays out, "without copies where the memory layout allows": a simulation's state lives in its backend (host
// vectors on the CPU, device buffers on a GPU), so a read necessarily copies once, out of the backend into
// std::vectors. Those vectors are then not copied again: each returned numpy array owns its vector (moved onto the
// heap, freed by a py::capsule when the array dies). Positions, velocities and accelerations are (N, 3) arrays while
// Gravlab stores x, y and z apart, so they are interleaved once, into the vector the array then owns. Arrays in are
// taken in any numeric dtype and layout and converted once to C-contiguous float32 (py::array::forcecast), which is
// what the bodies are. Arrays are copies, never views of the state: the state moves (ORB reorders bodies, a GPU holds
// it) and a view would silently go stale after a step.
// The GIL is released for everything that takes time, stepping above all; each Simulation carries a lock so two
// Python threads cannot use it at once (SimulationHandle.hpp). Library errors become Python's own exceptions with the
// library's message (ErrorTranslation.cpp). Parameters are keywords checked by the library's one validation
// (ParamsKeywords.hpp). render_png draws with the headless mode's frame pipeline through EGL, one context per call.
#include "Bindings.hpp"

#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/SolverRegistry.hpp>

#include <string>

namespace gravlab::python {
namespace {

py::dict scenariosDict() {
    py::dict names;
    for (const Scenario& scenario : scenarios())
        names[py::str(std::string(scenario.name))] = py::str(std::string(scenario.description));
    return names;
}

py::dict solversDict() {
    py::dict names;
    for (const SolverInfo& solver : solverInfos()) {
        py::list devices;
        for (const Device device : {Device::Cpu, Device::Cuda})
            if (solver.runsOn(device))
                devices.append(std::string(toString(device)));
        py::dict info;
        info["description"] = std::string(solver.description);
        info["devices"] = devices;
        info["uses_theta"] = solver.usesOpeningAngle;
        names[py::str(std::string(solver.name))] = info;
    }
    return names;
}

} // namespace
} // namespace gravlab::python

PYBIND11_MODULE(gravlab, module) {
    namespace python = gravlab::python;
    module.doc() = "Gravlab's N-body simulation from Python: scenarios, numpy arrays and snapshot files in; positions, "
                   "accelerations, energies, snapshot files and PNG images out. See help(gravlab.Simulation).";
    python::registerErrors(module);
    python::bindValueTypes(module);
    python::bindSnapshotFunctions(module);
    python::bindSimulation(module);
    module.def("scenarios", &python::scenariosDict,
               "The built-in scenarios by name, each with a one-line description: the values scenario= takes.");
    module.def("solvers", &python::solversDict,
               "The force solvers by name: {'description', 'devices' ('cpu', 'cuda'), 'uses_theta'} for each; the "
               "values solver= takes.");
}
