#!/usr/bin/env bash
# Installs what tilec needs to build and test, from Debian's packages.
# Idempotent: installs only what is missing. Run as root (or with sudo).
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 python3-dev git
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22
  libcli11-dev nlohmann-json3-dev libyaml-cpp-dev catch2 libdlpack-dev
  clang-14 libclang-rt-14-dev
  pkgconf
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
      grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo=sudo
  echo "tilec: installing ${missing[*]}"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
    --no-install-recommends "${missing[@]}"
else
  echo "tilec: Debian packages already installed"
fi

# The CUDA toolkit (ptxas, fatbinary, cuda.h, the libcuda stub) is not a
# Debian package of the right version: it must already be installed.
cuda_home=${CUDA_HOME:-/usr/local/cuda}
for needed in bin/ptxas bin/fatbinary include/cuda.h; do
  if [[ ! -e $cuda_home/$needed ]]; then
    echo "tilec: error: CUDA 13 toolkit not found: $cuda_home/$needed is missing" \
         "(install the CUDA toolkit or set CUDA_HOME)" >&2
    exit 1
  fi
done
echo "tilec: CUDA toolkit at $cuda_home ($("$cuda_home/bin/ptxas" --version | tail -1))"
