"""Shared fixtures of the gravlab module's tests: fresh random inputs per run, with the seed printed on failure.

Set GRAVLAB_TEST_SEED=<n> to repeat a run's inputs. pytest shows a failing test's captured output, which holds the
seed line.
"""
import os
import secrets

import numpy as np
import pytest


@pytest.fixture
def rng():
    seed = int(os.environ.get("GRAVLAB_TEST_SEED", secrets.randbits(63)))
    print(f"random inputs: GRAVLAB_TEST_SEED={seed}")
    return np.random.default_rng(seed)


def plummer_like(rng, count):
    """Bodies of a softened cloud: Gaussian positions, small random velocities, unequal masses summing to 1."""
    positions = rng.normal(size=(count, 3))
    velocities = 0.3 * rng.normal(size=(count, 3))
    masses = rng.uniform(0.5, 1.5, size=count)
    return positions, velocities, masses / masses.sum()
