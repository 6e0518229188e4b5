#!/usr/bin/env bash
# Proves the README's Quick start on a fresh machine: builds a minimal Debian 12 root with debootstrap, adds only git
# and ca-certificates (what a newcomer needs to clone), clones the commit under test into it, and runs the README's two
# Quick start commands exactly as the README writes them, the test command first, then the run command (headless: the
# root has no display), and checks that frames were written. The root has no CUDA toolkit, so this is also the
# CPU-only build.
#
# Why a root and not this machine: a development or CI machine already has packages a fresh one lacks, so a green
# run here cannot show that scripts/setup.sh installs everything the build needs.
#
# Caching: the debootstrap result is kept, untouched, under $GRAVLAB_FRESH_CACHE (default /var/cache/gravlab-ci) and
# copied into a new root for every run, so no run sees what an earlier one installed; it is rebuilt after
# $GRAVLAB_FRESH_BASE_DAYS days (default 7). Downloaded .deb files are shared between runs too; apt checks each
# one against the signed package lists before using it.
#
# Needs root (debootstrap, chroot, mounts) and Debian's mirror. Mounts are undone on every exit, failed steps
# included, and the root is deleted only once nothing is mounted inside it.
# Usage: scripts/fresh_debian_check.sh [COMMIT]   (default HEAD of this checkout)
set -euo pipefail

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
commit=$(git -C "$repo" rev-parse "${1:-HEAD}")
cache=${GRAVLAB_FRESH_CACHE:-/var/cache/gravlab-ci}
base_days=${GRAVLAB_FRESH_BASE_DAYS:-7}
mirror=${GRAVLAB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=bookworm
base=$cache/$suite-minbase
stamp=$base/.gravlab-base-complete

say() { echo "fresh-root: $*"; }
fail() {
  echo "fresh-root: FAILED: $*" >&2
  exit 1
}

[[ $(id -u) -eq 0 ]] || fail "must run as root (debootstrap, chroot and mounts need it)."
for tool in debootstrap chroot mount umount findmnt; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found (Debian packages debootstrap, util-linux, mount)."
done

# --- the two commands, read from the README as written --------------------------------------------------------------
# The Quick start section holds two ```sh blocks: the run command, then the test command.
quick_start_blocks() {
  awk '/^## /{in_section = ($0 ~ /^## Quick start/)} in_section && /^```/{in_block = !in_block; if (!in_block) print "\x1e"; next}
       in_section && in_block' "$repo/README.md"
}
mapfile -d $'\x1e' -t blocks < <(quick_start_blocks)
((${#blocks[@]} >= 2)) || fail "README.md's Quick start section does not hold two sh blocks (run, then test)."
run_command=$(printf '%s' "${blocks[0]}" | sed '/^[[:space:]]*$/d')
test_command=$(printf '%s' "${blocks[1]}" | sed '/^[[:space:]]*$/d')
say "run command:  $run_command"
say "test command: $test_command"

# --- the cached base root ---------------------------------------------------------------------------------------------
mkdir -p "$cache/apt-archives/partial"
if [[ -f $stamp ]] && [[ -z $(find "$stamp" -mtime +"$base_days" 2>/dev/null) ]]; then
  say "reusing the minimal Debian 12 base from $(date -r "$stamp" +%F) ($base)"
else
  say "building a minimal Debian 12 base with debootstrap (--variant=minbase $suite)"
  rm -rf "$base"
  started=$SECONDS
  debootstrap --variant=minbase --cache-dir="$cache/apt-archives" "$suite" "$base" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    fail "debootstrap failed; its log is $cache/debootstrap.log"
  touch "$stamp"
  say "base built in $((SECONDS - started)) s"
fi

# --- a fresh root for this run, with mounts undone on every exit ----------------------------------------------------
work=$(mktemp -d /var/tmp/gravlab-fresh.XXXXXX)
root=$work/root
mounted=()
cleanup() {
  local status=$?
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null ||
      echo "fresh-root: could not unmount ${mounted[i]}" >&2
  done
  # Deleting a root with /dev still bound inside would delete the host's device nodes: only delete an unmounted root.
  if findmnt -rn -o TARGET | grep -q "^$work/"; then
    echo "fresh-root: something is still mounted under $work; left in place for inspection." >&2
  else
    rm -rf "$work"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

bind() { # bind SOURCE TARGET_INSIDE_ROOT [mount options...]
  local source=$1 target=$root$2
  shift 2
  mkdir -p "$target"
  mount "$@" "$source" "$target"
  mounted+=("$target")
}

cp -a "$base" "$root"
rm -f "$root/.gravlab-base-complete"
cp /etc/resolv.conf "$root/etc/resolv.conf"
bind proc /proc -t proc
bind sysfs /sys -t sysfs
bind /dev /dev --bind
bind devpts /dev/pts -t devpts
bind "$cache/apt-archives" /var/cache/apt/archives --bind

in_root() { # runs a bash script inside the root with a clean environment: no DISPLAY, no CUDA, no host variables
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive bash -euo pipefail -c "$1"
}

say "installing git and ca-certificates, as a newcomer would"
in_root 'apt-get update -qq && apt-get install -y -qq --no-install-recommends git ca-certificates >/dev/null'

say "cloning $commit"
git -C "$repo" bundle create "$work/gravlab.bundle" "$commit" HEAD >/dev/null 2>&1 ||
  git -C "$repo" bundle create "$work/gravlab.bundle" HEAD >/dev/null
mkdir -p "$root/src"
cp "$work/gravlab.bundle" "$root/src/gravlab.bundle"
in_root "git clone -q /src/gravlab.bundle /root/gravlab && git -C /root/gravlab checkout -q --detach $commit"

# --- the README's commands, exactly as written --------------------------------------------------------------------
readme_command() { # readme_command WHAT COMMAND LOG: runs COMMAND in the clone, its output shown and kept in LOG
  say "running the README's $1 command in the fresh root"
  started=$SECONDS
  in_root "cd /root/gravlab && $2" 2>&1 | tee "$3" || fail "the README's $1 command failed in a fresh Debian 12 root (output above)."
}

readme_command test "$test_command" "$work/test.log"
summary=$(grep -E '[0-9]+% tests passed' "$work/test.log" | tail -n 1)
[[ -n $summary ]] || fail "the test command printed no ctest summary."
say "test command passed in $((SECONDS - started)) s: $summary"

log=$work/run.log
readme_command run "$run_command" "$log" # no display in the root: it renders headless
folder=$(sed -n 's|^gravlab: wrote [0-9]* frames .* to \(/[^ ]*\)/ (frame_.*|\1|p' "$log" | tail -n 1)
[[ -n $folder ]] || fail "the run command did not say where it wrote its frames."
frames=$(find "$root$folder" -maxdepth 1 -name 'frame_*.png' -size +0 2>/dev/null | wc -l)
((frames > 0)) || fail "the run command wrote no frames into $folder."
untracked=$(in_root "git -C /root/gravlab status --porcelain --untracked-files=all" | grep -v '^?? build/' || true)
[[ -z $untracked ]] || fail "the README's commands left files git does not ignore in the checkout: $untracked"
say "run command passed in $((SECONDS - started)) s: $frames frames written in $folder"
say "README Quick start verified on a fresh Debian 12 root: $summary; $frames frames"
