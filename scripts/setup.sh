#!/usr/bin/env bash
# Installs Gravlab's build and test dependencies from Debian 12 packages (with --fuzz, those of the fuzz build too).
# Idempotent: packages already present are left alone and nothing is downloaded when everything is there. Works as
# root, or through sudo when it exists.
# CUDA is optional and not installed here: with nvcc on the machine (/usr/local/cuda) the CUDA core is built too.
set -euo pipefail

packages=(
  build-essential cmake   # C++ compiler and the build
  libglfw3-dev      # window and input
  python3-glad      # OpenGL loader generator, run at build time
  libimgui-dev      # Dear ImGui 1.86 and its backend sources
  libglm-dev        # camera maths
  libgtest-dev      # tests
  libopengl-dev libegl-dev libgl-dev   # GL dispatch (libOpenGL), EGL for headless rendering, GL headers
  libcli11-dev      # command line
  nlohmann-json3-dev   # session files and the JSON of bench and accuracy
  libstb-dev zlib1g-dev   # PNG output (stb_image_write, zlib's deflate)
  ffmpeg            # movies (--movie, the window's recording) and the tests that check them with ffprobe
  libhdf5-dev       # HDF5 snapshots (GADGET-4, SWIFT, AREPO)
  libopenmpi-dev openmpi-bin   # MPI ranks (mpirun -np K gravlab ...) and their tests
  libhwy-dev        # Highway: the CPU solvers' SIMD, dispatched at run time to the widest vector unit present
  python3-h5py python3-numpy   # tests: an independent HDF5 writer and reader
  libegl-mesa0 libgl1-mesa-dri   # Mesa's software OpenGL (llvmpipe): headless frames and tests without a GPU
  pybind11-dev python3-dev        # the gravlab Python module (skipped by the build when these are missing)
  python3-pytest                  # its tests (it takes numpy arrays; python3-numpy is listed above)
  python3-matplotlib              # scripts/plot_timesteps.py: energy error against cost, and its test
)
# scripts/setup.sh --fuzz adds what scripts/run_fuzzers.sh needs: clang and its libFuzzer and sanitizer runtimes.
if [[ "${1:-}" == "--fuzz" ]]; then
  packages+=(clang libclang-rt-14-dev)
fi

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} dependencies are installed."
  exit 0
fi
echo "setup: installing ${missing[*]}"

if [[ $(id -u) -eq 0 ]]; then
  run_as_root=()
elif command -v sudo >/dev/null 2>&1; then
  run_as_root=(sudo)
else
  echo "setup: these packages are missing and this user cannot install them (not root, no sudo):" >&2
  echo "  ${missing[*]}" >&2
  echo "Ask an administrator to run: apt-get install -y ${missing[*]}" >&2
  exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: apt-get not found: Gravlab's setup expects Debian 12. Install these packages by hand: ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if ! "${run_as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
  echo "setup: installing from the current package lists failed; refreshing them and trying again." >&2
  "${run_as_root[@]}" apt-get update
  "${run_as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}" || {
    echo "setup: could not install ${missing[*]}. Check the network and the apt sources, then run:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  }
fi
echo "setup: done."
