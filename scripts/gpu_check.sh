#!/usr/bin/env bash
# The CUDA core's check on a machine with an NVIDIA GPU: GPU tests, compute-sanitizer memcheck and racecheck, the
# benchmark table of both direct-sum solvers, and a headless render of a million bodies through CUDA-GL interop.
#
# Usage (from the repository root, with an existing CUDA build):
#   scripts/gpu_check.sh OUTDIR [BUILD_DIR]        BUILD_DIR defaults to build-gpu
# Environment: GRAVLAB=path/to/gravlab overrides BUILD_DIR/gravlab.
# Everything is logged under OUTDIR; a summary table is printed last. Exits 1 when any step failed.
set -uo pipefail

if [ $# -lt 1 ]; then
    echo "usage: scripts/gpu_check.sh OUTDIR [BUILD_DIR]" >&2
    exit 2
fi
out=$1
build=${2:-build-gpu}
gravlab=${GRAVLAB:-$build/gravlab}
tests=$build/tests/gravlab_gpu_tests
mkdir -p "$out"
for needed in "$tests" "$gravlab"; do
    [ -x "$needed" ] || { echo "gpu_check: $needed is missing; build $build first (cmake --build $build)" >&2; exit 2; }
done
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)

summary=()
failed=0
# step NAME COMMAND...: runs COMMAND with its output in OUTDIR/NAME.log and records pass or fail with the time taken.
step() {
    local name=$1
    shift
    local start=$SECONDS
    echo "== $name: $*"
    if "$@" >"$out/$name.log" 2>&1; then
        summary+=("$(printf '%-12s %-6s %5ss  %s' "$name" pass $((SECONDS - start)) "$out/$name.log")")
    else
        summary+=("$(printf '%-12s %-6s %5ss  %s' "$name" "FAIL($?)" $((SECONDS - start)) "$out/$name.log")")
        failed=1
    fi
}

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1

step gpu-tests ctest --test-dir "$build" -L gpu --output-on-failure -V
# The sanitizers slow kernels down by one to three orders of magnitude: memcheck leaves out the million-body test,
# racecheck (which instruments every shared-memory access) keeps to the tests of a few thousand bodies.
step memcheck "$sanitizer" --tool memcheck --error-exitcode 3 "$tests" --gtest_filter='-*MillionAndThree*'
step racecheck "$sanitizer" --tool racecheck --error-exitcode 3 "$tests" \
    --gtest_filter='*BlockEdges*:*RandomBodies*:*RangeGuard*:*Diagnostics*:*NonFinite*:*FewSteps*:*StepTimings*'

bench_table() {
    : >"$out/bench.jsonl"
    for solver in direct direct-symmetric; do
        for bodies in 16384 65536 262144 1048576; do
            local steps=20
            [ "$bodies" -ge 1048576 ] && steps=5
            "$gravlab" bench --solver "$solver" --bodies "$bodies" --steps "$steps" --json >>"$out/bench.jsonl" || return 1
        done
    done
}
step bench bench_table

# One markdown row per benchmark line (the JSON is gravlab bench's own flat format).
field() { sed -n -e "s/.*\"$1\": \"\([^\"]*\)\".*/\1/p;t" -e "s/.*\"$1\": \([^,}]*\).*/\1/p" <<<"$2"; }
{
    echo "| solver | N | median step (ms) | interactions/s | GFLOP/s (20/interaction) | GPU | date |"
    echo "| --- | ---: | ---: | ---: | ---: | --- | --- |"
    while IFS= read -r line; do
        case $line in \{*) ;; *) continue ;; esac
        printf '| %s | %s | %.3f | %.3e | %.0f | %s | %s |\n' "$(field solver "$line")" "$(field bodies "$line")" \
            "$(field medianStepMs "$line")" "$(field interactionsPerSecond "$line")" "$(field gflops "$line")" \
            "$(field gpu "$line")" "$(field date "$line")"
    done <"$out/bench.jsonl"
} >"$out/bench.md" 2>/dev/null

step render "$gravlab" --headless --frames 3 --bodies 1000000 --out "$out/render"

echo
cat "$out/bench.md"
echo
echo "GPU: $(tail -n +2 "$out/gpu.txt")"
printf '%-12s %-6s %6s  %s\n' step result time log
printf '%s\n' "${summary[@]}"
exit $failed
