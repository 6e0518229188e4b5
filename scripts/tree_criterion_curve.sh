#!/usr/bin/env bash
# Step time against force error of the GPU tree over its opening criterion's parameter: the geometric criterion over
# theta and the relative one over alpha, for the Plummer sphere and the galaxy collision at 1M and 16M bodies.
# Each point is `gravlab bench` (median step of 10 after 3 warm-up steps, on the device) and `gravlab accuracy`
# (median and 99th percentile of |a - a_fp64| / |a_fp64| over 2048 sampled bodies; the relative rows after one
# evaluation at theta 0.5, whose accelerations the criterion reads).
# Usage: scripts/tree_criterion_curve.sh OUTDIR GRAVLAB [BODY_COUNTS]; writes OUTDIR/criterion-curve.jsonl (bench
# lines), OUTDIR/criterion-accuracy.jsonl (accuracy reports) and OUTDIR/criterion-curve.md (the table).
set -euo pipefail
out=$1
gravlab=$2
bodies=${3:-1048576,16777216}
thetas=0.4,0.5,0.6,0.7
alphas=0.001,0.0015,0.0025,0.004,0.006,0.01
: >"$out/criterion-curve.jsonl"
: >"$out/criterion-accuracy.jsonl"
for scenario in plummer galaxy-collision; do
    for n in ${bodies//,/ }; do
        for theta in ${thetas//,/ }; do
            "$gravlab" bench --solver tree --backend cuda --scenario "$scenario" --bodies "$n" --opening geometric \
                --theta "$theta" --steps 10 --warmup 3 --json | tr -d '\n' >>"$out/criterion-curve.jsonl"
            echo >>"$out/criterion-curve.jsonl"
        done
        for alpha in ${alphas//,/ }; do
            "$gravlab" bench --solver tree --backend cuda --scenario "$scenario" --bodies "$n" --opening relative \
                --force-accuracy "$alpha" --steps 10 --warmup 3 --json | tr -d '\n' >>"$out/criterion-curve.jsonl"
            echo >>"$out/criterion-curve.jsonl"
        done
        for rows in "--thetas $thetas" "--thetas 0.5 --force-accuracies $alphas"; do
            # shellcheck disable=SC2086 # rows is a list of flags
            "$gravlab" accuracy --backend cuda --scenarios "$scenario" --bodies "$n" --samples 2048 $rows --json |
                tr -d '\n' >>"$out/criterion-accuracy.jsonl"
            echo >>"$out/criterion-accuracy.jsonl"
        done
    done
done
/usr/bin/env python3 - "$out" >"$out/criterion-curve.md" <<'PY'
import json, sys
out = sys.argv[1]
steps = {}
for line in open(f"{out}/criterion-curve.jsonl"):
    d = json.loads(line)
    key = (d["scenario"], d["bodies"], d.get("opening", "geometric"),
           d["forceAccuracy"] if d.get("opening") == "relative" else d["theta"])
    steps[key] = d
rows = []
for line in open(f"{out}/criterion-accuracy.jsonl"):
    report = json.loads(line)
    for r in report["results"]:
        relative = "forceAccuracy" in r
        key = (r["scenario"], r["bodies"], "relative" if relative else "geometric",
               r["forceAccuracy"] if relative else r["theta"])
        s = steps.get(key)
        rows.append((key, r, s))
print("| scenario | N | criterion | step (ms) | force (ms) | p50 error | p99 error | bytes/body |")
print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
for key, r, s in rows:
    name = ("alpha " if key[2] == "relative" else "theta ") + f"{key[3]:g}"
    step = f"{s['medianStepMs']:.2f}" if s else "?"
    force = f"{s.get('forceMs', 0):.2f}" if s else "?"
    size = f"{s['deviceBytesPerBody']:.1f}" if s else "?"
    print(f"| {key[0]} | {key[1]} | {name} | {step} | {force} | {r['median']:.2e} | {r['p99']:.2e} | {size} |")
PY
