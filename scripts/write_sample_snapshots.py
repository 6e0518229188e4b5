#!/usr/bin/env python3
"""Writes a Plummer sphere of N bodies as a GADGET-4 HDF5 snapshot (h5py) and as a big-endian tipsy file (numpy),
independently of Gravlab's own writers, so that loading them checks Gravlab's readers on files other codes' layouts
produce. Used by scripts/gpu_check.sh; also a small example of both layouts.

Usage: write_sample_snapshots.py N OUTDIR   ->  OUTDIR/plummer_N.hdf5, OUTDIR/plummer_N.tipsy
Units: N-body (G = 1); the HDF5 file states GADGET's kpc, 1e10 Msun, km/s so that loading it exercises units too.
"""
import sys

import h5py
import numpy as np


def plummer(count, rng):
    """Positions from the Plummer density (scale radius 1) and isotropic velocities with the virial dispersion."""
    radius = 1.0 / np.sqrt(rng.uniform(1e-6, 1.0, count) ** (-2.0 / 3.0) - 1.0)
    direction = rng.normal(size=(count, 3))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    positions = radius[:, None] * direction
    sigma = np.sqrt(1.0 / (6.0 * np.sqrt(1.0 + radius**2)))
    velocities = rng.normal(size=(count, 3)) * sigma[:, None]
    return positions.astype(np.float32), velocities.astype(np.float32)


def write_gadget4(path, positions, velocities, masses, ids):
    count = len(masses)
    with h5py.File(path, "w") as f:
        header = f.create_group("Header")
        header.attrs["NumPart_ThisFile"] = np.array([0, count, 0, 0, 0, 0], dtype=np.uint64)
        header.attrs["NumPart_Total"] = np.array([0, count, 0, 0, 0, 0], dtype=np.uint64)
        header.attrs["MassTable"] = np.zeros(6)
        header.attrs["Time"] = 0.0
        header.attrs["Redshift"] = 0.0
        header.attrs["BoxSize"] = 0.0
        header.attrs["NumFilesPerSnapshot"] = 1
        parameters = f.create_group("Parameters")
        parameters.attrs["UnitLength_in_cm"] = 3.085678e21
        parameters.attrs["UnitMass_in_g"] = 1.989e43
        parameters.attrs["UnitVelocity_in_cm_per_s"] = 1e5
        part = f.create_group("PartType1")
        part.create_dataset("Coordinates", data=positions)
        part.create_dataset("Velocities", data=velocities)
        part.create_dataset("Masses", data=masses)
        part.create_dataset("ParticleIDs", data=ids)


def write_tipsy(path, positions, velocities, masses):
    """XDR tipsy: big-endian header (time, n, ndim, nsph, ndark, nstar) and dark records (m, pos, vel, eps, phi)."""
    count = len(masses)
    header = np.array([(0.0, count, 3, 0, count, 0)],
                      dtype=[("time", ">f8"), ("n", ">i4"), ("ndim", ">i4"), ("nsph", ">i4"), ("ndark", ">i4"),
                             ("nstar", ">i4")])
    dark = np.zeros(count, dtype=[("mass", ">f4"), ("pos", ">f4", 3), ("vel", ">f4", 3), ("eps", ">f4"),
                                  ("phi", ">f4")])
    dark["mass"], dark["pos"], dark["vel"], dark["eps"] = masses, positions, velocities, 0.01
    with open(path, "wb") as f:
        f.write(header.tobytes())
        f.write(dark.tobytes())


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    count, folder = int(sys.argv[1]), sys.argv[2]
    rng = np.random.default_rng(2026)
    positions, velocities = plummer(count, rng)
    masses = np.full(count, 1.0 / count, dtype=np.float32)
    ids = np.arange(1, count + 1, dtype=np.uint64) + (1 << 33)  # ids above 2^32, as large runs have
    write_gadget4(f"{folder}/plummer_{count}.hdf5", positions, velocities, masses, ids)
    write_tipsy(f"{folder}/plummer_{count}.tipsy", positions, velocities, masses)


if __name__ == "__main__":
    main()
