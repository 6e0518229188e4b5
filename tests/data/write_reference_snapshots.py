#!/usr/bin/env python3
"""Snapshots written with Python's struct and csv modules, independently of Gravlab's writers, plus what they hold.

The C++ tests (tests/sim/TipsyFileTest.cpp, CsvFileTest.cpp, SnapshotFilesTest.cpp) run this with a fresh seed and
check that Gravlab's readers get every value bit for bit. Written into OUT:
  big.tipsy        big-endian XDR tipsy: 28-byte header, gas, dark and star records, no ids
  big_padded.std   the same with the header padded to 32 bytes, as some XDR writers do
  native.bin       little-endian tipsy: 32-byte header, int32 ids in each record's last field
  ids.csv          CSV with an id column: a comment line, spaces around fields, CRLF line ends, a final newline
  plain.csv        CSV without ids (csv.writer): LF line ends, no final newline
and for each of them NAME.expected: "time HEX" (float.hex of the header's double; 0 for CSV), then one line per body
in file order: "component id mass x y z vx vy vz", the floats as float.hex() of their float32 values.
Values are random float32 bit patterns: every exponent, subnormals and -0, all finite, masses positive. The tipsy
fields Gravlab does not keep (rho, temp, eps, phi, ...) get random bit patterns, NaN included, which a reader must
skip without looking at them.
"""
import argparse
import csv
import math
import os
import random
import struct

GAS, DARK, STAR = 0, 1, 4
# Floats per record: the seven Gravlab keeps (mass, pos, vel), then the ones it skips, the last being phi or the id.
RECORD_FLOATS = {GAS: 12, DARK: 9, STAR: 11}
EXTREMES = [
    struct.unpack("<f", struct.pack("<I", 1))[0],  # smallest subnormal
    struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0],  # largest finite
    -0.0,
    -struct.unpack("<f", struct.pack("<I", 0x00800000))[0],  # smallest normal, negated
]


def float32_from_bits(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def random_float32(rng):
    while True:
        value = float32_from_bits(rng.getrandbits(32))
        if math.isfinite(value):
            return value


def random_mass(rng):
    while True:
        value = abs(random_float32(rng))
        if value > 0:
            return value


def random_bodies(rng, components):
    """One dict per body: component, mass, pos, vel; the first body carries the extreme values."""
    bodies = []
    for index, component in enumerate(components):
        pos = [random_float32(rng) for _ in range(3)]
        vel = [random_float32(rng) for _ in range(3)]
        mass = random_mass(rng)
        if index == 0:
            pos, vel = EXTREMES[:3], EXTREMES[1:]
            mass = EXTREMES[0]
        bodies.append({"component": component, "mass": mass, "pos": pos, "vel": vel})
    return bodies


def tipsy_bytes(bodies, time, endian, header_bytes, ids, rng):
    """bodies must be ordered gas, dark, star. ids: None for XDR tipsy (no ids), else one int32 per body."""
    counts = [sum(1 for body in bodies if body["component"] == kind) for kind in (GAS, DARK, STAR)]
    header = struct.pack(endian + "d5i", time, len(bodies), 3, *counts)
    data = bytearray(header + bytes(header_bytes - len(header)))
    for index, body in enumerate(bodies):
        unkept = RECORD_FLOATS[body["component"]] - 7
        data += struct.pack(endian + "7f", body["mass"], *body["pos"], *body["vel"])
        data += struct.pack(endian + f"{unkept - 1}I", *[rng.getrandbits(32) for _ in range(unkept - 1)])
        data += struct.pack(endian + "i", ids[index]) if ids else struct.pack(endian + "I", rng.getrandbits(32))
    return bytes(data)


def expected_text(bodies, time, ids):
    lines = [f"time {float(time).hex()}"]
    for index, body in enumerate(bodies):
        floats = [body["mass"], *body["pos"], *body["vel"]]
        lines.append(" ".join([str(body["component"]), str(ids[index])] + [value.hex() for value in floats]))
    return "\n".join(lines) + "\n"


def write(out, name, content, bodies, time, ids):
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(os.path.join(out, name), mode, **({} if mode == "wb" else {"newline": ""})) as file:
        file.write(content)
    with open(os.path.join(out, name + ".expected"), "w") as file:
        file.write(expected_text(bodies, time, ids))


def random_time(rng):
    while True:
        time = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if math.isfinite(time):
            return time


def write_tipsy_files(out, rng):
    components = [GAS] * rng.randint(1, 12) + [DARK] * rng.randint(1, 12) + [STAR] * rng.randint(1, 12)
    bodies = random_bodies(rng, components)
    indices = list(range(len(bodies)))
    for name, header_bytes in (("big.tipsy", 28), ("big_padded.std", 32)):
        time = random_time(rng)
        write(out, name, tipsy_bytes(bodies, time, ">", header_bytes, None, rng), bodies, time, indices)
    ids = rng.sample(range(2**31), len(bodies))
    ids[-1] = 2**31 - 1  # the largest id an int32 holds
    time = random_time(rng)
    write(out, "native.bin", tipsy_bytes(bodies, time, "<", 32, ids, rng), bodies, time, ids)


def csv_row(body):
    # repr of the float32 value (held in a double) is a decimal that rounds back to exactly that float32.
    return [repr(value) for value in [*body["pos"], *body["vel"], body["mass"]]]


def write_csv_files(out, rng):
    bodies = random_bodies(rng, [DARK] * rng.randint(1, 40))
    ids = [rng.getrandbits(64) for _ in bodies]
    ids[-1] = 2**64 - 1
    lines = ["# written by write_reference_snapshots.py", " x, y ,z,vx , vy,vz,m ,id "]
    lines += [", ".join(csv_row(body) + [str(ids[index])]) for index, body in enumerate(bodies)]
    write(out, "ids.csv", "\r\n".join(lines) + "\r\n", bodies, 0.0, ids)

    bodies = random_bodies(rng, [DARK] * rng.randint(1, 40))
    path = os.path.join(out, "plain.csv")
    with open(path, "w", newline="") as file:
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow(["x", "y", "z", "vx", "vy", "vz", "m"])
        writer.writerows(csv_row(body) for body in bodies)
    with open(path, "rb+") as file:  # no newline after the last row
        file.truncate(os.path.getsize(path) - 1)
    with open(path + ".expected", "w") as file:
        file.write(expected_text(bodies, 0.0, list(range(len(bodies)))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", required=True, help="existing folder to write into")
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    write_tipsy_files(arguments.out, rng)
    write_csv_files(arguments.out, rng)


if __name__ == "__main__":
    main()
