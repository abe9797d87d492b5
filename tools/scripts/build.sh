#!/usr/bin/env bash
# Configures and builds tilec (compiler, runtime, tools, tests) into BUILD_DIR
# (default: build/ at the repository root). Extra arguments go to CMake.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc)}

cmake -G Ninja -S "$root" -B "$build_dir" \
  -DCMAKE_BUILD_TYPE=Release \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit "$@"
cmake --build "$build_dir" -j "$jobs"
