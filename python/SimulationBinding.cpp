// gravlab.Simulation: a simulation made from a scenario, arrays or a file, stepped, read and drawn from Python.
//
// Design note: the class is a thin layer over the library's Simulation, held by a SimulationHandle (every call runs
// with the GIL released under the handle's lock). Parameters are keywords (ParamsKeywords.hpp) that go through
// Simulation::setParams, so Python gets the same validation and the same implications of an edit (a new scenario
// regenerates the bodies, a new dt applies from the next step) as the command line and the panel. step(n) runs in
// chunks that grow while a chunk takes under kInterruptCheckSeconds, checking for Ctrl-C between them: a long run
// can be interrupted with the steps done so far counted and the state consistent. State properties read the backend
// each time (the state lives on the device on a GPU), one copy into vectors that the returned arrays then own.
#include "Bindings.hpp"
#include "NumpyArrays.hpp"
#include "ParamsKeywords.hpp"
#include "RenderPng.hpp"
#include "SimulationHandle.hpp"
#include "SnapshotBinding.hpp"

#include <gravlab/sim/EnumNames.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <pybind11/stl/filesystem.h>
#include <string>

namespace gravlab::python {
namespace {

/// Between two checks for Ctrl-C while stepping, at most about this long passes.
constexpr double kInterruptCheckSeconds = 0.1;

/// Python's defaults differ from the app's: a small Plummer sphere, which steps in milliseconds on a CPU.
SimParams pythonDefaults() {
    SimParams params;
    params.scenario = "plummer";
    params.bodyCount = 1000;
    params.solver.clear(); // chosen for the device the run lands on (applyKeywords)
    return params;
}

std::unique_ptr<SimulationHandle> start(const SimParams& params, std::optional<Snapshot> initial) {
    std::unique_ptr<Simulation> simulation;
    {
        py::gil_scoped_release release;
        simulation =
            initial ? std::make_unique<Simulation>(params, std::move(*initial)) : std::make_unique<Simulation>(params);
    }
    return std::make_unique<SimulationHandle>(std::move(simulation));
}

std::unique_ptr<SimulationHandle> fromScenario(const std::string& scenario, const py::object& bodies,
                                               const py::object& seed, const py::kwargs& keywords) {
    py::dict initial;
    initial["scenario"] = scenario;
    initial["bodies"] = bodies;
    initial["seed"] = seed;
    SimParams params = applyKeywords(pythonDefaults(), initial, KeywordScope::All, "Simulation");
    params = applyKeywords(params, keywords, KeywordScope::Stepping, "Simulation");
    return start(withDefaultSolver(params), std::nullopt);
}

std::unique_ptr<SimulationHandle> fromArrays(const py::object& positions, const py::object& velocities,
                                             const py::object& masses, const py::object& ids,
                                             const py::object& components, double time, const py::object& units,
                                             const py::kwargs& keywords) {
    Snapshot initial = snapshotFromArrays({positions, velocities, masses, ids, components}, time, units);
    const SimParams params = applyKeywords(pythonDefaults(), keywords, KeywordScope::Stepping, "from_arrays");
    return start(withDefaultSolver(params), std::move(initial));
}

std::unique_ptr<SimulationHandle> fromFile(const std::filesystem::path& path, const py::object& format, bool recentre,
                                           const py::kwargs& keywords) {
    SimParams params = applyKeywords(pythonDefaults(), keywords, KeywordScope::Stepping, "from_file");
    params.initialFile = path.string();
    params.initialFileFormat = formatArgument(format);
    params.recentre = recentre;
    return start(withDefaultSolver(params), std::nullopt);
}

void step(SimulationHandle& handle, long long count) {
    if (count < 0)
        throw py::value_error("n = " + std::to_string(count) + " is not allowed: the number of steps must be >= 0");
    long long chunk = 1;
    for (long long remaining = count; remaining > 0;) {
        const int steps = static_cast<int>(std::min(chunk, remaining));
        const double seconds = handle.locked([steps](Simulation& simulation) {
            const auto begin = std::chrono::steady_clock::now();
            simulation.step(steps);
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        });
        remaining -= steps;
        if (PyErr_CheckSignals() != 0)
            throw py::error_already_set();
        if (seconds < kInterruptCheckSeconds / 2 && chunk < (1 << 20))
            chunk *= 2;
        else if (seconds > kInterruptCheckSeconds && chunk > 1)
            chunk /= 2;
    }
}

Bodies readBodies(const Simulation& simulation) {
    Bodies bodies;
    simulation.backend().readBodies(bodies);
    return bodies;
}

py::array_t<float> positions(SimulationHandle& handle) {
    return rowsArray(handle.locked([](Simulation& simulation) {
        const Bodies bodies = readBodies(simulation);
        return interleaved(bodies.x, bodies.y, bodies.z);
    }));
}

py::array_t<float> velocities(SimulationHandle& handle) {
    return rowsArray(handle.locked([](Simulation& simulation) {
        const Bodies bodies = readBodies(simulation);
        return interleaved(bodies.vx, bodies.vy, bodies.vz);
    }));
}

py::array_t<float> accelerations(SimulationHandle& handle) {
    return rowsArray(handle.locked([](Simulation& simulation) {
        Vec3Arrays<float> accelerations;
        simulation.backend().readAccelerations(simulation.params(), accelerations);
        return interleaved(accelerations.x, accelerations.y, accelerations.z);
    }));
}

void set(SimulationHandle& handle, const py::kwargs& keywords) {
    const SimParams current = handle.locked([](Simulation& simulation) { return simulation.params(); });
    const SimParams requested = withDefaultSolver(applyKeywords(current, keywords, KeywordScope::All, "set"));
    handle.locked([&requested](Simulation& simulation) { simulation.setParams(requested); });
}

py::dict lastStepTimings(SimulationHandle& handle) {
    const auto timings = handle.locked([](Simulation& simulation) { return simulation.backend().lastStepTimings(); });
    py::dict milliseconds;
    for (const PhaseTiming& timing : timings)
        milliseconds[py::str(timing.phase)] = timing.milliseconds;
    return milliseconds;
}

void save(SimulationHandle& handle, const std::filesystem::path& path, const py::object& format) {
    const std::optional<SnapshotFormat> chosen = formatArgument(format);
    handle.locked([&](Simulation& simulation) { writeSnapshot(path, simulation.snapshot(), chosen); });
}

void renderPngFile(SimulationHandle& handle, const std::filesystem::path& path, int width, int height,
                   const std::string& color) {
    if (width < 1 || height < 1)
        throw py::value_error("width = " + std::to_string(width) + ", height = " + std::to_string(height) +
                              " is not allowed: an image needs at least one pixel each way");
    const ColorMode mode = parseEnumName<ColorMode>(color);
    const std::string log =
        handle.locked([&](Simulation& simulation) { return renderPng(simulation, path, width, height, mode); });
    if (!log.empty() && PyErr_WarnEx(PyExc_RuntimeWarning, log.c_str(), 1) != 0)
        throw py::error_already_set();
}

std::string repr(SimulationHandle& handle) {
    return handle.locked([](Simulation& simulation) {
        char text[400];
        std::snprintf(
            text, sizeof text, "<gravlab.Simulation: %zu bodies, t = %.6g after %llu steps, solver '%s' on %s>",
            simulation.bodyCount(), simulation.time(), static_cast<unsigned long long>(simulation.stepCount()),
            simulation.params().solver.c_str(), simulation.backend().description().c_str());
        return std::string(text);
    });
}

std::string classDoc() {
    return R"(An N-body simulation: bodies, parameters, a backend (CUDA on a GPU, else the CPU) and the clock.

Make one from a scenario (Simulation(scenario, bodies, seed, **params)), from numpy arrays (Simulation.from_arrays)
or from a snapshot file (Simulation.from_file). Units are N-body units (G = 1) unless a file or units= states
physical ones. Every parameter keyword, with the range the library checks (a value outside raises ValueError):
)" + keywordsHelp(KeywordScope::Stepping) +
           R"(Simulation() and set() also take where the bodies come from:
)" + keywordsHelp(KeywordScope::All) +
           R"(
Arrays read from a simulation are copies of its current state (float32; ids uint64; components uint8), in the
backend's current order: ORB domains (orb_domains > 0) reorder the bodies, so match them by ids. Errors: ValueError
for bad values, MemoryError when the run does not fit, gravlab.SnapshotError (an OSError) for files,
gravlab.NonFiniteStateError when a step leaves NaN or inf (the state is rolled back).
)";
}

const char* const kFromArraysDoc = R"(A simulation that starts from the given bodies; reset() returns to them.

Args:
    positions, velocities: (N, 3) arrays of any numeric dtype (converted to float32; must be finite).
    masses: (N,) array (float32, finite, > 0).
    ids: (N,) non-negative integers that identify the bodies, or None for 0..N-1.
    components: (N,) GADGET particle types 0..5 (0 gas, 1 dark matter, 2 disk, 3 bulge, 4 stars, 5 black holes), or
        None for 1.
    time: the initial time.
    units: gravlab.Units of the arrays (they set G), or None for N-body units.
    **params: dt, softening, G, theta, solver, backend, orb_domains, ... (see the class's help).
)";

const char* const kFromFileDoc = R"(A simulation that starts from a snapshot file's bodies; reset() returns to them.

Args:
    path: the file (str or os.PathLike); any one piece of a split HDF5 snapshot.
    format: 'tipsy', 'tipsy-native', 'hdf5' or 'csv'; None: detected from the file's first bytes.
    recentre: move the bodies to their centre-of-mass frame (off: positions and velocities as the file holds them).
    **params: dt, softening, G, theta, solver, backend, orb_domains, ... (see the class's help). Units the file states
        set the units and G.

Raises:
    gravlab.SnapshotError: the file cannot be read or holds bad values (the message names the file and where).
)";

using SimulationClass = py::class_<SimulationHandle>;

/// The three ways to make a simulation: a scenario, arrays, a file.
void bindCreation(SimulationClass& binding) {
    binding
        .def(py::init(&fromScenario), py::arg("scenario") = "plummer", py::arg("bodies") = 1000, py::arg("seed") = 42,
             "A simulation of a scenario (gravlab.scenarios()) with the given body count and seed; **params as in the "
             "class's help, e.g. dt=0.005, solver='tree', backend='cpu'.")
        .def_static("from_arrays", &fromArrays, py::arg("positions"), py::arg("velocities"), py::arg("masses"),
                    py::arg("ids") = py::none(), py::arg("components") = py::none(), py::arg("time") = 0.0,
                    py::arg("units") = py::none(), kFromArraysDoc)
        .def_static("from_file", &fromFile, py::arg("path"), py::arg("format") = py::none(),
                    py::arg("recentre") = false, kFromFileDoc);
}

/// Stepping, reset and time reversal.
void bindStepping(SimulationClass& binding) {
    binding
        .def("step", &step, py::arg("n") = 1,
             "Advances n leapfrog steps of dt (the GIL is released; Ctrl-C stops between chunks of steps, keeping "
             "those done). Raises gravlab.NonFiniteStateError, with the state rolled back, when a step leaves NaN or "
             "inf.")
        .def(
            "reset",
            [](SimulationHandle& handle) { handle.locked([](Simulation& simulation) { simulation.reset(); }); },
            "Returns to the initial bodies (the scenario's regenerated, or the arrays or file given) at the initial "
            "time, with step_count 0.")
        .def(
            "reverse_time",
            [](SimulationHandle& handle) { handle.locked([](Simulation& simulation) { simulation.reverseTime(); }); },
            "Negates every velocity: the leapfrog then runs back towards where it came from, and each step moves time "
            "back by dt (time_direction becomes -1). Calling it again runs forward; reset() always runs forward.");
}

/// Time, its direction, the step count and N.
void bindClock(SimulationClass& binding) {
    binding
        .def_property_readonly(
            "time_direction",
            [](SimulationHandle& handle) { return handle.locked([](Simulation& s) { return s.timeDirection(); }); },
            "+1 while time runs forward, -1 after reverse_time().")
        .def_property_readonly(
            "time", [](SimulationHandle& handle) { return handle.locked([](Simulation& s) { return s.time(); }); },
            "The simulation time (the initial time plus dt for each forward step and minus dt for each step after "
            "reverse_time(), when dt was not changed).")
        .def_property_readonly(
            "step_count",
            [](SimulationHandle& handle) { return handle.locked([](Simulation& s) { return s.stepCount(); }); },
            "Steps since the start or the last reset().")
        .def_property_readonly(
            "body_count",
            [](SimulationHandle& handle) { return handle.locked([](Simulation& s) { return s.bodyCount(); }); },
            "The number of bodies N.");
}

/// Copies of the body arrays, the snapshot and the accelerations.
void bindArrays(SimulationClass& binding) {
    binding.def_property_readonly("positions", &positions, "(N, 3) float32 copy of the positions.")
        .def_property_readonly("velocities", &velocities, "(N, 3) float32 copy of the velocities.")
        .def_property_readonly(
            "masses",
            [](SimulationHandle& handle) {
                return ownedArray(handle.locked([](Simulation& s) { return std::move(readBodies(s).mass); }));
            },
            "(N,) float32 copy of the masses.")
        .def_property_readonly(
            "ids",
            [](SimulationHandle& handle) {
                return ownedArray(handle.locked([](Simulation& s) { return std::move(readBodies(s).id); }));
            },
            "(N,) uint64 ids: the given ids (or 0..N-1), in the current order.")
        .def_property_readonly(
            "components",
            [](SimulationHandle& handle) {
                return ownedArray(handle.locked([](Simulation& s) { return std::move(readBodies(s).component); }));
            },
            "(N,) uint8 particle types (GADGET's numbering), in the current order.")
        .def(
            "snapshot",
            [](SimulationHandle& handle) {
                return snapshotDict(handle.locked([](Simulation& s) { return snapshotOut(s.snapshot()); }));
            },
            "The current state as read_snapshot returns a file's: a dict of arrays, time, redshift, box_size, units.")
        .def("accelerations", &accelerations,
             "(N, 3) float32 accelerations (with G) of the current state by the current solver, in the order of "
             "positions; computed now when the last step's are stale.");
}

/// Energies, momenta and the energy drift.
void bindMeasurements(SimulationClass& binding) {
    binding
        .def(
            "diagnostics",
            [](SimulationHandle& handle) { return handle.locked([](Simulation& s) { return s.diagnostics(); }); },
            "Energies and momenta now (gravlab.Diagnostics; an O(N^2) fp64 sum on the CPU). The first call after a "
            "start, a reset or a change of G or softening records the baseline energy E0 when there is none.")
        .def(
            "energy_drift",
            [](SimulationHandle& handle) {
                return handle.locked([](Simulation& s) { return s.relativeEnergyDrift(s.diagnostics()); });
            },
            "|E - E0| / |E0|: the relative change of the total energy since the baseline (computes diagnostics).")
        .def_property_readonly(
            "initial_energy",
            [](SimulationHandle& handle) { return handle.locked([](Simulation& s) { return s.initialEnergy(); }); },
            "The baseline energy E0, or nan while none has been recorded.");
}

/// Parameters, the backend and device, units and phase timings.
void bindSettings(SimulationClass& binding) {
    binding
        .def_property_readonly(
            "params",
            [](SimulationHandle& handle) {
                return paramsDict(handle.locked([](Simulation& s) { return s.params(); }));
            },
            "Every parameter under its keyword (a copy: change them with set()).")
        .def("set", &set,
             "Changes parameters by keyword (see the class's help), all validated before any applies. A new scenario, "
             "bodies, seed or file regenerates or reloads the bodies; dt, softening and G apply from the next step; a "
             "new backend moves the state. solver=None picks the device's default.")
        .def_property_readonly(
            "backend",
            [](SimulationHandle& handle) {
                return handle.locked([](Simulation& s) { return s.backend().description(); });
            },
            "The backend in words, e.g. 'CPU (OpenMP, 2 threads; this build has no CUDA core)'.")
        .def_property_readonly(
            "device",
            [](SimulationHandle& handle) {
                return handle.locked([](Simulation& s) { return std::string(toString(s.backend().device())); });
            },
            "Where the steps run: 'cpu' or 'cuda'.")
        .def_property_readonly(
            "units",
            [](SimulationHandle& handle) { return handle.locked([](Simulation& s) { return s.params().units; }); },
            "The unit system (gravlab.Units): N-body units unless a file or from_arrays stated physical ones.")
        .def("last_step_timings", &lastStepTimings,
             "Milliseconds of each phase of the last step() chunk, by phase name.");
}

/// Snapshot files and PNG frames.
void bindOutput(SimulationClass& binding) {
    binding
        .def("save", &save, py::arg("path"), py::arg("format") = py::none(),
             "Writes the current state to a snapshot file (format as write_snapshot; None: from the extension), "
             "through a temporary file renamed into place.")
        .def("render_png", &renderPngFile, py::arg("path"), py::arg("width") = 1280, py::arg("height") = 720,
             py::arg("color") = "component",
             "Draws the bodies into a PNG as the headless mode draws a frame: EGL without a display, camera fitted to "
             "the bodies. color: 'component', 'leaf-depth' (tree solver) or 'orb-domain'. Raises gravlab.EglError (a "
             "RuntimeError) when no EGL context can be made, saying why.");
}

} // namespace

void bindSimulation(py::module_& module) {
    static const std::string doc = classDoc();
    SimulationClass simulation(module, "Simulation", doc.c_str());
    bindCreation(simulation);
    bindStepping(simulation);
    bindClock(simulation);
    bindArrays(simulation);
    bindMeasurements(simulation);
    bindSettings(simulation);
    bindOutput(simulation);
    simulation.def("__repr__", &repr);
}

} // namespace gravlab::python
