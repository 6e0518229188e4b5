// The library's errors as Python exceptions.
//
// Design note: a Python user catches by Python's categories, so each library error maps to the built-in exception
// that means the same thing, keeping the library's one-line message: InvalidParameterError (a value out of range, an
// unknown name) is a ValueError, InsufficientMemoryError a MemoryError. Errors with no built-in equivalent get a
// gravlab class under the built-in one that fits, so both `except OSError` and `except gravlab.SnapshotError` work:
// SnapshotError (a file that cannot be read or written) is an OSError, NonFiniteStateError (a step that left NaN or
// inf, already rolled back) and CoincidentBodiesError (two bodies at r = 0 under softening 0, rolled back) are
// ArithmeticErrors, EglError (no headless GL context) a RuntimeError. Anything else
// keeps pybind11's mapping (std::invalid_argument to ValueError, std::bad_alloc to MemoryError, other exceptions to
// RuntimeError).
#include "Bindings.hpp"

#include <gravlab/render/HeadlessContext.hpp>
#include <gravlab/sim/MemoryBudget.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SimulationBackend.hpp>
#include <gravlab/sim/Snapshot.hpp>

#include <exception>

namespace gravlab::python {

void registerErrors(py::module_& module) {
    py::register_exception<SnapshotError>(module, "SnapshotError", PyExc_OSError).doc() =
        "A snapshot file that cannot be read or written; the message names the file, what is wrong and where.";
    py::register_exception<NonFiniteStateError>(module, "NonFiniteStateError", PyExc_ArithmeticError).doc() =
        "A step left a position or velocity that is not finite (too large a dt); the state was rolled back to before "
        "the step() call, so stepping may go on with a smaller dt.";
    py::register_exception<CoincidentBodiesError>(module, "CoincidentBodiesError", PyExc_ArithmeticError).doc() =
        "With softening 0 a force evaluation met two distinct bodies at one position (an infinite force); the message "
        "names their ids and position, and the state was rolled back to before the step() call.";
    py::register_exception<EglError>(module, "EglError", PyExc_RuntimeError).doc() =
        "No headless OpenGL context could be created through EGL; the message says why for every display tried.";
    py::register_exception_translator([](std::exception_ptr error) {
        try {
            std::rethrow_exception(error);
        } catch (const InvalidParameterError& invalid) {
            PyErr_SetString(PyExc_ValueError, invalid.what());
        } catch (const InsufficientMemoryError& insufficient) {
            PyErr_SetString(PyExc_MemoryError, insufficient.what());
        }
    });
}

} // namespace gravlab::python
