"""Snapshot files through the module: save then read back bit for bit, a GADGET HDF5 file written by h5py, errors."""
import numpy as np
import pytest

import gravlab
from conftest import plummer_like

# What each format keeps (Snapshot.hpp): the components it distinguishes, whether it stores ids and the time. Files
# group bodies by component (tipsy: gas, dark, star; HDF5: PartType0..5), keeping their order within a group.
FORMATS = {
    "hdf5": {"components": [0, 1, 2, 3, 4, 5], "ids": True, "time": True, "suffix": ".hdf5"},
    "tipsy-native": {"components": [0, 1, 4], "ids": True, "time": True, "suffix": ".dat"},
    "tipsy": {"components": [0, 1, 4], "ids": False, "time": True, "suffix": ".std"},
    "csv": {"components": [1], "ids": True, "time": False, "suffix": ".csv"},
}


def bits(array):
    return np.ascontiguousarray(array, dtype=np.float32).view(np.uint32)


def assert_same_contents(path, other):
    """The two files hold the same bodies bit for bit (HDF5 files also store creation times, so bytes may differ)."""
    a, b = gravlab.read_snapshot(path), gravlab.read_snapshot(other)
    for name in ("positions", "velocities", "masses"):
        assert np.array_equal(bits(a[name]), bits(b[name])), name
    for name in ("ids", "components"):
        assert np.array_equal(a[name], b[name]), name
    assert a["time"] == b["time"]


@pytest.mark.parametrize("format", FORMATS)
def test_save_then_read_back_is_bit_exact(rng, tmp_path, format):
    kept = FORMATS[format]
    positions, velocities, masses = plummer_like(rng, 257)
    ids = rng.choice(2**31 - 1, size=257, replace=False).astype(np.uint64)  # tipsy-native stores ids as int32
    components = rng.choice(kept["components"], size=257).astype(np.uint8)
    time = rng.uniform(0.0, 10.0)
    simulation = gravlab.Simulation.from_arrays(positions, velocities, masses, ids=ids, components=components,
                                                time=time, backend="cpu", dt=0.003)
    simulation.step(7)
    state = simulation.snapshot()
    path = tmp_path / f"state{kept['suffix']}"
    simulation.save(path, format=format)
    read = gravlab.read_snapshot(path)  # the format detected from the file

    order = np.argsort(state["components"], kind="stable")
    for name in ("positions", "velocities", "masses"):
        assert np.array_equal(bits(read[name]), bits(state[name][order])), name
    assert np.array_equal(read["components"], state["components"][order])
    if kept["ids"]:
        assert np.array_equal(read["ids"], state["ids"][order])
    else:
        assert np.array_equal(read["ids"], np.arange(257, dtype=np.uint64))  # the record's index
    assert read["time"] == (state["time"] if kept["time"] else 0.0)

    # The same bodies through from_file and write_snapshot.
    loaded = gravlab.Simulation.from_file(path, backend="cpu")
    assert np.array_equal(bits(loaded.positions), bits(read["positions"]))
    again = tmp_path / f"again{kept['suffix']}"
    gravlab.write_snapshot(again, read["positions"], read["velocities"], read["masses"], ids=read["ids"],
                           components=read["components"], time=read["time"], format=format)
    assert_same_contents(again, path)
    if format != "tipsy-native":  # the one format no extension names (.bin is big-endian tipsy)
        by_extension = tmp_path / f"by_extension{kept['suffix']}"
        simulation.save(by_extension)
        assert_same_contents(by_extension, path)


def test_gadget_file_written_by_h5py_loads(rng, tmp_path):
    import h5py

    count = 100
    positions = rng.normal(size=(count, 3)).astype(np.float32)
    velocities = rng.normal(size=(count, 3)).astype(np.float32)
    masses = rng.uniform(0.5, 2.0, size=count).astype(np.float32)
    ids = rng.choice(10**12, size=count, replace=False).astype(np.uint64) + np.uint64(2**40)
    time = float(rng.uniform(0.0, 5.0))
    path = tmp_path / "snapshot_000.hdf5"
    with h5py.File(path, "w") as file:
        header = file.create_group("Header")
        header.attrs["NumPart_ThisFile"] = np.array([0, count, 0, 0, 0, 0], dtype=np.uint32)
        header.attrs["NumPart_Total"] = np.array([0, count, 0, 0, 0, 0], dtype=np.uint64)
        header.attrs["MassTable"] = np.zeros(6)
        header.attrs["Time"] = time
        header.attrs["NumFilesPerSnapshot"] = np.int32(1)
        dark = file.create_group("PartType1")
        dark["Coordinates"] = positions
        dark["Velocities"] = velocities
        dark["Masses"] = masses
        dark["ParticleIDs"] = ids

    simulation = gravlab.Simulation.from_file(path, backend="cpu")
    assert simulation.body_count == count and simulation.time == time
    assert np.array_equal(simulation.positions, positions)
    assert np.array_equal(simulation.velocities, velocities)
    assert np.array_equal(simulation.masses, masses)
    assert np.array_equal(simulation.ids, ids)
    assert np.array_equal(simulation.components, np.ones(count, dtype=np.uint8))
    simulation.step(5)
    simulation.reset()  # back to the file's bodies, at the file's time
    assert np.array_equal(simulation.positions, positions) and simulation.time == time
    read = gravlab.read_snapshot(path)
    assert np.array_equal(read["ids"], ids) and read["time"] == time


def test_bad_files_raise_snapshot_error_naming_the_file(tmp_path):
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"\x01\x02\x03 not a snapshot")
    with pytest.raises(gravlab.SnapshotError, match="garbage.bin"):
        gravlab.read_snapshot(garbage, format="tipsy")
    with pytest.raises(OSError, match="missing.hdf5"):
        gravlab.Simulation.from_file(tmp_path / "missing.hdf5")
    bad_mass = tmp_path / "bad.csv"
    bad_mass.write_text("x,y,z,vx,vy,vz,m\n0,0,0,0,0,0,1\n1,0,0,0,0,0,-2\n")
    with pytest.raises(gravlab.SnapshotError, match="bad.csv.*mass"):
        gravlab.Simulation.from_file(bad_mass)
    simulation = gravlab.Simulation(bodies=10, backend="cpu")
    with pytest.raises(gravlab.SnapshotError, match="no-such-folder"):
        simulation.save(tmp_path / "no-such-folder" / "state.csv")
    with pytest.raises(gravlab.SnapshotError, match=r"\.fits"):
        simulation.save(tmp_path / "state.fits")  # no format from this extension
