"""Parameters by keyword: what set() changes, what params reports, the registries and the units."""
import threading

import numpy as np
import pytest

import gravlab


def test_params_report_what_was_asked_and_round_trip_through_set():
    simulation = gravlab.Simulation("cold-cube", bodies=200, seed=3, backend="cpu", dt=0.002, softening=0.02,
                                    G=2.5, theta=0.7, solver="tree", orb_domains=4, orb_balance="work",
                                    orb_every=8, orb_imbalance=1.5, time_steps="hierarchical", eta=0.1, max_level=5,
                                    level_choice="symmetric")
    assert simulation.params == {
        "dt": 0.002, "softening": 0.02, "G": 2.5, "theta": 0.7, "opening": "relative", "force_accuracy": 0.0025,
        "solver": "tree", "backend": "cpu",
        "precision": "single", "orb_domains": 4, "orb_balance": "work", "orb_every": 8, "orb_imbalance": 1.5,
        "time_steps": "hierarchical", "eta": 0.1, "max_level": 5, "level_choice": "symmetric",
        "scenario": "cold-cube",
        "scenario_params": {}, "bodies": 200, "seed": 3, "file": None, "format": None, "recentre": False,
    }
    simulation.step(3)
    simulation.set(**simulation.params)  # nothing changes: the bodies are not regenerated
    assert simulation.step_count == 3


def test_precision_converts_the_state_in_place():
    simulation = gravlab.Simulation("kepler-binary", bodies=2, backend="cpu", solver="direct-fp64",
                                    precision="double")
    assert simulation.params["precision"] == "double"
    simulation.step(10)
    simulation.set(precision="single")  # the state is converted, not regenerated
    assert simulation.params["precision"] == "single" and simulation.step_count == 10


def test_dt_applies_from_the_next_step_without_regenerating():
    simulation = gravlab.Simulation(bodies=100, backend="cpu", dt=0.01)
    simulation.step(10)
    positions = simulation.positions
    simulation.set(dt=0.001)
    assert np.array_equal(simulation.positions, positions) and simulation.step_count == 10
    simulation.step(10)
    assert np.isclose(simulation.time, 10 * 0.01 + 10 * 0.001, rtol=1e-12)


def test_a_new_scenario_or_body_count_regenerates_the_bodies():
    simulation = gravlab.Simulation(bodies=100, backend="cpu")
    simulation.step(5)
    simulation.set(scenario="disk-galaxy", bodies=300)
    assert simulation.body_count == 300 and simulation.step_count == 0
    assert np.array_equal(simulation.positions, gravlab.Simulation("disk-galaxy", bodies=300).positions)


def test_scenario_params_regenerate_and_are_checked_against_the_scenario():
    simulation = gravlab.Simulation("plummer", bodies=500, seed=5, backend="cpu")
    simulation.step(2)
    simulation.set(scenario_params={"virial-ratio": 0.5})
    assert simulation.step_count == 0 and simulation.params["scenario_params"] == {"virial-ratio": 0.5}
    # The virial ratio scales every velocity by sqrt(ratio) (the centre-of-mass drift removed after it scales alike).
    equilibrium = gravlab.Simulation("plummer", bodies=500, seed=5, backend="cpu")
    assert np.allclose(simulation.velocities, equilibrium.velocities * np.sqrt(0.5), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="'mass' is not one of scenario 'plummer': allowed 'virial-ratio'"):
        simulation.set(scenario_params={"mass": 1.0})
    with pytest.raises(ValueError, match="allowed 0 <= virial-ratio <= 3"):
        simulation.set(scenario_params={"virial-ratio": 4})
    with pytest.raises(TypeError, match="scenario_params must be a dict"):
        simulation.set(scenario_params=0.5)


def test_solver_none_picks_the_devices_default():
    simulation = gravlab.Simulation(bodies=64, backend="cpu", solver="tree")
    simulation.set(solver=None)
    assert simulation.params["solver"] == "direct"  # the CPU's default; a GPU's is the tree
    assert simulation.device == "cpu" and simulation.backend.startswith("CPU")


def test_registries_list_their_names():
    assert {"plummer", "cold-cube", "disk-galaxy", "galaxy-collision"} <= set(gravlab.scenarios())
    solvers = gravlab.solvers()
    assert solvers["direct"]["devices"] == ["cpu", "cuda"] and not solvers["direct"]["uses_theta"]
    assert solvers["tree"]["uses_theta"]
    assert set(gravlab.snapshot_formats()) == {"tipsy", "tipsy-native", "hdf5", "csv"}


def test_units_from_arrays_set_g():
    kpc, msun = 3.085677581491367e21, 1.98841e33
    units = gravlab.Units(kpc, 1e10 * msun, 1e5)
    assert units.physical and units.length_name == "kpc" and units.mass_name == "1e10 Msun"
    # G in kpc, 1e10 Msun and km/s from its cgs value: 6.6743e-8 * M / (L V^2).
    assert np.isclose(units.G, 6.67430e-8 * 1e10 * msun / (kpc * 1e10), rtol=1e-12)
    assert units == gravlab.Units.gadget()
    positions = np.array([[-1.0, 0, 0], [1.0, 0, 0]])
    simulation = gravlab.Simulation.from_arrays(positions, np.zeros((2, 3)), np.array([1.0, 1.0]), units=units,
                                                backend="cpu")
    assert simulation.units == units
    assert np.isclose(simulation.params["G"], units.G)
    assert gravlab.Simulation(bodies=10).units == gravlab.Units.nbody()
    with pytest.raises(ValueError, match="length_in_cm = -1.* must be finite numbers > 0"):
        gravlab.Units(-1, 1, 1)
    with pytest.raises(TypeError, match="units must be a gravlab.Units or None, got str"):
        gravlab.Simulation.from_arrays(positions, np.zeros((2, 3)), np.array([1.0, 1.0]), units="kpc")


def test_threads_share_a_simulation_safely():
    simulation = gravlab.Simulation(bodies=200, backend="cpu")
    errors = []

    def step_and_read():
        try:
            for _ in range(20):
                simulation.step(2)
                assert simulation.positions.shape == (200, 3)
        except Exception as error:  # reported below: an assertion in a thread would be lost
            errors.append(error)

    threads = [threading.Thread(target=step_and_read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert simulation.step_count == 4 * 20 * 2
