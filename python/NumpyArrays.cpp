// Body arrays between numpy and Gravlab (see NumpyArrays.hpp).
#include "NumpyArrays.hpp"

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>

namespace gravlab::python {
namespace {

using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

std::string shapeText(const py::array& array) {
    std::string text = "(";
    for (py::ssize_t axis = 0; axis < array.ndim(); ++axis)
        text += (axis > 0 ? ", " : "") + std::to_string(array.shape(axis));
    return text + (array.ndim() == 1 ? ",)" : ")");
}

std::string floatText(float value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

/// object as a C-contiguous float32 array; TypeError when numpy cannot make numbers of it.
FloatArray floatArray(py::handle object, const char* name) {
    FloatArray array = FloatArray::ensure(object);
    if (!array)
        throw py::type_error(std::string(name) + " must be an array of numbers, got " +
                             std::string(py::str(py::type::handle_of(object).attr("__name__"))));
    return array;
}

/// object as an array of integers (any integer dtype, or a list of Python ints); TypeError for anything else, since
/// casting floats or booleans to identities would hide a mistake.
py::array integerArray(py::handle object, const char* name) {
    py::array array = py::array::ensure(object);
    if (!array)
        throw py::type_error(std::string(name) + " must be an array of integers, got " +
                             std::string(py::str(py::type::handle_of(object).attr("__name__"))));
    const char kind = array.dtype().kind();
    if (kind != 'i' && kind != 'u')
        throw py::type_error(std::string(name) + " must be an array of integers, got dtype " +
                             std::string(py::str(array.dtype())));
    return array;
}

void requireRows(const py::array& array, const char* name, std::size_t count) {
    if (array.ndim() != 2 || array.shape(1) != 3 || std::size_t(array.shape(0)) != count)
        throw py::value_error(std::string(name) + " must have shape (N, 3) with N = " + std::to_string(count) +
                              " (the number of positions), got shape " + shapeText(array));
}

void requireVector(const py::array& array, const char* name, std::size_t count) {
    if (array.ndim() != 1 || std::size_t(array.shape(0)) != count)
        throw py::value_error(std::string(name) + " must have shape (N,) with N = " + std::to_string(count) +
                              " (the number of positions), got shape " + shapeText(array));
}

/// Columns of a checked (N, 3) array into x, y, z; ValueError at the first value that is not finite.
void splitRows(const FloatArray& rows, const char* name, std::vector<float>& x, std::vector<float>& y,
               std::vector<float>& z) {
    const float* values = rows.data();
    std::vector<float>* columns[3] = {&x, &y, &z};
    for (std::size_t i = 0; i < x.size(); ++i)
        for (std::size_t axis = 0; axis < 3; ++axis) {
            const float value = values[3 * i + axis];
            if (!std::isfinite(value))
                throw py::value_error(std::string(name) + "[" + std::to_string(i) + ", " + std::to_string(axis) +
                                      "] is " + floatText(value) + ": every " + name +
                                      " component must be a finite number (as float32)");
            (*columns[axis])[i] = value;
        }
}

void copyMasses(const FloatArray& masses, std::vector<float>& out) {
    const float* values = masses.data();
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (!std::isfinite(values[i]) || !(values[i] > 0))
            throw py::value_error("masses[" + std::to_string(i) + "] = " + floatText(values[i]) +
                                  " is not allowed: every mass must be a finite number > 0 (as float32)");
        out[i] = values[i];
    }
}

/// Calls visit(i, value) for every value of a checked integer array, as uint64 for unsigned dtypes and int64 for
/// signed ones, so that no value is reinterpreted across the sign boundary.
template <typename Visit> void forEachInteger(const py::array& array, Visit&& visit) {
    constexpr int kFlags = py::array::c_style | py::array::forcecast;
    if (array.dtype().kind() == 'u') {
        const auto values = py::array_t<std::uint64_t, kFlags>::ensure(array);
        for (py::ssize_t i = 0; i < values.size(); ++i)
            visit(std::size_t(i), values.data()[i]);
    } else {
        const auto values = py::array_t<std::int64_t, kFlags>::ensure(array);
        for (py::ssize_t i = 0; i < values.size(); ++i)
            visit(std::size_t(i), values.data()[i]);
    }
}

void copyIds(const py::array& ids, std::vector<std::uint64_t>& out) {
    forEachInteger(ids, [&](std::size_t i, auto value) {
        if (std::cmp_less(value, 0))
            throw py::value_error("ids[" + std::to_string(i) + "] = " + std::to_string(value) +
                                  " is negative: ids are unsigned 64-bit integers");
        out[i] = std::uint64_t(value);
    });
}

void copyComponents(const py::array& components, std::vector<std::uint8_t>& out) {
    forEachInteger(components, [&](std::size_t i, auto value) {
        if (std::cmp_less(value, 0) || std::cmp_greater_equal(value, kComponentCount))
            throw py::value_error("components[" + std::to_string(i) + "] = " + std::to_string(value) +
                                  " is not a particle type: allowed 0 to " + std::to_string(kComponentCount - 1) +
                                  " (GADGET's types: 0 gas, 1 dark matter, 2 disk, 3 bulge, 4 stars, 5 black holes)");
        out[i] = std::uint8_t(value);
    });
}

} // namespace

std::vector<float> interleaved(const std::vector<float>& x, const std::vector<float>& y, const std::vector<float>& z) {
    std::vector<float> rows(3 * x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        rows[3 * i] = x[i];
        rows[3 * i + 1] = y[i];
        rows[3 * i + 2] = z[i];
    }
    return rows;
}

Bodies bodiesFromArrays(const BodyArraysIn& arrays) {
    const FloatArray positions = floatArray(arrays.positions, "positions");
    if (positions.ndim() != 2 || positions.shape(1) != 3)
        throw py::value_error("positions must have shape (N, 3), got shape " + shapeText(positions));
    const auto count = std::size_t(positions.shape(0));
    const FloatArray velocities = floatArray(arrays.velocities, "velocities");
    requireRows(velocities, "velocities", count);
    const FloatArray masses = floatArray(arrays.masses, "masses");
    requireVector(masses, "masses", count);

    Bodies bodies;
    bodies.resize(count);
    splitRows(positions, "positions", bodies.x, bodies.y, bodies.z);
    splitRows(velocities, "velocities", bodies.vx, bodies.vy, bodies.vz);
    copyMasses(masses, bodies.mass);
    bodies.numberSequentially();
    if (!arrays.ids.is_none()) {
        const py::array ids = integerArray(arrays.ids, "ids");
        requireVector(ids, "ids", count);
        copyIds(ids, bodies.id);
    }
    if (!arrays.components.is_none()) {
        const py::array components = integerArray(arrays.components, "components");
        requireVector(components, "components", count);
        copyComponents(components, bodies.component);
    }
    for (std::size_t i = 0; i < count; ++i)
        bodies.colorKey[i] = componentColorKey(bodies.component[i]);
    return bodies;
}

BodyArraysOut bodyArraysOut(Bodies&& bodies) {
    return {interleaved(bodies.x, bodies.y, bodies.z), interleaved(bodies.vx, bodies.vy, bodies.vz),
            std::move(bodies.mass), std::move(bodies.id), std::move(bodies.component)};
}

py::dict bodyArraysDict(BodyArraysOut&& arrays) {
    py::dict dict;
    dict["positions"] = rowsArray(std::move(arrays.positions));
    dict["velocities"] = rowsArray(std::move(arrays.velocities));
    dict["masses"] = ownedArray(std::move(arrays.masses));
    dict["ids"] = ownedArray(std::move(arrays.ids));
    dict["components"] = ownedArray(std::move(arrays.components));
    return dict;
}

} // namespace gravlab::python
