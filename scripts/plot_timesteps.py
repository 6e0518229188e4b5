#!/usr/bin/env python3
"""Plots energy error against cost for fixed and hierarchical time steps from `gravlab timesteps-bench --json` output,
and says for each hierarchical run whether it beats the fixed steps at its cost.

Usage: plot_timesteps.py [--cost evaluations|seconds] OUT.png RUNS.json [RUNS.json ...]

One panel per scenario and body count, in the order they come (runs of several files are pooled), log-log: the largest |dE/E| of each run
against its force evaluations (or wall seconds). The fixed runs are joined into a curve; each hierarchical run is
compared with that curve interpolated in log-log at the hierarchical run's cost, and the verdict is printed, one line
per run, e.g. "galaxy-collision 16384: hierarchical 0.04:0.15 at 5.1e+06: 0.00077 against fixed 0.00096: better".
A run outside the fixed curve's cost range is "outside the fixed runs" (no extrapolation); a run that blew up
(an error of null or infinity) is drawn at the top edge and counts as worse.
Needs Debian's python3-matplotlib (scripts/setup.sh installs it).
"""
import argparse
import json
import math
import sys
from collections import defaultdict

COSTS = {"evaluations": ("forceEvaluations", "force evaluations (body accelerations computed)"),
         "seconds": ("wallSeconds", "wall seconds")}


def load_runs(paths):
    """Every run of every file, grouped by (scenario, bodies); exits naming the file when one is not bench JSON."""
    groups = defaultdict(list)
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                report = json.load(f)
            runs = report["runs"]
            for run in runs:
                groups[(run["scenario"], int(run["bodies"]))].append(run)
        except (OSError, ValueError, KeyError, TypeError) as error:
            sys.exit(f"plot_timesteps.py: {path}: not the JSON of gravlab timesteps-bench --json ({error!r})")
    if not groups:
        sys.exit("plot_timesteps.py: the files hold no runs")
    return groups


def error_of(run):
    """The run's largest energy error; infinity for a run that blew up (JSON null)."""
    value = run.get("largestEnergyError")
    return math.inf if value is None else float(value)


def fixed_error_at(fixed, cost):
    """The fixed runs' error interpolated in log-log at cost, or None outside their range. fixed: (cost, error) sorted
    by cost, all finite and positive."""
    for (c0, e0), (c1, e1) in zip(fixed, fixed[1:]):
        if c0 <= cost <= c1:
            if c1 == c0:
                return min(e0, e1)
            t = (math.log(cost) - math.log(c0)) / (math.log(c1) - math.log(c0))
            return math.exp(math.log(e0) + t * (math.log(e1) - math.log(e0)))
    return None


def series_of(run):
    """The curve a run belongs to: fixed, hierarchical, or hierarchical with another level choice than the start's."""
    if run["timeSteps"] == "hierarchical" and run.get("levelChoice", "start") != "start":
        return f"hierarchical, {run['levelChoice']}"
    return run["timeSteps"]


def verdicts(key, runs, cost_field):
    """One line per hierarchical run: its error against the fixed curve's at its cost."""
    fixed = sorted((float(r[cost_field]), error_of(r)) for r in runs if r["timeSteps"] == "fixed")
    fixed = [(c, e) for c, e in fixed if c > 0 and 0 < e < math.inf]
    lines = []
    for run in sorted((r for r in runs if r["timeSteps"] == "hierarchical"), key=lambda r: float(r[cost_field])):
        cost, error = float(run[cost_field]), error_of(run)
        label = f"{key[0]} {key[1]}: {series_of(run)} {run['dt']:g}:{run['eta']:g} at {cost:.2g}: {error:.2g}"
        reference = fixed_error_at(fixed, cost)
        if reference is None:
            lines.append(f"{label}: outside the fixed runs")
        else:
            lines.append(f"{label} against fixed {reference:.2g}: {'better' if error < reference else 'worse'}")
    return lines


def plot(groups, cost_field, cost_label, out):
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    keys = list(groups)  # in the order of the files and their runs
    columns = len(keys) if len(keys) <= 3 else math.ceil(math.sqrt(len(keys)))
    rows = (len(keys) + columns - 1) // columns
    figure, axes = plt.subplots(rows, columns, figsize=(5.2 * columns, 4.2 * rows), squeeze=False)
    for axis, key in zip(axes.flat, keys):
        finite = [error_of(r) for r in groups[key] if error_of(r) < math.inf] or [1.0]
        ceiling = max(finite) * 3
        styles = {"fixed": "o-", "hierarchical": "s--"}
        for series in sorted({series_of(r) for r in groups[key]}, key=lambda name: (name != "fixed", name)):
            runs = sorted((r for r in groups[key] if series_of(r) == series), key=lambda r: float(r[cost_field]))
            if runs:
                axis.plot([float(r[cost_field]) for r in runs], [min(error_of(r), ceiling) for r in runs],
                          styles.get(series, "^:"), label=f"{series} steps")
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_title(f"{key[0]}, N = {key[1]}")
        axis.set_xlabel(cost_label)
        axis.set_ylabel("largest |dE/E|")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
    for axis in list(axes.flat)[len(keys):]:
        axis.set_visible(False)
    figure.tight_layout()
    figure.savefig(out, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cost", choices=sorted(COSTS), default="evaluations", help="the cost axis")
    parser.add_argument("out", help="PNG file to write")
    parser.add_argument("runs", nargs="+", help="JSON files of gravlab timesteps-bench --json")
    arguments = parser.parse_args()
    cost_field, cost_label = COSTS[arguments.cost]
    groups = load_runs(arguments.runs)
    for key in groups:
        for line in verdicts(key, groups[key], cost_field):
            print(line)
    plot(groups, cost_field, cost_label, arguments.out)
    print(f"wrote {arguments.out}")


if __name__ == "__main__":
    main()
