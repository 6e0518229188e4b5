// read_snapshot, write_snapshot and snapshot_formats, and the conversions they share with gravlab.Simulation (see
// SnapshotBinding.hpp).
#include "SnapshotBinding.hpp"

#include "Bindings.hpp"
#include "ParamsKeywords.hpp"

#include <cmath>
#include <filesystem>
#include <pybind11/stl/filesystem.h>
#include <string>

namespace gravlab::python {
namespace {

const char* const kReadSnapshotDoc = R"(Reads a snapshot file.

Args:
    path: the file (str or os.PathLike); for a split HDF5 snapshot any one of its pieces.
    format: 'tipsy', 'tipsy-native', 'hdf5' or 'csv' (gravlab.snapshot_formats()); None: detected from the file's
        first bytes.

Returns:
    dict with positions and velocities ((N, 3) float32), masses ((N,) float32), ids ((N,) uint64), components
    ((N,) uint8, GADGET's particle types), time, redshift and box_size (floats) and units (gravlab.Units, or None when
    the file states none).

Raises:
    gravlab.SnapshotError (an OSError): the file cannot be read or holds bad values; the message names the file, what is
        wrong and where.
)";

const char* const kWriteSnapshotDoc = R"(Writes bodies to a snapshot file, through a temporary file renamed into place.

Args:
    path: the file (str or os.PathLike).
    positions, velocities: (N, 3) arrays of any numeric dtype (stored as float32, finite).
    masses: (N,) array (float32, finite, > 0).
    ids: (N,) non-negative integers, or None for 0..N-1.
    components: (N,) GADGET particle types 0..5, or None for 1 (dark matter).
    time: the snapshot's time.
    format: as read_snapshot; None: from the extension (.tipsy/.std/.bin, .hdf5/.h5, .csv).
    units: gravlab.Units stated in the file (formats that store units), or None for N-body units.

Raises:
    ValueError: a wrong shape or value; gravlab.SnapshotError: the file cannot be written (no partial file is left).
)";

py::dict snapshotFormatsDict() {
    py::dict formats;
    for (const auto& entry : EnumNames<SnapshotFormat>::entries)
        formats[py::str(std::string(entry.name))] = py::str(std::string(entry.description));
    return formats;
}

py::dict readSnapshotDict(const std::filesystem::path& path, py::handle format) {
    const std::optional<SnapshotFormat> chosen = formatArgument(format);
    SnapshotOut snapshot;
    {
        py::gil_scoped_release release;
        snapshot = snapshotOut(readSnapshot(path, chosen));
    }
    return snapshotDict(std::move(snapshot));
}

void writeSnapshotArrays(const std::filesystem::path& path, py::handle positions, py::handle velocities,
                         py::handle masses, py::handle ids, py::handle components, double time, py::handle format,
                         py::handle units) {
    const Snapshot snapshot = snapshotFromArrays({positions, velocities, masses, ids, components}, time, units);
    const std::optional<SnapshotFormat> chosen = formatArgument(format);
    py::gil_scoped_release release;
    writeSnapshot(path, snapshot, chosen);
}

} // namespace

SnapshotOut snapshotOut(Snapshot&& snapshot) {
    return {bodyArraysOut(std::move(snapshot.bodies)), snapshot.time, snapshot.redshift, snapshot.boxSize,
            std::move(snapshot.units)};
}

py::dict snapshotDict(SnapshotOut&& snapshot) {
    py::dict dict = bodyArraysDict(std::move(snapshot.bodies));
    dict["time"] = snapshot.time;
    dict["redshift"] = snapshot.redshift;
    dict["box_size"] = snapshot.boxSize;
    dict["units"] = snapshot.units ? py::cast(*snapshot.units) : py::object(py::none());
    return dict;
}

Snapshot snapshotFromArrays(const BodyArraysIn& arrays, double time, py::handle units) {
    if (!std::isfinite(time))
        throw py::value_error("time = " + std::to_string(time) + " is not allowed: the time must be finite");
    Snapshot snapshot;
    snapshot.bodies = bodiesFromArrays(arrays);
    snapshot.time = time;
    if (!units.is_none()) {
        if (!py::isinstance<UnitSystem>(units))
            throw py::type_error("units must be a gravlab.Units or None, got " +
                                 std::string(py::str(py::type::handle_of(units).attr("__name__"))));
        const auto& given = units.cast<const UnitSystem&>();
        if (given.physical())
            snapshot.units = given;
    }
    return snapshot;
}

void bindSnapshotFunctions(py::module_& module) {
    module.def("read_snapshot", &readSnapshotDict, py::arg("path"), py::arg("format") = py::none(), kReadSnapshotDoc);
    module.def("write_snapshot", &writeSnapshotArrays, py::arg("path"), py::arg("positions"), py::arg("velocities"),
               py::arg("masses"), py::arg("ids") = py::none(), py::arg("components") = py::none(),
               py::arg("time") = 0.0, py::arg("format") = py::none(), py::arg("units") = py::none(), kWriteSnapshotDoc);
    module.def("snapshot_formats", &snapshotFormatsDict,
               "The snapshot formats by name, each with a one-line description: the values format= takes.");
}

} // namespace gravlab::python
