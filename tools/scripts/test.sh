#!/usr/bin/env bash
# Installs what is missing, builds tilec and runs the whole test suite: the lit
# tests, the Catch2 unit tests, the runtime tests, the GPU tests (which skip
# with a visible message when no GPU is present) and a short fuzzing run of
# the front end. Exits non-zero on the first failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
fuzz_dir=${FUZZ_BUILD_DIR:-$root/build-fuzz}

"$root/tools/scripts/install-deps.sh"
BUILD_DIR=$build_dir "$root/tools/scripts/build.sh"

echo "== lit tests"
cmake --build "$build_dir" --target check-tilec

echo "== unit, runtime and GPU tests (CTest)"
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"

echo "== fuzzing the front end for 60 s (clang-14, libFuzzer + ASan/UBSan)"
CC=clang-14 CXX=clang++-14 cmake -G Ninja -S "$root" -B "$fuzz_dir" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILEC_BUILD_FUZZER=ON \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >/dev/null
cmake --build "$fuzz_dir" --target tilec-fuzz-frontend
ctest --test-dir "$fuzz_dir" -R '^fuzz-frontend$' \
  --output-on-failure
echo "== all tests passed"
