"""Who a body is (id, component, mass) survives steps and reorders; reset() returns to the given arrays exactly."""
import numpy as np
import pytest

import gravlab
from conftest import plummer_like


def given_bodies(rng, count):
    positions, velocities, masses = plummer_like(rng, count)
    # Unique ids over the whole uint64 range (above 2^63 too) and every particle type.
    ids = rng.integers(0, np.iinfo(np.uint64).max, size=count, dtype=np.uint64, endpoint=True)
    ids[0] = np.iinfo(np.uint64).max
    assert len(np.unique(ids)) == count  # a collision among 400 draws of 2^64 has probability ~1e-14
    components = rng.integers(0, 6, size=count).astype(np.uint8)
    return positions, velocities, masses, ids, components


@pytest.mark.parametrize("orb_domains", [0, 8])
def test_ids_and_components_come_back_after_steps(rng, orb_domains):
    positions, velocities, masses, ids, components = given_bodies(rng, 400)
    simulation = gravlab.Simulation.from_arrays(positions, velocities, masses, ids=ids, components=components,
                                                backend="cpu", orb_domains=orb_domains, orb_every=4, dt=0.01)
    simulation.step(25)
    out_ids = simulation.ids
    assert out_ids.dtype == np.uint64 and simulation.components.dtype == np.uint8
    assert np.array_equal(np.sort(out_ids), np.sort(ids))
    # Matched by id, every body keeps its component and its mass (all masses differ, so a body whose arrays were
    # reordered apart would show here).
    given_order = np.argsort(ids)
    out_order = np.argsort(out_ids)
    assert np.array_equal(simulation.components[out_order], components[given_order])
    assert np.array_equal(simulation.masses[out_order], masses.astype(np.float32)[given_order])
    if orb_domains == 0:
        assert np.array_equal(out_ids, ids)  # without ORB nothing reorders the bodies
    else:
        assert not np.array_equal(out_ids, ids)  # ORB domains do reorder them: the matching above was needed


def test_bodies_without_ids_are_numbered_as_dark_matter(rng):
    positions, velocities, masses = plummer_like(rng, 30)
    simulation = gravlab.Simulation.from_arrays(positions, velocities, masses, backend="cpu")
    assert np.array_equal(simulation.ids, np.arange(30, dtype=np.uint64))
    assert np.array_equal(simulation.components, np.ones(30, dtype=np.uint8))


@pytest.mark.parametrize("orb_domains", [0, 8])
def test_reset_returns_to_the_given_arrays_exactly(rng, orb_domains):
    positions, velocities, masses, ids, components = given_bodies(rng, 300)
    start_time = rng.uniform(-5.0, 5.0)
    simulation = gravlab.Simulation.from_arrays(positions, velocities, masses, ids=ids, components=components,
                                                time=start_time, backend="cpu", orb_domains=orb_domains)
    simulation.step(30)
    assert simulation.step_count == 30
    assert not np.array_equal(np.sort(simulation.positions[:, 0]), np.sort(positions[:, 0].astype(np.float32)))
    simulation.reset()
    assert simulation.step_count == 0 and simulation.time == start_time
    out = simulation.snapshot()
    order = np.argsort(out["ids"]) if orb_domains else np.arange(300)
    given = np.argsort(ids) if orb_domains else np.arange(300)
    assert np.array_equal(out["ids"][order], ids[given])
    assert np.array_equal(out["components"][order], components[given])
    assert np.array_equal(out["positions"][order], positions.astype(np.float32)[given])
    assert np.array_equal(out["velocities"][order], velocities.astype(np.float32)[given])
    assert np.array_equal(out["masses"][order], masses.astype(np.float32)[given])
    assert out["time"] == start_time


def test_reset_of_a_scenario_regenerates_the_same_bodies():
    simulation = gravlab.Simulation("disk-galaxy", bodies=500, seed=7, backend="cpu")
    start = simulation.positions
    simulation.step(10)
    simulation.reset()
    assert np.array_equal(simulation.positions, start)
    assert simulation.time == 0.0


def test_returned_arrays_own_their_memory_and_are_copies():
    simulation = gravlab.Simulation(bodies=100, backend="cpu")
    positions = simulation.positions
    positions[:] = 0  # writing into the copy leaves the simulation alone
    assert np.any(simulation.positions != 0)
    assert positions.flags["C_CONTIGUOUS"] and positions.flags["WRITEABLE"]
    del simulation
    assert np.all(positions == 0)  # still valid after the simulation is gone
