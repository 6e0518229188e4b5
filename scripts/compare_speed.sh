#!/usr/bin/env bash
# Speed of two gravlab binaries side by side on the GPU, for a change that must not slow anything down: the tree step
# at 1M and 16M bodies, the direct and pair-once sums' interactions/s, and the ORB build at 1M bodies / 64 domains.
# Each measurement runs BEFORE then AFTER, alternating three times, and the table takes each binary's median, so drift
# of the machine during the call affects both alike.
# Usage: scripts/compare_speed.sh BEFORE_GRAVLAB AFTER_GRAVLAB OUTDIR
set -euo pipefail
before=$1 after=$2 out=$3
mkdir -p "$out"
field() { sed -n "s/.*\"$1\": *\"\{0,1\}\([^,\"}]*\).*/\1/p" <<<"$2"; }
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
measure() { # measure NAME FIELD ARGS...: prints "NAME | before | after | change"
    local name=$1 key=$2
    shift 2
    local b=() a=()
    for _ in 1 2 3; do
        b+=("$(field "$key" "$("$before" bench "$@" --json 2>>"$out/compare.err")")")
        a+=("$(field "$key" "$("$after" bench "$@" --json 2>>"$out/compare.err")")")
    done
    local mb ma
    mb=$(median3 "${b[@]}") ma=$(median3 "${a[@]}")
    awk -v n="$name" -v k="$key" -v b="$mb" -v a="$ma" \
        'BEGIN{printf "| %s | %s | %.4g | %.4g | %+.1f%% |\n", n, k, b, a, 100*(a-b)/b}'
}
{
    echo "| measurement | figure | before | after | change |"
    echo "| --- | --- | --- | --- | --- |"
    measure "tree step, 1M" medianStepMs --solver tree --bodies 1048576 --steps 20 --warmup 3
    measure "tree step, 16M" medianStepMs --solver tree --bodies 16777216 --steps 10 --warmup 3
    measure "direct, 1M" interactionsPerSecond --solver direct --bodies 1048576 --steps 5 --warmup 2
    measure "pair-once, 1M" interactionsPerSecond --solver direct-symmetric --bodies 1048576 --steps 5 --warmup 2
    measure "ORB build, 1M / 64" medianBuildMs --orb --bodies 1048576 --domains 64 --steps 10 --warmup 2
} | tee "$out/compare.md"
