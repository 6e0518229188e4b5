#pragma once
// Simulation parameters as Python keyword arguments: Simulation(dt=0.005, solver="tree"), sim.set(theta=0.7),
// sim.params.
//
// Design note: one table names every keyword, the SimParams field it sets and how its value is read, so the
// constructor, from_arrays, from_file, set() and the params dict cannot disagree, and the keyword help in the
// docstrings is generated from the table and the library's ranges (SimParams.hpp) rather than written twice. Values
// are only converted here (TypeError when a value is of the wrong kind, e.g. a string for dt); whether they are in
// range is decided by validateSimParams, the one check every entry point goes through, whose InvalidParameterError
// the module raises as ValueError with the library's sentence. Integers are read exactly (Python ints are unbounded,
// so a negative or huge body count is refused before it could wrap around in a C++ integer). Keywords spell the
// command line's names with underscores: orb_domains for --orb-domains.
#include <gravlab/sim/SimParams.hpp>

#include <optional>
#include <pybind11/pybind11.h>
#include <string>

namespace gravlab::python {

namespace py = pybind11;

/// Which keywords a call takes.
enum class KeywordScope {
    Stepping, ///< how bodies are stepped: dt, softening, G, theta, solver, backend, orb_* (the bodies come elsewhere)
    All,      ///< also where the bodies come from: scenario, bodies, seed, file, format, recentre (Simulation.set)
};

/// params with keywords applied; solver=None leaves the solver empty, for withDefaultSolver. Throws TypeError, naming
/// caller and the keywords it takes, for an unknown keyword or one outside scope, and TypeError for a value of the
/// wrong kind; ranges are left to validateSimParams.
SimParams applyKeywords(SimParams params, const py::dict& keywords, KeywordScope scope, const char* caller);

/// params with an empty solver replaced by the default of the device the run would use: the GPU's default (tree) on
/// the CUDA backend, the exact direct sum otherwise, as the command line chooses. Call it once every keyword is
/// applied, since backend decides.
SimParams withDefaultSolver(SimParams params);

/// Every parameter under the keyword that sets it (file and format None when the bodies come from elsewhere).
py::dict paramsDict(const SimParams& params);

/// "dt (float): time step in N-body time units, 0 < dt <= 1\n..." for docstrings: the keywords every call takes
/// (Stepping), or those only the constructor and set() take (All).
std::string keywordsHelp(KeywordScope group);

/// None or a format name ("tipsy", "tipsy-native", "hdf5", "csv"); ValueError listing the names otherwise.
std::optional<SnapshotFormat> formatArgument(py::handle format);

} // namespace gravlab::python
