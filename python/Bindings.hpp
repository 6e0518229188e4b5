#pragma once
// The parts of the gravlab module, each defined in its own file and added to the module by GravlabModule.cpp.
#include <pybind11/pybind11.h>

namespace gravlab::python {

namespace py = pybind11;

/// gravlab.SnapshotError, NonFiniteStateError and EglError, and the library's errors as Python's built-in ones
/// (ErrorTranslation.cpp).
void registerErrors(py::module_& module);
/// gravlab.Units and gravlab.Diagnostics (ValueTypes.cpp).
void bindValueTypes(py::module_& module);
/// read_snapshot, write_snapshot, snapshot_formats (SnapshotBinding.cpp).
void bindSnapshotFunctions(py::module_& module);
/// gravlab.Simulation (SimulationBinding.cpp).
void bindSimulation(py::module_& module);

} // namespace gravlab::python
