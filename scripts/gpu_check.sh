#!/usr/bin/env bash
# The CUDA core's check on a machine with an NVIDIA GPU: GPU tests, compute-sanitizer memcheck and racecheck (the tree
# and ORB tests included), the benchmark tables of the direct-sum solvers and of the tree (N = 1M, 4M, 16M), the tree's
# step time against N from 2^16 to 2^24, the ORB build (1M/64, 2^27/4096, 2^30 positions only; radix select against
# bisection, count against work balance) and the cost of keeping domains during tree steps, and headless renders of a
# million bodies with the tree through CUDA-GL interop, plain and coloured by ORB domain with the domain boxes. GPU
# ranks under mpirun, one per GPU: their tests, memcheck on every rank, weak and strong scaling of the tree step. Then
# bodies in and out: a 1M-body GADGET-4 HDF5 file and a tipsy file written by h5py and numpy
# (scripts/write_sample_snapshots.py) loaded, stepped on the tree and rendered; snapshot write and read rates of 16M
# bodies per format (bench --io); 1080p output of 1M bodies as PNG frames and, when ffmpeg is on PATH, as an MP4
# checked with ffprobe, each with its stepping time stated apart. Then the portable solvers: the OpenGL compute
# backend's tests on NVIDIA's driver through EGL and its direct sum against CUDA's, and the CPU solvers' scaling over
# the machine's cores. Last, energy error against cost for fixed and hierarchical time steps, under each level choice.
#
# Usage (from the repository root, with an existing CUDA build):
#   scripts/gpu_check.sh OUTDIR [BUILD_DIR]        BUILD_DIR defaults to build-gpu
# Environment: GRAVLAB=path/to/gravlab overrides BUILD_DIR/gravlab; GPU_CHECK_QUICK=1 skips the direct-sum table and
# the sweep's largest sizes and makes the movie 240 frames instead of 600 (for a short lease); GPU_CHECK_ONLY="NAME ..."
# runs only the named steps (a re-check after a change to one part; the summary lists the others as skipped), which
# splits the check where one command may run for less: on an H200 a quick run takes about 14 minutes, 10 of them
# racecheck (mostly its ORB tests), 2.5 the GPU tests and memcheck, 3.5 the other steps.
# Everything is logged under OUTDIR; the tables and a summary are printed last. Exits 1 when any step failed.
set -uo pipefail

if [ $# -lt 1 ]; then
    echo "usage: scripts/gpu_check.sh OUTDIR [BUILD_DIR]" >&2
    exit 2
fi
out=$1
build=${2:-build-gpu}
gravlab=${GRAVLAB:-$build/gravlab}
tests=$build/tests/gravlab_gpu_tests
render_tests=$build/tests/gravlab_render_tests
quick=${GPU_CHECK_QUICK:-0}
only=${GPU_CHECK_ONLY:-}
mkdir -p "$out"
for needed in "$tests" "$render_tests" "$gravlab"; do
    [ -x "$needed" ] || { echo "gpu_check: $needed is missing; build $build first (cmake --build $build)" >&2; exit 2; }
done
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)

summary=()
failed=0
# step NAME COMMAND...: runs COMMAND with its output in OUTDIR/NAME.log and records pass or fail with the time taken.
step() {
    local name=$1
    shift
    if [ -n "$only" ] && [[ " $only " != *" $name "* ]]; then
        summary+=("$(printf '%-12s %-6s %5s   %s' "$name" skip - 'not in GPU_CHECK_ONLY')")
        return 0
    fi
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
# The sanitizers slow kernels down by one to three orders of magnitude: memcheck leaves out the million-body test and
# the 1000-step collapse (its single migrations are checked by the CPU-comparison test) and the relative criterion's
# error bound on eight sets of 200k bodies (its fallback test runs the same kernel),
# racecheck (which instruments every shared-memory access) keeps to the tests of a few thousand bodies, the tree's
# warp-synchronous walk included.
step memcheck "$sanitizer" --tool memcheck --error-exitcode 3 "$tests" \
    --gtest_filter='-*MillionAndThree*:*1000StepCollapse*:*RelativeOpeningErrorBound*'
step racecheck "$sanitizer" --tool racecheck --error-exitcode 3 "$tests" \
    --gtest_filter='*BlockEdges*:*RandomBodies*:*RangeGuard*:*Diagnostics*:*NonFinite*:*FewSteps*:*StepTimings*:*TreeAccuracySmall*:*TreeOneAndTwo*:OrbGpu*:*SameBodiesToTheSameDomains*:*RelativeOpeningFallsBack*:*OpeningPass*:*SymmetricLevels*'

# GPU ranks, one per GPU, with NCCL between them (NVLink multicast left off): the distributed CUDA backend's tests
# against one GPU, memcheck on every rank, and the tree step over 1 to all GPUs: weak scaling at 16M bodies per GPU
# and strong scaling of 64M bodies (one rank is the single-GPU backend, exactly as without mpirun).
mpi_tests=$build/tests/gravlab_mpi_tests
gpu_count=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
on_ranks() {
    local ranks=$1
    shift
    mpirun --allow-run-as-root --oversubscribe -np "$ranks" -x NCCL_NVLS_ENABLE=0 -x LD_LIBRARY_PATH "$@"
}
# Re-cut every 4 steps (the interval PERFORMANCE found fastest on 2 GPUs), 16 timed steps so the cuts are in the mean.
rank_scaling() {
    : >"$out/bench-ranks.jsonl"
    for ranks in $(seq 1 "$gpu_count"); do
        for bodies in $((16777216 * ranks)) 67108864; do
            on_ranks "$ranks" "$gravlab" bench --backend cuda --solver tree --bodies "$bodies" --steps 16 --warmup 3 \
                --orb-every 4 --json >>"$out/bench-ranks.jsonl" || return 1
        done
    done
}
if [ -x "$mpi_tests" ] && command -v mpirun >/dev/null; then
    step gpu-ranks on_ranks "$gpu_count" "$mpi_tests" --gtest_filter='DistributedCudaBackendMpi*'
    # API errors are not reported: NCCL's set-up probes kernels its library lacks for this chip (cudaFuncGetAttributes
    # failing 4 times per communicator) and carries on, and every runtime call of Gravlab's own throws on failure.
    step ranks-memcheck on_ranks "$gpu_count" "$sanitizer" --tool memcheck --report-api-errors no --error-exitcode 3 \
        "$mpi_tests" --gtest_filter='DistributedCudaBackendMpi*'
    step bench-ranks rank_scaling
else
    summary+=("$(printf '%-12s %-6s %5s   %s' gpu-ranks skip - "no $mpi_tests (a build with MPI and NCCL) or mpirun")")
fi

# bench_rows FILE SOLVER STEPS N...: one JSON line per body count, appended to FILE (the tree at theta 0.5, the
# criterion of the earlier measurements).
bench_rows() {
    local file=$1 solver=$2 steps=$3
    shift 3
    for bodies in "$@"; do
        "$gravlab" bench --solver "$solver" --opening geometric --theta 0.5 --bodies "$bodies" --steps "$steps" --warmup 3 --json \
            >>"$file" || return 1
    done
}
# The tree with the relative criterion at the default alpha: the table of the step's phases and memory.
relative_rows() {
    local file=$1 steps=$2
    shift 2
    for bodies in "$@"; do
        "$gravlab" bench --solver tree --opening relative --bodies "$bodies" --steps "$steps" --warmup 3 --json \
            >>"$file" || return 1
    done
}
direct_table() {
    : >"$out/bench-direct.jsonl"
    bench_rows "$out/bench-direct.jsonl" direct 20 16384 65536 262144 &&
        bench_rows "$out/bench-direct.jsonl" direct 5 1048576 &&
        bench_rows "$out/bench-direct.jsonl" direct-symmetric 20 16384 65536 262144 &&
        bench_rows "$out/bench-direct.jsonl" direct-symmetric 5 1048576 &&
        bench_rows "$out/bench-direct.jsonl" direct-fp64 5 16384 65536 262144
}
tree_table() {
    : >"$out/bench-tree.jsonl"
    bench_rows "$out/bench-tree.jsonl" tree 20 1048576 4194304 && bench_rows "$out/bench-tree.jsonl" tree 10 16777216 &&
        relative_rows "$out/bench-tree.jsonl" 20 1048576 4194304 && relative_rows "$out/bench-tree.jsonl" 10 16777216
}
tree_sweep() {
    : >"$out/sweep-tree.jsonl"
    local largest=24
    [ "$quick" = 1 ] && largest=22
    for power in $(seq 16 "$largest"); do
        bench_rows "$out/sweep-tree.jsonl" tree 10 $((1 << power)) || return 1
    done
}
# orb_rows FILE ARGS...: one ORB build benchmark (JSON) per argument string.
orb_rows() {
    local file=$1
    shift
    for args in "$@"; do
        # shellcheck disable=SC2086 # each string is a list of flags
        "$gravlab" bench --orb $args --steps 10 --warmup 2 --json >>"$file" || return 1
    done
}
orb_table() {
    : >"$out/bench-orb.jsonl"
    orb_rows "$out/bench-orb.jsonl" "--bodies 1048576 --domains 64" "--bodies 1048576 --domains 64 --cut-finder bisection" \
        "--bodies 1048576 --domains 64 --orb-balance work" "--bodies 134217728 --domains 4096" \
        "--bodies 134217728 --domains 4096 --orb-balance work" || return 1
    [ "$quick" = 1 ] && return 0
    orb_rows "$out/bench-orb.jsonl" "--bodies 134217728 --domains 4096 --cut-finder bisection" \
        "--positions-only --bodies 1073741824 --domains 4096"
}
# Tree steps at 1M with 64 domains kept: re-partitioned every step, or every 16 steps with migration in between, by
# count or by work (the tree's interaction counts).
orb_steps() {
    : >"$out/bench-orb-steps.jsonl"
    for args in "--orb-every 1" "--orb-every 16" "--orb-every 16 --orb-balance work"; do
        # shellcheck disable=SC2086
        "$gravlab" bench --solver tree --theta 0.5 --bodies 1048576 --steps 20 --warmup 3 --orb-domains 64 $args \
            --json >>"$out/bench-orb-steps.jsonl" || return 1
    done
}
[ "$quick" = 1 ] || step bench-direct direct_table
step bench-tree tree_table
step sweep-tree tree_sweep
# Step time against force error over theta (geometric) and alpha (relative), 1M and 16M bodies (1M alone when quick).
curve_sizes=1048576,16777216
[ "$quick" = 1 ] && curve_sizes=1048576
step criterion-curve scripts/tree_criterion_curve.sh "$out" "$gravlab" "$curve_sizes"
step bench-orb orb_table
# Double precision's cost: the tree step at 16M and the fp64 direct sum (which then reads and writes pairs).
precision_rows() {
    : >"$out/bench-precision.jsonl"
    for precision in single double; do
        "$gravlab" bench --solver tree --bodies 16777216 --steps 10 --warmup 3 --precision "$precision" --json \
            >>"$out/bench-precision.jsonl" || return 1
        "$gravlab" bench --solver direct-fp64 --bodies 65536 --steps 5 --warmup 2 --precision "$precision" --json \
            >>"$out/bench-precision.jsonl" || return 1
    done
}
step bench-precision precision_rows
# The OpenGL 4.5 compute backend on this GPU's driver (EGL, no display): its tests, then its direct sum beside CUDA's.
step gl-tests "$render_tests" --gtest_filter='GlCompute*'
gl_rows() {
    : >"$out/bench-gl.jsonl"
    for bodies in 65536 262144 1048576; do
        for backend in gl cuda; do
            "$gravlab" bench --backend "$backend" --solver direct --bodies "$bodies" --steps 10 --json \
                >>"$out/bench-gl.jsonl" || return 1
        done
    done
}
step bench-gl gl_rows
# The CPU solvers over 1 to all of this machine's cores (the laptop path, measured where there are many cores).
cpu_scaling() {
    : >"$out/cpu-scaling.jsonl"
    for threads in 1 2 4 8 16; do
        [ "$threads" -le "$(nproc)" ] || continue
        for opening in geometric relative; do
            OMP_NUM_THREADS=$threads "$gravlab" bench --backend cpu --solver tree --opening "$opening" --bodies 100000 \
                --steps 5 --json >>"$out/cpu-scaling.jsonl" || return 1
        done
        OMP_NUM_THREADS=$threads "$gravlab" bench --backend cpu --solver direct --bodies 65536 --steps 5 --json \
            >>"$out/cpu-scaling.jsonl" || return 1
    done
}
step cpu-scaling cpu_scaling
# Energy error against cost for fixed and hierarchical time steps (binary, cold collapse, galaxy collision).
step timesteps "$gravlab" timesteps-bench --backend cuda --solver tree --bodies 65536 --energy-samples 8 --json
# The symmetric level choice's hierarchical runs through the collapse, where it gains most (docs/PERFORMANCE.md).
step timesteps-symmetric "$gravlab" timesteps-bench --backend cuda --solver tree --bodies 65536 --scenarios cold-sphere \
    --fixed-steps 0.01 --level-choice symmetric --energy-samples 8 --json
# The tidal level choice on the 65,536-body collision, against fixed steps (docs/PERFORMANCE.md).
step timesteps-tidal "$gravlab" timesteps-bench --backend cuda --solver direct --bodies 65536 --scenarios \
    galaxy-collision --fixed-steps 0.02,0.01,0.005,0.0025 --hierarchical-runs 0.04:0.06,0.04:0.04,0.04:0.03,0.04:0.02 \
    --level-choice tidal --energy-samples 16 --json
step orb-steps orb_steps

# field NAME LINE: a value of gravlab bench's flat JSON.
field() { sed -n -e "s/.*\"$1\": *\"\([^\"]*\)\".*/\1/p;t" -e "s/.*\"$1\": *\([^,}]*\).*/\1/p" <<<"$2"; }
json_lines() { [ -f "$1" ] && grep '^{' "$1"; }
{
    echo "| solver | N | median step (ms) | interactions/s | GFLOP/s (20/interaction) | GPU | date |"
    echo "| --- | ---: | ---: | ---: | ---: | --- | --- |"
    json_lines "$out/bench-direct.jsonl" | while IFS= read -r line; do
        printf '| %s | %s | %.3f | %.3e | %.0f | %s | %s |\n' "$(field solver "$line")" "$(field bodies "$line")" \
            "$(field medianStepMs "$line")" "$(field interactionsPerSecond "$line")" "$(field gflops "$line")" \
            "$(field gpu "$line")" "$(field date "$line")"
    done
} >"$out/bench-direct.md" 2>/dev/null
{
    echo "| N | opening | step (ms) | box | build | summary | sort | force | integrate | body-steps/s | bytes/body | cells/body |"
    echo "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    json_lines "$out/bench-tree.jsonl" | while IFS= read -r line; do
        n=$(field bodies "$line")
        opening="theta $(field theta "$line")"
        [ "$(field opening "$line")" = relative ] && opening="alpha $(field forceAccuracy "$line")"
        printf '| %s | %s | %.2f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3e | %.1f | %.3f |\n' "$n" "$opening" \
            "$(field medianStepMs "$line")" "$(field boxMs "$line")" "$(field buildMs "$line")" \
            "$(field summaryMs "$line")" "$(field sortMs "$line")" "$(field forceMs "$line")" \
            "$(field integrateMs "$line")" "$(field bodyStepsPerSecond "$line")" \
            "$(field deviceBytesPerBody "$line")" "$(awk -v c="$(field treeCells "$line")" -v n="$n" 'BEGIN{print c/n}')"
    done
} >"$out/bench-tree.md" 2>/dev/null
# Step time against N: t / (N log2 N) stays flat when the growth is N log N.
{
    echo "| N | step (ms) | ns per body-step | ns per (N log2 N) |"
    echo "| ---: | ---: | ---: | ---: |"
    json_lines "$out/sweep-tree.jsonl" | while IFS= read -r line; do
        n=$(field bodies "$line")
        ms=$(field medianStepMs "$line")
        printf '| %s | %.3f | %.2f | %.4f |\n' "$n" "$ms" "$(awk -v t="$ms" -v n="$n" 'BEGIN{print t*1e6/n}')" \
            "$(awk -v t="$ms" -v n="$n" 'BEGIN{print t*1e6/(n*log(n)/log(2))}')"
    done
} >"$out/sweep-tree.md" 2>/dev/null

{
    echo "| N | domains | finder | balance | build (ms) | bodies/s | effective GB/s | copy GB/s | imbalance memory / work |"
    echo "| ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | --- |"
    json_lines "$out/bench-orb.jsonl" | while IFS= read -r line; do
        printf '| %s%s | %s | %s | %s | %.3f | %.3e | %.0f | %.0f | %.3f / %.3f |\n' "$(field bodies "$line")" \
            "$([ "$(field positionsOnly "$line")" = true ] && echo ' (positions)')" "$(field domains "$line")" \
            "$(field cutFinder "$line")" "$(field balance "$line")" "$(field medianBuildMs "$line")" \
            "$(field bodiesPerSecond "$line")" "$(field effectiveGBps "$line")" "$(field deviceCopyGBps "$line")" \
            "$(field memoryImbalance "$line")" "$(field workImbalance "$line")"
    done
    echo
    echo "| tree step, 1M, 64 domains | step (ms) | orb phase (ms) | last rebuild (ms) | migrated last step | imbalance memory / work |"
    echo "| --- | ---: | ---: | ---: | ---: | --- |"
    json_lines "$out/bench-orb-steps.jsonl" | while IFS= read -r line; do
        printf '| every %s, %s | %.2f | %.3f | %.3f | %s | %.3f / %.3f |\n' "$(field orbEvery "$line")" \
            "$(field orbBalance "$line")" "$(field medianStepMs "$line")" "$(field orbMs "$line")" \
            "$(field orbLastRebuildMs "$line")" "$(field orbMigratedLastStep "$line")" \
            "$(field orbMemoryImbalance "$line")" "$(field orbWorkImbalance "$line")"
    done
} >"$out/bench-orb.md" 2>/dev/null

{
    echo "| ranks (GPUs) | N | step (ms) | mean step | build | force | exchange | orb (mean) | integrate | body-steps/s |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    json_lines "$out/bench-ranks.jsonl" | while IFS= read -r line; do
        printf '| %s | %s | %.2f | %.2f | %.3f | %.2f | %s | %s | %.3f | %.3e |\n' "$(field ranks "$line")" \
            "$(field bodies "$line")" "$(field medianStepMs "$line")" "$(field meanStepMs "$line")" \
            "$(field buildMs "$line")" "$(field forceMs "$line")" "$(field exchangeMeanMs "$line")" \
            "$(field orbMeanMs "$line")" "$(field integrateMs "$line")" "$(field bodyStepsPerSecond "$line")"
    done
} >"$out/bench-ranks.md" 2>/dev/null

# The tree's acceleration error against the fp64 direct sum (issue 4's accuracy report), on the GPU backend.
step accuracy "$gravlab" accuracy --backend cuda --scenarios plummer,disk-galaxy --bodies 100000,1000000 \
    --thetas 0.3,0.5,0.7,1.0
step render "$gravlab" --headless --frames 3 --bodies 1000000 --solver tree --out "$out/render"
step render-orb "$gravlab" --headless --frames 3 --bodies 1000000 --solver tree --orb-domains 64 --orb-cells \
    --out "$out/render-orb"

# Bodies in and out. Large files stay in a scratch folder; OUTDIR gets the logs and the frames' summaries.
scratch=${GPU_CHECK_SCRATCH:-/tmp/gravlab-gpu-check}
mkdir -p "$scratch"
load_files() {
    python3 scripts/write_sample_snapshots.py 1048576 "$scratch" || return 1
    "$gravlab" --load "$scratch/plummer_1048576.hdf5" --solver tree --dt 1e-4 --frames 3 --out "$out/load-hdf5" &&
        "$gravlab" --load "$scratch/plummer_1048576.tipsy" --solver tree --frames 3 --out "$out/load-tipsy"
}
step load-files load_files
step bench-io "$gravlab" bench --io --bodies 16777216 --steps 3 --io-dir "$scratch"
step png-1080p "$gravlab" --headless --bodies 1048576 --solver tree --frames 120 --width 1920 --height 1080 \
    --out "$scratch/png-1080p"
movie_1080p() {
    local movie=$scratch/galaxy-collision-1080p.mp4 frames=600
    [ "$quick" = 1 ] && frames=240 # 40 s less, so the quick check fits a 10-minute command
    "$gravlab" --headless --bodies 1048576 --solver tree --frames "$frames" --width 1920 --height 1080 \
        --movie "$movie" || return 1
    local probed
    probed=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,width,height \
        -of csv=p=0 "$movie")
    echo "ffprobe: $probed"
    [ "$probed" = "1920,1080,$frames" ]
}
if command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null; then
    step movie-1080p movie_1080p
else
    summary+=("$(printf '%-12s %-6s %5s   %s' movie-1080p skip - 'no ffmpeg and ffprobe on PATH')")
fi

echo
grep -h "frames in\|^ *tipsy\|^ *hdf5\|^ *csv\|^snapshot\|ffprobe\|gravlab: .*bodies, solver" "$out"/load-files.log \
    "$out"/bench-io.log "$out"/png-1080p.log "$out"/movie-1080p.log 2>/dev/null
echo
cat "$out/bench-direct.md" "$out/bench-tree.md" "$out/sweep-tree.md" "$out/criterion-curve.md" "$out/bench-orb.md" \
    "$out/bench-ranks.md" "$out/accuracy.log" \
    2>/dev/null
echo
echo "GPU: $(tail -n +2 "$out/gpu.txt")"
printf '%-12s %-6s %6s  %s\n' step result time log
printf '%s\n' "${summary[@]}"
exit $failed
