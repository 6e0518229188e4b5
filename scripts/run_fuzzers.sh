#!/usr/bin/env bash
# Fuzzes the snapshot readers: configures a clang build of the libFuzzer targets alone (fuzz/CMakeLists.txt) in its own
# folder, builds them, and runs each for SECONDS on a fresh copy of its seed corpus (fuzz/corpus/<target>/) with the
# -max_len its gravlab_add_fuzzer line gives. Exits non-zero when any target crashes, leaks or trips a sanitizer, and
# names the input libFuzzer saved (replay it with BUILD_DIR/fuzz/<target> FILE). Targets are those the build lists in
# BUILD_DIR/fuzz/fuzzers.txt, so a new one needs no change here. A target marked tolerant (FAULTS_OUTSIDE_OURS in
# fuzz/CMakeLists.txt: the HDF5 reader, whose libhdf5 crashes in its own parsers on damaged files) runs past crashes,
# and only faults in this repository's code count as findings.
#   scripts/run_fuzzers.sh SECONDS [BUILD_DIR]     BUILD_DIR defaults to build-fuzz; GRAVLAB_FUZZ_JOBS sets -j (2)
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 || ! "$1" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/run_fuzzers.sh SECONDS [BUILD_DIR]   (SECONDS per target, a whole number > 0)" >&2
  exit 2
fi
seconds=$1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath -m "${2:-$root/build-fuzz}")

for tool in clang clang++ cmake; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "run_fuzzers: $tool not found. Fuzzing needs clang and its libFuzzer runtime (Debian packages clang and" \
         "libclang-rt-14-dev): run scripts/setup.sh --fuzz" >&2
    exit 1
  fi
done

CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DGRAVLAB_FUZZ=ON -DGRAVLAB_CUDA=OFF -DGRAVLAB_BUILD_TESTS=OFF \
  -DGRAVLAB_WARNINGS_AS_ERRORS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target gravlab_fuzzers -j "${GRAVLAB_FUZZ_JOBS:-2}"

failed=()
# ours LOG: the report lines of LOG that put a fault in this repository's code (sim/, fuzz/, include/): a sanitizer
# message located in one of its files, or a stack whose first frame outside the C library and the sanitizer runtime
# (memcpy and its interceptor run on behalf of their caller) is one of its files. Faults inside an uninstrumented
# library show that library's .so there instead.
ours() {
  grep -E "$root/(sim|fuzz|include)/[^ ]*: runtime error" "$1" || true
  awk -v root="$root" '
    /^ *#[0-9]+ / && !decided {
      if ($0 ~ /__interceptor_|__asan|__sanitizer|__ubsan|sysdeps|libc\.so/) next
      decided = 1
      if (index($0, root "/sim/") || index($0, root "/fuzz/") || index($0, root "/include/")) print
    }' "$1"
}
# triage TARGET RUN: replays every input a tolerant run saved (fork mode logs only the first line of each report) and
# keeps each replay's report; prints the inputs whose report faults in this repository's code.
triage() {
  local target=$1 run=$2 input
  for input in "$run"/crash-* "$run"/timeout-*; do
    [[ -e "$input" ]] || continue
    ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=0 "$build/fuzz/$target" "$input" >"$input.report" 2>&1 || true
    [[ -n "$(ours "$input.report")" ]] && echo "$input"
  done
}
while read -r target max_len mode; do
  run="$build/fuzz-runs/$target"
  rm -rf "$run"
  mkdir -p "$run/corpus"
  cp "$root/fuzz/corpus/$target/"* "$run/corpus/"
  echo "run_fuzzers: $target for ${seconds}s (-max_len=$max_len, $mode), log in $run/log"
  if [[ "$mode" == tolerant ]]; then
    # Runs past crashes in forked workers; huge allocations fail as in a normal build; leaks on the library's error
    # paths are not ours to fix. Findings are the reports that fault in our code.
    (cd "$run" && ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=2048:detect_leaks=0 \
      "$build/fuzz/$target" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -fork=2 -ignore_crashes=1 \
      -ignore_ooms=1 -ignore_timeouts=1 -detect_leaks=0 -malloc_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$run/" corpus >log 2>&1) || true
    outside=$(find "$run" -maxdepth 1 -name 'crash-*' ! -name '*.report' | wc -l)
    mapfile -t mine < <(triage "$target" "$run")
    if ((${#mine[@]} > 0)); then
      failed+=("$target")
      echo "run_fuzzers: $target FAILED: ${#mine[@]} saved inputs fault in Gravlab's code; the first report:" >&2
      ours "${mine[0]}.report" | head -n 5 >&2
      echo "  input saved: ${mine[0]} (replay: $build/fuzz/$target ${mine[0]})" >&2
    else
      grep -E "^#[0-9]+: cov" "$run/log" | tail -n 1 | sed 's/^/  /' || true
      echo "  $outside saved crash inputs, each replayed: none faults in Gravlab's code (inputs and reports in $run)"
    fi
    continue
  fi
  # -artifact_prefix keeps any crash input next to the log; the corpus copy grows, the committed seeds stay as they are.
  if (cd "$run" && "$build/fuzz/$target" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$run/" corpus >log 2>&1); then
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|^#[0-9]+.*DONE" "$run/log" | sed 's/^/  /' || true
  else
    failed+=("$target")
    echo "run_fuzzers: $target FAILED; the end of its log:" >&2
    tail -n 40 "$run/log" >&2
    for artifact in "$run"/crash-* "$run"/leak-* "$run"/timeout-* "$run"/oom-*; do
      [[ -e "$artifact" ]] && echo "  input saved: $artifact (replay: $build/fuzz/$target $artifact)" >&2
    done
  fi
done <"$build/fuzz/fuzzers.txt"

if ((${#failed[@]} > 0)); then
  echo "run_fuzzers: findings in ${failed[*]}" >&2
  exit 1
fi
echo "run_fuzzers: no findings"
