"""scripts/plot_timesteps.py: its verdicts against errors interpolated by hand, its PNG, and its message for a file
that is not the bench's JSON. The runs are written here, not by gravlab, so the numbers are known."""
import importlib.util
import json
import math
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "plot_timesteps.py"


def load_script():
    spec = importlib.util.spec_from_file_location("plot_timesteps", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(mode, cost, error, dt=0.01, eta=None):
    record = {"scenario": "cold-sphere", "bodies": 4096, "timeSteps": mode, "dt": dt, "forceEvaluations": cost,
              "wallSeconds": cost / 1e6, "largestEnergyError": error}
    if eta is not None:
        record["eta"] = eta
    return record


# Fixed runs at 1e6 and 4e6 evaluations with errors 1e-2 and 1e-4: in log-log the curve passes 1e-3 at 2e6.
RUNS = [run("fixed", 1e6, 1e-2), run("fixed", 4e6, 1e-4),
        run("hierarchical", 2e6, 5e-4, 0.04, 0.3), run("hierarchical", 2e6, 2e-3, 0.04, 0.6),
        run("hierarchical", 3e6, None, 0.04, 1.0), run("hierarchical", 8e6, 1e-6, 0.04, 0.05)]


def test_fixed_curve_is_interpolated_in_log_log():
    script = load_script()
    fixed = [(1e6, 1e-2), (4e6, 1e-4)]
    assert math.isclose(script.fixed_error_at(fixed, 2e6), 1e-3, rel_tol=1e-12)
    assert script.fixed_error_at(fixed, 8e6) is None
    assert script.fixed_error_at(fixed, 5e5) is None


def test_each_hierarchical_run_gets_its_verdict():
    lines = load_script().verdicts(("cold-sphere", 4096), RUNS, "forceEvaluations")
    assert len(lines) == 4
    assert lines[0].endswith("against fixed 0.001: better") and "0.04:0.3" in lines[0]
    assert lines[1].endswith("against fixed 0.001: worse") and "0.04:0.6" in lines[1]
    assert lines[2].endswith(": worse") and "inf" in lines[2], "a run that blew up counts as worse"
    assert lines[3].endswith("outside the fixed runs")


def test_writes_a_png_and_prints_the_verdicts(tmp_path):
    runs_file = tmp_path / "runs.json"
    runs_file.write_text(json.dumps({"runs": RUNS}))
    out = tmp_path / "curves.png"
    result = subprocess.run([sys.executable, str(SCRIPT), str(out), str(runs_file)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("cold-sphere 4096: hierarchical") == 4
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_file_that_is_not_the_bench_json_is_named(tmp_path):
    bad = tmp_path / "frames.json"
    bad.write_text('{"frames": 3}')
    result = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "x.png"), str(bad)], capture_output=True,
                            text=True, check=False)
    assert result.returncode != 0
    assert "frames.json" in result.stderr and "timesteps-bench --json" in result.stderr
    assert not (tmp_path / "x.png").exists()


def test_symmetric_runs_are_their_own_series():
    symmetric = dict(run("hierarchical", 2e6, 5e-4, 0.04, 0.3), levelChoice="symmetric")
    start = dict(run("hierarchical", 2e6, 2e-3, 0.04, 0.3), levelChoice="start")
    lines = load_script().verdicts(("cold-sphere", 4096), RUNS[:2] + [symmetric, start], "forceEvaluations")
    assert sorted(lines) == ["cold-sphere 4096: hierarchical 0.04:0.3 at 2e+06: 0.002 against fixed 0.001: worse",
                             "cold-sphere 4096: hierarchical, symmetric 0.04:0.3 at 2e+06: 0.0005 against fixed 0.001: "
                             "better"]


def test_wall_seconds_can_be_the_cost():
    # The runs' seconds are their evaluations / 1e6, so the verdicts are those of the evaluations.
    script = load_script()
    by_seconds = script.verdicts(("cold-sphere", 4096), RUNS, "wallSeconds")
    by_evaluations = script.verdicts(("cold-sphere", 4096), RUNS, "forceEvaluations")
    assert [line.rsplit(": ", 1)[1] for line in by_seconds] == [line.rsplit(": ", 1)[1] for line in by_evaluations]
    assert "at 2: " in by_seconds[0]
