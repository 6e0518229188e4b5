#!/usr/bin/python3
"""Snapshots in the GADGET-4 / SWIFT / AREPO HDF5 layout, written and checked with h5py, independently of Gravlab's
own reader and writer. tests/sim/GadgetHdf5FileTest.cpp runs it with Debian's /usr/bin/python3 (python3-h5py,
python3-numpy).

  write KIND FOLDER SEED   writes fixture KIND into FOLDER and KIND.expected.txt, the bodies a reader must get
      gadget4  one file as GADGET-4 writes it: float32 data, explicit Masses, uint64 ids above 2^32, units in the
               Parameters group, header counts as uint64
      swift    one file as SWIFT writes it: float64 data in gzip-compressed chunks, a Units group, PartType1 massed by
               the MassTable alone, seven-entry header arrays with NumPart_Total_HighWord, BoxSize as three sides,
               signed 64-bit ids, Time and Redshift as arrays of one
      split    one snapshot in three files split.0.hdf5 .. split.2.hdf5: float32 data, AREPO-style units in the
               Header, signed 32-bit counts, PartType4 without ParticleIDs, an empty PartType1 group in one piece
  bad CASE FILE            writes one malformed snapshot (the cases are listed in BAD_CASES)
  check FILE EXPECTED      checks a file Gravlab wrote: header attributes and their types, dataset shapes and types,
                           and every value bit for bit against EXPECTED (the bodies it was given, same text format)
  corpus FOLDER            writes the fuzzer's seed files: tiny valid files of each kind and a few broken ones

Expected text: 'time HEX', 'redshift HEX', 'boxsize HEX', then 'units none' or 'units L M V' (cgs scales of
length, mass and velocity), 'bodies N' and one line per body 'TYPE ID X Y Z VX VY VZ MASS'. Reals are float.hex()
of the value the reader must produce (floats of the data, so float32 values; header values stay doubles). The
bodies are listed in the order a reader gives them: by particle type, then by file, then by row.
"""
import os
import sys

import h5py
import numpy as np

TYPE_COUNT = 6


def hex32(value):
    return float(np.float32(value)).hex()


class Expected:
    def __init__(self, time, redshift, box_size, units):
        self.header = [f"time {float(time).hex()}", f"redshift {float(redshift).hex()}",
                       f"boxsize {float(box_size).hex()}",
                       "units none" if units is None else "units " + " ".join(float(u).hex() for u in units)]
        self.bodies = []

    def add(self, part_type, ids, pos, vel, mass):
        for i in range(len(ids)):
            reals = list(pos[i]) + list(vel[i]) + [mass[i]]
            self.bodies.append(f"{part_type} {int(ids[i])} " + " ".join(hex32(v) for v in reals))

    def write(self, path):
        with open(path, "w") as out:
            out.write("\n".join(self.header + [f"bodies {len(self.bodies)}"] + self.bodies) + "\n")


def random_part(rng, count, dtype):
    pos = (rng.standard_normal((count, 3)) * 40.0).astype(dtype)
    vel = (rng.standard_normal((count, 3)) * 150.0).astype(dtype)
    mass = rng.uniform(1e-3, 3.0, count).astype(dtype)
    return pos, vel, mass


def write_gadget4(folder, seed, counts=(5, 40, 0, 0, 7, 1)):
    rng = np.random.default_rng(seed)
    path = os.path.join(folder, "gadget4.hdf5")
    time, redshift, box = rng.uniform(0.1, 1.0), rng.uniform(0.0, 5.0), rng.uniform(10, 1000)
    units = (3.085678e21 * rng.uniform(0.5, 2), 1.989e43 * rng.uniform(0.5, 2), 1e5 * rng.uniform(0.5, 2))
    expected = Expected(time, redshift, box, units)
    with h5py.File(path, "w") as f:
        header = f.create_group("Header")
        header.attrs["NumPart_ThisFile"] = np.array(counts, dtype=np.uint64)
        header.attrs["NumPart_Total"] = np.array(counts, dtype=np.uint64)
        header.attrs["MassTable"] = np.zeros(TYPE_COUNT)
        header.attrs["Time"] = np.float64(time)
        header.attrs["Redshift"] = np.float64(redshift)
        header.attrs["BoxSize"] = np.float64(box)
        header.attrs["NumFilesPerSnapshot"] = np.int32(1)
        parameters = f.create_group("Parameters")
        parameters.attrs["UnitLength_in_cm"] = units[0]
        parameters.attrs["UnitMass_in_g"] = units[1]
        parameters.attrs["UnitVelocity_in_cm_per_s"] = units[2]
        parameters.attrs["HubbleParam"] = 1.0
        for part_type, count in enumerate(counts):
            if count == 0:
                continue
            pos, vel, mass = random_part(rng, count, np.float32)
            ids = rng.integers(2**32, 2**63, count, dtype=np.uint64)
            group = f.create_group(f"PartType{part_type}")
            group["Coordinates"] = pos
            group["Velocities"] = vel
            group["Masses"] = mass
            group["ParticleIDs"] = ids
            expected.add(part_type, ids, pos, vel, mass)
    expected.write(os.path.join(folder, "gadget4.expected.txt"))


def write_swift(folder, seed, counts=(30, 25, 0, 0, 0, 0, 0)):
    rng = np.random.default_rng(seed)
    path = os.path.join(folder, "swift.hdf5")
    time, redshift = rng.uniform(0.1, 1.0), rng.uniform(0.0, 5.0)
    sides = np.array([100.0, 150.0, 50.0]) * rng.uniform(0.5, 2)
    length, mass_unit, time_unit = 3.08567758e24, 1.98841e43, 3.08567758e19 * rng.uniform(0.5, 2)
    expected = Expected(time, redshift, sides.max(), (length, mass_unit, length / time_unit))
    table_mass = rng.uniform(0.01, 1.0)
    with h5py.File(path, "w") as f:
        header = f.create_group("Header")
        header.attrs["NumPart_ThisFile"] = np.array(counts, dtype=np.uint64)
        header.attrs["NumPart_Total"] = np.array(counts, dtype=np.uint32)
        header.attrs["NumPart_Total_HighWord"] = np.zeros(len(counts), dtype=np.uint32)
        header.attrs["MassTable"] = np.array([0.0, table_mass] + [0.0] * (len(counts) - 2))
        header.attrs["Time"] = np.array([time])
        header.attrs["Redshift"] = np.array([redshift])
        header.attrs["Scale-factor"] = np.array([1.0 / (1.0 + redshift)])
        header.attrs["BoxSize"] = sides
        header.attrs["NumFilesPerSnapshot"] = np.array([1], dtype=np.int32)
        units = f.create_group("Units")
        units.attrs["Unit length in cgs (U_L)"] = np.array([length])
        units.attrs["Unit mass in cgs (U_M)"] = np.array([mass_unit])
        units.attrs["Unit time in cgs (U_t)"] = np.array([time_unit])
        units.attrs["Unit current in cgs (U_I)"] = np.array([1.0])
        units.attrs["Unit temperature in cgs (U_T)"] = np.array([1.0])
        for part_type in (0, 1):
            pos, vel, mass = random_part(rng, counts[part_type], np.float64)
            ids = rng.integers(0, 2**62, counts[part_type], dtype=np.int64)
            group = f.create_group(f"PartType{part_type}")
            options = dict(chunks=True, compression="gzip", shuffle=True)
            group.create_dataset("Coordinates", data=pos, **options)
            group.create_dataset("Velocities", data=vel, **options)
            group.create_dataset("ParticleIDs", data=ids, **options)
            if part_type == 0:
                group.create_dataset("Masses", data=mass, **options)
            else:
                mass = np.full(counts[part_type], table_mass)
            expected.add(part_type, ids, pos, vel, mass)
    expected.write(os.path.join(folder, "swift.expected.txt"))


def write_split(folder, seed, pieces=((10, 0), (0, 3), (6, 2))):
    """pieces: (PartType1, PartType4) counts of each file."""
    rng = np.random.default_rng(seed)
    totals = [sum(piece[i] for piece in pieces) for i in range(2)]
    counts_of = lambda piece: [0, piece[0], 0, 0, piece[1], 0]
    time, box = rng.uniform(0.1, 1.0), rng.uniform(10, 1000)
    units = (3.085678e21, 1.989e43, 1e5 * rng.uniform(0.5, 2))
    expected = Expected(time, 0.0, box, units)
    parts = {1: [], 4: []}
    for index, piece in enumerate(pieces):
        with h5py.File(os.path.join(folder, f"split.{index}.hdf5"), "w") as f:
            header = f.create_group("Header")
            header.attrs["NumPart_ThisFile"] = np.array(counts_of(piece), dtype=np.int32)
            header.attrs["NumPart_Total"] = np.array(counts_of(totals), dtype=np.uint32)
            header.attrs["NumPart_Total_HighWord"] = np.zeros(TYPE_COUNT, dtype=np.uint32)
            header.attrs["MassTable"] = np.zeros(TYPE_COUNT)
            header.attrs["Time"] = time
            header.attrs["BoxSize"] = box
            header.attrs["NumFilesPerSnapshot"] = np.int32(len(pieces))
            header.attrs["UnitLength_in_cm"] = units[0]
            header.attrs["UnitMass_in_g"] = units[1]
            header.attrs["UnitVelocity_in_cm_per_s"] = units[2]
            for part_type, count in ((1, piece[0]), (4, piece[1])):
                if count == 0 and not (part_type == 1 and index == 1):
                    continue  # piece 1 keeps an empty PartType1 group, as some writers do
                pos, vel, mass = random_part(rng, count, np.float32)
                group = f.create_group(f"PartType{part_type}")
                group["Coordinates"] = pos
                group["Velocities"] = vel
                group["Masses"] = mass
                if part_type == 1:
                    ids = rng.integers(0, 2**64 - 1, count, dtype=np.uint64)
                    group["ParticleIDs"] = ids
                else:
                    ids = None
                parts[part_type].append((ids, pos, vel, mass))
    position = 0
    for part_type in (1, 4):
        for ids, pos, vel, mass in parts[part_type]:
            if ids is None:  # no ParticleIDs: the reader numbers bodies by their place in the snapshot
                ids = np.arange(position, position + len(mass))
            expected.add(part_type, ids, pos, vel, mass)
            position += len(mass)
    expected.write(os.path.join(folder, "split.expected.txt"))


def minimal(path, count=8, dtype=np.float32, change=None, header_counts=None, masses=True):
    """A small valid PartType1 snapshot; change(file) breaks it afterwards."""
    rng = np.random.default_rng(7)
    with h5py.File(path, "w") as f:
        header = f.create_group("Header")
        counts = header_counts if header_counts is not None else [0, count, 0, 0, 0, 0]
        header.attrs["NumPart_ThisFile"] = np.array(counts, dtype=np.uint64)
        header.attrs["NumPart_Total"] = np.array(counts, dtype=np.uint64)
        header.attrs["MassTable"] = np.zeros(TYPE_COUNT)
        header.attrs["Time"] = 0.5
        header.attrs["NumFilesPerSnapshot"] = np.int32(1)
        group = f.create_group("PartType1")
        pos, vel, mass = random_part(rng, count, dtype)
        group["Coordinates"] = pos
        group["Velocities"] = vel
        if masses:
            group["Masses"] = mass
        group["ParticleIDs"] = np.arange(count, dtype=np.uint64)
        if change:
            change(f)


def replace(f, name, data):
    del f[name]
    f[name] = data


def set_value(name, index, value):
    def change(f):
        data = f[name][()]
        data[index] = value
        replace(f, name, data)
    return change


def write_external_link(path):
    target = path + ".target.hdf5"
    minimal(target)
    minimal(path, change=lambda f: (f.__delitem__("PartType1"),
                                    f.__setitem__("PartType1", h5py.ExternalLink(os.path.basename(target),
                                                                                 "/PartType1"))))


BAD_CASES = {
    "no-header": lambda p: minimal(p, change=lambda f: f.__delitem__("Header")),
    "no-parttype": lambda p: minimal(p, header_counts=[0] * TYPE_COUNT, change=lambda f: f.__delitem__("PartType1")),
    "missing-group": lambda p: minimal(p, change=lambda f: f.__delitem__("PartType1")),
    "huge-header": lambda p: minimal(p, header_counts=[0, 10**12, 0, 0, 0, 0]),
    "count-mismatch": lambda p: minimal(p, count=1000, header_counts=[0, 999, 0, 0, 0, 0]),
    "wrong-shape": lambda p: minimal(p, change=lambda f: replace(f, "PartType1/Coordinates",
                                                                 np.ones((8, 4), dtype=np.float32))),
    "integer-coordinates": lambda p: minimal(p, change=lambda f: replace(f, "PartType1/Coordinates",
                                                                         np.ones((8, 3), dtype=np.int32))),
    "half-floats": lambda p: minimal(p, change=lambda f: replace(f, "PartType1/Coordinates",
                                                                 np.ones((8, 3), dtype=np.float16))),
    "nan": lambda p: minimal(p, change=set_value("PartType1/Coordinates", (3, 1), np.nan)),
    "float-overflow": lambda p: minimal(p, dtype=np.float64,
                                        change=set_value("PartType1/Velocities", (5, 2), 1e300)),
    "zero-mass": lambda p: minimal(p, change=set_value("PartType1/Masses", 2, 0.0)),
    "negative-mass": lambda p: minimal(p, change=set_value("PartType1/Masses", 4, -1.5)),
    "no-mass": lambda p: minimal(p, masses=False),
    "negative-id": lambda p: minimal(p, change=lambda f: replace(f, "PartType1/ParticleIDs",
                                                                 np.array([0, 1, 2, -3, 4, 5, 6, 7], np.int64))),
    "external-link": write_external_link,
}


def check_written(path, expected_path):
    problems = []
    lines = open(expected_path).read().split("\n")
    header_lines = dict(line.split(" ", 1) for line in lines[:5])
    body_count = int(lines[4].split()[1])
    bodies = [line.split() for line in lines[5:5 + body_count]]
    by_type = {t: [b for b in bodies if int(b[0]) == t] for t in range(TYPE_COUNT)}
    counts = np.array([len(by_type[t]) for t in range(TYPE_COUNT)], dtype=np.uint64)

    def expect(condition, text):
        if not condition:
            problems.append(text)

    def expect_attribute(group, name, dtype, value):
        attribute = group.attrs.get(name)
        if attribute is None:
            problems.append(f"{group.name} has no attribute {name}")
            return
        attribute = np.asarray(attribute)
        expect(attribute.dtype == np.dtype(dtype), f"{group.name}/{name} is {attribute.dtype}, expected {dtype}")
        expect(attribute.shape == np.shape(value), f"{group.name}/{name} has shape {attribute.shape}")
        expect(np.array_equal(attribute, np.asarray(value)), f"{group.name}/{name} is {attribute}, expected {value}")

    with h5py.File(path, "r") as f:
        header = f["Header"]
        expect_attribute(header, "NumPart_ThisFile", np.uint64, counts)
        expect_attribute(header, "NumPart_Total", np.uint64, counts)
        expect_attribute(header, "NumPart_Total_HighWord", np.uint32, np.zeros(TYPE_COUNT, dtype=np.uint32))
        expect_attribute(header, "MassTable", np.float64, np.zeros(TYPE_COUNT))
        expect_attribute(header, "Time", np.float64, float.fromhex(header_lines["time"]))
        expect_attribute(header, "Redshift", np.float64, float.fromhex(header_lines["redshift"]))
        expect_attribute(header, "BoxSize", np.float64, float.fromhex(header_lines["boxsize"]))
        expect_attribute(header, "NumFilesPerSnapshot", np.int32, 1)
        if header_lines["units"] == "none":
            expect("Units" not in f and "Parameters" not in f, "units written for a snapshot without units")
        else:
            length, mass, velocity = (float.fromhex(v) for v in header_lines["units"].split())
            parameters = f["Parameters"]
            expect_attribute(parameters, "UnitLength_in_cm", np.float64, length)
            expect_attribute(parameters, "UnitMass_in_g", np.float64, mass)
            expect_attribute(parameters, "UnitVelocity_in_cm_per_s", np.float64, velocity)
            units = f["Units"]
            expect_attribute(units, "Unit length in cgs (U_L)", np.float64, [length])
            expect_attribute(units, "Unit mass in cgs (U_M)", np.float64, [mass])
            expect_attribute(units, "Unit time in cgs (U_t)", np.float64, [length / velocity])
        for part_type in range(TYPE_COUNT):
            name = f"PartType{part_type}"
            rows = by_type[part_type]
            if not rows:
                expect(name not in f, f"{name} written though no body has that type")
                continue
            if name not in f:
                problems.append(f"{name} is missing")
                continue
            group = f[name]
            shapes = {"Coordinates": ((len(rows), 3), np.float32), "Velocities": ((len(rows), 3), np.float32),
                      "Masses": ((len(rows),), np.float32), "ParticleIDs": ((len(rows),), np.uint64)}
            for dataset, (shape, dtype) in shapes.items():
                data = group[dataset]
                expect(data.shape == shape, f"{name}/{dataset} has shape {data.shape}, expected {shape}")
                expect(data.dtype == np.dtype(dtype), f"{name}/{dataset} is {data.dtype}, expected {dtype}")
                expect(data.chunks is None and data.compression is None, f"{name}/{dataset} is chunked/compressed")
            want = np.array([[float.fromhex(v) for v in row[2:]] for row in rows], dtype=np.float32)
            got = np.hstack([group["Coordinates"][()], group["Velocities"][()], group["Masses"][()][:, None]])
            mismatch = np.flatnonzero(np.any(want.view(np.uint32) != got.view(np.uint32), axis=1))
            expect(mismatch.size == 0, f"{name} row(s) {mismatch[:5]} differ in their bits")
            ids = np.array([int(row[1]) for row in rows], dtype=np.uint64)
            expect(np.array_equal(ids, group["ParticleIDs"][()]), f"{name}/ParticleIDs differ")
    if problems:
        print("h5py check of " + path + ":\n  " + "\n  ".join(problems))
        return 1
    print(f"h5py check of {path}: header, {int(counts.sum())} bodies and units as expected")
    return 0


def write_corpus(folder):
    os.makedirs(folder, exist_ok=True)
    scratch = os.path.join(folder, ".scratch")
    os.makedirs(scratch, exist_ok=True)
    write_gadget4(scratch, 1, counts=(1, 3, 0, 0, 2, 0))
    write_swift(scratch, 2, counts=(2, 3, 0, 0, 0, 0, 0))
    write_split(scratch, 3, pieces=((2, 0), (0, 1), (1, 1)))
    os.replace(os.path.join(scratch, "gadget4.hdf5"), os.path.join(folder, "gadget4.hdf5"))
    os.replace(os.path.join(scratch, "swift.hdf5"), os.path.join(folder, "swift.hdf5"))
    os.replace(os.path.join(scratch, "split.0.hdf5"), os.path.join(folder, "split_piece.hdf5"))
    minimal(os.path.join(folder, "minimal.hdf5"), count=3)
    minimal(os.path.join(folder, "minimal_masstable.hdf5"), count=3, masses=False,
            change=lambda f: f["Header"].attrs.__setitem__("MassTable", np.array([0, 2.5, 0, 0, 0, 0])))
    for case in ("nan", "huge-header", "wrong-shape", "negative-id", "external-link"):
        BAD_CASES[case](os.path.join(folder, f"bad_{case}.hdf5"))
    os.remove(os.path.join(folder, "bad_external-link.hdf5.target.hdf5"))
    minimal(os.path.join(folder, "bad_count-mismatch.hdf5"), count=10, header_counts=[0, 9, 0, 0, 0, 0])
    whole = open(os.path.join(folder, "gadget4.hdf5"), "rb").read()
    open(os.path.join(folder, "bad_truncated.hdf5"), "wb").write(whole[:len(whole) // 2])
    for name in os.listdir(scratch):
        os.remove(os.path.join(scratch, name))
    os.rmdir(scratch)


def main(argv):
    if len(argv) == 4 and argv[0] == "write":
        {"gadget4": write_gadget4, "swift": write_swift, "split": write_split}[argv[1]](argv[2], int(argv[3]))
    elif len(argv) == 3 and argv[0] == "bad":
        BAD_CASES[argv[1]](argv[2])
    elif len(argv) == 3 and argv[0] == "check":
        return check_written(argv[1], argv[2])
    elif len(argv) == 2 and argv[0] == "corpus":
        write_corpus(argv[1])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
