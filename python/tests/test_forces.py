"""Accelerations read through the module against a numpy fp64 direct sum with the same softening."""
import numpy as np
import pytest

import gravlab
from conftest import plummer_like


def accelerations_fp64(positions, masses, gravitational_constant, softening):
    """a_i = G sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2) in fp64, and per body the sum of the terms'
    magnitudes (the scale float rounding errors are proportional to)."""
    positions = positions.astype(np.float64)
    masses = masses.astype(np.float64)
    separations = positions[None, :, :] - positions[:, None, :]  # [i, j] = x_j - x_i
    squared = np.sum(separations**2, axis=2) + softening**2
    weights = gravitational_constant * masses[None, :] / (squared * np.sqrt(squared))
    accelerations = np.sum(weights[:, :, None] * separations, axis=1)
    magnitude_sums = np.sum(weights * np.sqrt(squared - softening**2), axis=1)
    return accelerations, magnitude_sums


def test_direct_solver_matches_fp64_direct_sum(rng):
    count = int(rng.integers(200, 800))
    gravitational_constant = rng.uniform(0.5, 2.0)
    softening = rng.uniform(0.01, 0.1)
    positions, velocities, masses = plummer_like(rng, count)
    simulation = gravlab.Simulation.from_arrays(positions, velocities, masses, backend="cpu", solver="direct",
                                                G=gravitational_constant, softening=softening)
    # The reference sums the float32 values the simulation holds, so only the solver's arithmetic differs.
    reference, magnitude_sums = accelerations_fp64(simulation.positions, simulation.masses, gravitational_constant,
                                                   softening)
    accelerations = simulation.accelerations()
    assert accelerations.shape == (count, 3) and accelerations.dtype == np.float32
    errors = np.linalg.norm(accelerations - reference, axis=1)
    relative = errors / np.linalg.norm(reference, axis=1)
    print(f"N = {count}, G = {gravitational_constant:.4g}, softening = {softening:.4g}: worst relative error "
          f"{relative.max():.3g}, median {np.median(relative):.3g}")
    # Each float32 term carries a few eps_f (6e-8) of relative error and their sum a random walk of eps_f sqrt(N) times
    # the sum of the terms' magnitudes S_i, ~2e-6 S_i at N = 800. 150 seeds measured at most 4.4e-7 S_i, so every
    # body's error is bounded by 1e-5 S_i (a margin of 20). Relative to the net force, 150 seeds measured at most
    # 1.2e-7 for the median body (bound 1e-6) and 7e-7 for the 99th percentile (bound 1e-5); only single bodies near
    # the centre, whose terms nearly cancel, come near 1e-5 (the worst of 150 seeds: 8e-6), so the largest is not
    # bounded. A wrong G, softening or mass factor errs by orders of magnitude more.
    assert np.all(errors < 1e-5 * magnitude_sums)
    assert np.median(relative) < 1e-6
    assert np.percentile(relative, 99) < 1e-5


def test_tree_solver_approximates_the_direct_sum(rng):
    positions, velocities, masses = plummer_like(rng, 2000)
    simulation = gravlab.Simulation.from_arrays(positions, velocities, masses, backend="cpu", solver="tree",
                                                theta=0.5, softening=0.05)
    reference, _ = accelerations_fp64(simulation.positions, simulation.masses, 1.0, 0.05)
    relative = np.linalg.norm(simulation.accelerations() - reference, axis=1) / np.linalg.norm(reference, axis=1)
    # Barnes-Hut with quadrupoles at theta = 0.5: median errors of 1e-4 to 1e-3; a direct sum gives ~1e-7, so the
    # lower bound shows the tree really ran, and a broken walk is off by far more than 1e-2.
    print(f"tree, theta 0.5: median relative error {np.median(relative):.3g}")
    assert 1e-6 < np.median(relative) < 1e-2


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_arrays_of_any_dtype_and_layout_are_accepted(rng, dtype):
    positions = (rng.uniform(-10, 10, size=(3, 50)).astype(dtype)).T  # a transposed, non-contiguous view
    velocities = np.zeros((50, 3), dtype=dtype)
    masses = np.ones(50, dtype=dtype)
    simulation = gravlab.Simulation.from_arrays(positions, velocities, masses, backend="cpu")
    assert np.array_equal(simulation.positions, positions.astype(np.float32))
    assert np.array_equal(simulation.masses, np.ones(50, dtype=np.float32))
