"""Bad inputs raise Python's exceptions with messages that say what was wrong and what is allowed."""
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import gravlab


def bodies(count=10):
    positions = np.linspace(-1.0, 1.0, 3 * count).reshape(count, 3)
    return positions, np.zeros((count, 3)), np.full(count, 1.0 / count)


def from_arrays(positions, velocities, masses, **keywords):
    keywords.setdefault("backend", "cpu")
    return gravlab.Simulation.from_arrays(positions, velocities, masses, **keywords)


@pytest.mark.parametrize(
    "which, shape, message",
    [
        ("positions", (10, 2), r"positions must have shape \(N, 3\), got shape \(10, 2\)"),
        ("positions", (30,), r"positions must have shape \(N, 3\), got shape \(30,\)"),
        ("velocities", (9, 3), r"velocities must have shape \(N, 3\) with N = 10 .* got shape \(9, 3\)"),
        ("velocities", (3, 10), r"velocities must have shape \(N, 3\) with N = 10 .* got shape \(3, 10\)"),
        ("masses", (10, 1), r"masses must have shape \(N,\) with N = 10 .* got shape \(10, 1\)"),
        ("masses", (11,), r"masses must have shape \(N,\) with N = 10 .* got shape \(11,\)"),
    ],
)
def test_wrong_shapes_are_named(which, shape, message):
    arrays = dict(zip(("positions", "velocities", "masses"), bodies()))
    arrays[which] = np.ones(shape)
    with pytest.raises(ValueError, match=message):
        from_arrays(**arrays)


def test_bad_values_are_named_with_their_index():
    positions, velocities, masses = bodies()
    masses[3] = -1.0
    with pytest.raises(ValueError, match=r"masses\[3\] = -1 is not allowed: every mass must be a finite number > 0"):
        from_arrays(positions, velocities, masses)
    masses[3] = 0.0
    with pytest.raises(ValueError, match=r"masses\[3\] = 0 is not allowed"):
        from_arrays(positions, velocities, masses)
    masses[3] = 0.1
    positions[7, 2] = math.nan
    with pytest.raises(ValueError, match=r"positions\[7, 2\] is nan"):
        from_arrays(positions, velocities, masses)
    positions[7, 2] = 0.0
    velocities[2, 0] = math.inf
    with pytest.raises(ValueError, match=r"velocities\[2, 0\] is inf"):
        from_arrays(positions, velocities, masses)
    velocities[2, 0] = 1e300  # finite in float64, infinite as the float32 the bodies are stored in
    with pytest.raises(ValueError, match=r"velocities\[2, 0\] is inf.*as float32"), np.errstate(over="ignore"):
        from_arrays(positions, velocities, masses)


def test_bad_ids_and_components_are_refused():
    positions, velocities, masses = bodies()
    with pytest.raises(ValueError, match=r"ids\[4\] = -2 is negative"):
        from_arrays(positions, velocities, masses, ids=np.array([0, 1, 2, 3, -2, 5, 6, 7, 8, 9]))
    with pytest.raises(TypeError, match="ids must be an array of integers, got dtype float64"):
        from_arrays(positions, velocities, masses, ids=np.arange(10.0))
    with pytest.raises(ValueError, match=r"ids must have shape \(N,\) with N = 10"):
        from_arrays(positions, velocities, masses, ids=np.arange(9))
    with pytest.raises(ValueError, match=r"components\[9\] = 6 is not a particle type: allowed 0 to 5"):
        from_arrays(positions, velocities, masses, components=[1] * 9 + [6])
    with pytest.raises(TypeError, match="positions must be an array of numbers"):
        from_arrays("not an array", velocities, masses)


@pytest.mark.parametrize(
    "keywords, message",
    [
        ({"dt": -1.0}, r"dt = -1 is out of range: allowed 0 < dt <= 1"),
        ({"dt": 2}, r"dt = 2 is out of range: allowed 0 < dt <= 1"),
        ({"dt": math.nan}, r"dt = nan is not a number"),
        ({"softening": -1.0}, r"softening = -1 is out of range: allowed 0 <= softening <= 10"),
        ({"softening": 0.0, "solver": "tree"},
         r"softening = 0 is out of range for solver 'tree': allowed 1e-05 <= softening <= 10"),
        ({"theta": 3.0}, r"theta = 3 is out of range"),
        ({"G": -1.0}, r"G = -1 is out of range"),
        ({"solver": "fmm"}, r"solver = 'fmm' is not known: allowed 'direct'"),
        ({"solver": "direct-symmetric"}, r"solver = 'direct-symmetric' runs on cuda only"),
        ({"backend": "gpu"}, r"backend = 'gpu' is not known: allowed 'auto'"),
        ({"orb_domains": 20}, r"orb-domains = 20 is more than the 10 bodies"),
        ({"orb_domains": -1}, r"orb-domains = -1 is out of range"),
        ({"orb_balance": "memory"}, r"orb-balance = 'memory' is not known"),
    ],
)
def test_bad_parameters_raise_the_library_message(keywords, message):
    with pytest.raises(ValueError, match=message):
        from_arrays(*bodies(), **keywords)


def test_bad_scenario_parameters():
    with pytest.raises(ValueError, match=r"bodies = 0 is out of range: allowed 1 <= bodies <= 268435456"):
        gravlab.Simulation(bodies=0)
    with pytest.raises(ValueError, match=r"bodies = -5 is out of range"):
        gravlab.Simulation(bodies=-5)
    with pytest.raises(ValueError, match=r"bodies = 1e\+30 is out of range"):
        gravlab.Simulation(bodies=10**30)
    with pytest.raises(ValueError, match=r"seed = -1 is out of range: allowed 0 <= seed < 2\^64"):
        gravlab.Simulation(seed=-1)
    with pytest.raises(ValueError, match=r"scenario = 'nebula' is not known"):
        gravlab.Simulation("nebula")
    with pytest.raises(TypeError, match="bodies must be an integer, got float"):
        gravlab.Simulation(bodies=100.0)
    with pytest.raises(TypeError, match="dt must be a number, got str"):
        gravlab.Simulation(dt="small")
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'timestep': it takes dt, softening"):
        gravlab.Simulation(timestep=0.1)
    with pytest.raises(TypeError, match=r"from_arrays\(\) got an unexpected keyword argument 'bodies'"):
        from_arrays(*bodies(), bodies=5)


def test_a_refused_change_leaves_the_simulation_as_it_was():
    simulation = from_arrays(*bodies(), dt=0.02)
    with pytest.raises(ValueError, match="dt = 0 is out of range"):
        simulation.set(dt=0.0, softening=0.2)
    assert simulation.params["dt"] == 0.02 and simulation.params["softening"] == 0.05
    with pytest.raises(ValueError, match=r"n = -1 is not allowed"):
        simulation.step(-1)
    with pytest.raises(ValueError, match="color = 'rainbow' is not known"):
        simulation.render_png("unused.png", color="rainbow")
    with pytest.raises(ValueError, match="width = 0, height = 720 is not allowed"):
        simulation.render_png("unused.png", width=0)
    with pytest.raises(ValueError, match="format = 'fits' is not known: allowed 'tipsy'"):
        simulation.save("unused.fits", format="fits")


def test_a_step_that_leaves_nan_is_rolled_back():
    # Two heavy bodies 1e-5 apart with the smallest softening and the largest G: the first kick overflows float32.
    positions = np.zeros((2, 3))
    positions[1, 0] = 1e-5
    simulation = gravlab.Simulation.from_arrays(positions, np.zeros((2, 3)), np.array([1e30, 1e30]), backend="cpu",
                                                softening=1e-5, G=1e12, dt=1.0)
    before = simulation.positions
    with pytest.raises(gravlab.NonFiniteStateError) as raised:
        simulation.step(3)
    assert isinstance(raised.value, ArithmeticError)
    assert np.array_equal(simulation.positions, before) and simulation.step_count == 0


def test_a_run_that_does_not_fit_raises_memory_error():
    # Under an 8 GiB address-space limit 10^8 bodies (about 11 GB on the CPU) are refused before any is generated,
    # whatever the machine's memory; the child process keeps the limit away from this one.
    code = (
        "import resource, gravlab\n"
        "resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))\n"
        "try:\n"
        "    gravlab.Simulation(bodies=100_000_000, backend='cpu')\n"
        "except MemoryError as error:\n"
        "    print('MemoryError:', error)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "MemoryError: " in result.stdout and "100000000 bodies need" in result.stdout, result.stdout
