# %% [markdown]
# # Gravlab from Python: a cold collapse
#
# A notebook-style script (cells marked `# %%`, as Jupyter, VS Code and Spyder read them). Build Gravlab as usual
# (the module is part of the normal build), then run it with Debian's Python:
#
#     PYTHONPATH=build/python /usr/bin/python3 docs/python_example.py
#
# It builds a cold, uniform sphere from numpy arrays, lets it collapse, follows the energy, saves a snapshot and
# renders a PNG. GRAVLAB_EXAMPLE_BODIES sets the number of bodies (the test suite runs it with a few hundred).

# %%
import os

import numpy as np

import gravlab

bodies = int(os.environ.get("GRAVLAB_EXAMPLE_BODIES", 4000))
rng = np.random.default_rng(2024)

# Uniform in a unit sphere, at rest: the free-fall time is pi / 2 sqrt(R^3 / (2 G M)) = 1.11 time units.
directions = rng.normal(size=(bodies, 3))
directions /= np.linalg.norm(directions, axis=1, keepdims=True)
positions = directions * rng.uniform(size=(bodies, 1)) ** (1 / 3)
velocities = np.zeros((bodies, 3))
masses = np.full(bodies, 1.0 / bodies)

simulation = gravlab.Simulation.from_arrays(positions, velocities, masses, dt=0.002, softening=0.05)
print(simulation)
print("units:", simulation.units.summary)

# %% [markdown]
# ## Collapse, and the energy on the way
# The total energy stays near its start (leapfrog conserves it well while dt resolves the closest approaches); the
# virial ratio K / |W| rises from 0 through its equilibrium value 0.5 as the sphere falls in.

# %%
times, drifts, virial = [], [], []
for _ in range(15):
    simulation.step(50)
    diagnostics = simulation.diagnostics()
    times.append(simulation.time)
    drifts.append(simulation.energy_drift())
    virial.append(diagnostics.virial_ratio)
    print(f"t = {simulation.time:5.2f}  E = {diagnostics.total_energy:+.6f}  "
          f"|dE/E0| = {drifts[-1]:.2e}  K/|W| = {virial[-1]:.3f}")

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (energy_axis, virial_axis) = plt.subplots(1, 2, figsize=(9, 3.5))
    energy_axis.semilogy(times, drifts)
    energy_axis.set(xlabel="time", ylabel="|E - E0| / |E0|")
    virial_axis.plot(times, virial)
    virial_axis.set(xlabel="time", ylabel="K / |W|")
    figure.tight_layout()
    figure.savefig("collapse_energy.png")
    print("wrote collapse_energy.png")
except ImportError:
    print("matplotlib is not installed: the energy is printed above instead of plotted")

# %% [markdown]
# ## Arrays out
# Every read is a fresh numpy array; bodies keep their ids through any reordering, so match them by id.

# %%
radii = np.linalg.norm(simulation.positions - np.average(simulation.positions, axis=0, weights=simulation.masses),
                       axis=1)
print(f"half-mass radius now {np.median(radii):.3f} (started at {0.5 ** (1 / 3):.3f})")
accelerations = simulation.accelerations()
print("largest acceleration:", np.linalg.norm(accelerations, axis=1).max())

# %% [markdown]
# ## A snapshot file and a picture

# %%
simulation.save("collapse.hdf5")  # GADGET-style HDF5; .csv, .std (tipsy) and .bin (tipsy-native) work as well
snapshot = gravlab.read_snapshot("collapse.hdf5")
print(f"collapse.hdf5: {len(snapshot['masses'])} bodies at t = {snapshot['time']:.2f}")
again = gravlab.Simulation.from_file("collapse.hdf5", dt=0.002, softening=0.05)
print("reloaded:", again)

try:
    simulation.render_png("collapse.png", width=800, height=600)
    print("wrote collapse.png")
except gravlab.EglError as error:
    print("no headless OpenGL here, so no picture:", error)
