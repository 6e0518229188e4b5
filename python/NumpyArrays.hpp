#pragma once
// Body arrays between numpy and Gravlab's structure of arrays, in both directions.
//
// Design note: out of Gravlab, an array owns the std::vector that a backend read filled: the vector moves onto the
// heap and a capsule deletes it when numpy lets go of the array, so the read's one copy is the only one (an (N, 3)
// array is interleaved once from x, y, z into the vector it then owns). Into Gravlab, any numeric dtype and memory
// layout is taken and converted once (numpy's forcecast to C-contiguous float32), since the bodies are float32
// structures of arrays anyway; shapes and values are checked with messages that name the argument, the shape or
// index, and what is allowed, because a numpy user's mistake is usually a transposed or mis-sized array.
#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <utility>
#include <vector>

namespace gravlab::python {

namespace py = pybind11;

/// A numpy array of the given shape that owns values (no copy); shape's product must be values.size().
template <typename T> py::array_t<T> ownedArray(std::vector<T>&& values, std::vector<py::ssize_t> shape) {
    auto owner = std::make_unique<std::vector<T>>(std::move(values));
    T* data = owner->data();
    py::capsule release(owner.get(), [](void* vector) { delete static_cast<std::vector<T>*>(vector); });
    owner.release(); // the capsule owns it from here on
    return py::array_t<T>(std::move(shape), data, release);
}

/// (N,) array owning values.
template <typename T> py::array_t<T> ownedArray(std::vector<T>&& values) {
    const auto count = static_cast<py::ssize_t>(values.size());
    return ownedArray(std::move(values), {count});
}

/// The rows (x[i], y[i], z[i]) one after another: an (N, 3) array's memory. Pure C++, so it may run without the GIL.
std::vector<float> interleaved(const std::vector<float>& x, const std::vector<float>& y, const std::vector<float>& z);

/// (N, 3) float32 array owning rows (as interleaved() returns them).
inline py::array_t<float> rowsArray(std::vector<float>&& rows) {
    const auto count = static_cast<py::ssize_t>(rows.size() / 3);
    return ownedArray(std::move(rows), {count, 3});
}

/// The arrays a caller gives for bodies; ids and components may be None.
struct BodyArraysIn {
    py::handle positions;
    py::handle velocities;
    py::handle masses;
    py::handle ids;
    py::handle components;
};

/// Bodies from the caller's arrays: positions and velocities (N, 3), masses (N,), ids (N,) non-negative integers or
/// None (then 0..N-1), components (N,) integers in [0, 5] or None (then 1, dark matter); colour keys follow the
/// components. Throws ValueError for a wrong shape or a value that is not finite or not allowed (masses must be > 0),
/// TypeError for an argument that is no array of numbers (ids and components: of integers).
Bodies bodiesFromArrays(const BodyArraysIn& arrays);

/// The per-body arrays of a snapshot or a state read, laid out as numpy wants them (built without the GIL).
struct BodyArraysOut {
    std::vector<float> positions;  ///< interleaved rows
    std::vector<float> velocities; ///< interleaved rows
    std::vector<float> masses;
    std::vector<std::uint64_t> ids;
    std::vector<std::uint8_t> components;
};

/// bodies' arrays for numpy: positions and velocities interleaved, the rest moved.
BodyArraysOut bodyArraysOut(Bodies&& bodies);

/// {"positions", "velocities", "masses", "ids", "components"}: arrays that own the vectors of arrays.
py::dict bodyArraysDict(BodyArraysOut&& arrays);

} // namespace gravlab::python
