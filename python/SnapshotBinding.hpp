#pragma once
// Snapshots between Python and Gravlab: a dict of arrays out, arrays and a time in.
//
// Design note: a snapshot reaches Python as a plain dict (positions, velocities, masses, ids, components, time,
// redshift, box_size, units) rather than a class: it is what numpy users pass around, and read_snapshot's and
// Simulation.snapshot()'s results are the same dict. Converting a Snapshot is split in two: SnapshotOut is laid out
// without the GIL (the interleaving is the one copy), snapshotDict() then wraps the vectors without copying.
#include "NumpyArrays.hpp"

#include <gravlab/sim/Snapshot.hpp>

#include <optional>
#include <pybind11/pybind11.h>

namespace gravlab::python {

/// A snapshot's arrays laid out for numpy, and its scalars.
struct SnapshotOut {
    BodyArraysOut bodies;
    double time = 0;
    double redshift = 0;
    double boxSize = 0;
    std::optional<UnitSystem> units;
};

/// snapshot laid out for numpy (pure C++: may run without the GIL).
SnapshotOut snapshotOut(Snapshot&& snapshot);
/// The dict of a snapshot: arrays owning snapshot's vectors, time, redshift, box_size, units (gravlab.Units or None).
py::dict snapshotDict(SnapshotOut&& snapshot);

/// A snapshot of the caller's arrays (bodiesFromArrays), at time (a finite number) in units (gravlab.Units or None:
/// N-body units).
Snapshot snapshotFromArrays(const BodyArraysIn& arrays, double time, py::handle units);

} // namespace gravlab::python
