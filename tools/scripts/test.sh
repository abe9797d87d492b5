#!/usr/bin/env bash
# Installs what is missing, builds tilec and runs the whole test suite: the lit
# tests, the Catch2 unit tests, the runtime tests, the installed package with
# a project outside the tree (also against a runtime-only build), the GPU
# tests (which skip with a visible message when no GPU is present) and a
# short fuzzing run of the front end. Exits non-zero on the first failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
fuzz_dir=${FUZZ_BUILD_DIR:-$root/build-fuzz}
runtime_dir=${RUNTIME_BUILD_DIR:-$root/build-runtime}

"$root/tools/scripts/install-deps.sh"
BUILD_DIR=$build_dir "$root/tools/scripts/build.sh"

echo "== lit tests"
cmake --build "$build_dir" --target check-tilec

# --no-tests=error: a selection that matches nothing (a renamed test or
# label) fails instead of passing with "No tests were found".
echo "== unit and runtime tests (CTest)"
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error \
  -j "$(nproc)" -LE gpu

# Run directly so that its message shows: without a GPU it prints
# "SKIPPED: no CUDA GPU (...)" and exits 77.
echo "== GPU tests"
gpu_status=0
"$build_dir/test/gpu/tilert-gpu-tests" || gpu_status=$?
if ((gpu_status == 77)); then
  echo "GPU tests skipped: no GPU on this machine (run tools/gpu/run_gpu_suite.sh on one)"
elif ((gpu_status != 0)); then
  exit "$gpu_status"
fi

# CTest ran test/package/consumer_test.py on this build (package-consumer);
# this runs it again with a runtime-only build as well: what its install
# holds, what it refuses, and the consumer project built against it.
echo "== the installed package, with a runtime-only build ($runtime_dir)"
cmake -G Ninja -S "$root" -B "$runtime_dir" -DCMAKE_BUILD_TYPE=Release \
  -DTILEC_BUILD_COMPILER=OFF -DTILEC_BUILD_TESTS=OFF >/dev/null
cmake --build "$runtime_dir" -j "$(nproc)"
TILEC_DISABLE_CACHE=1 python3 "$root/test/package/consumer_test.py" \
  --build "$build_dir" --runtime-build "$runtime_dir"

echo "== fuzzing the front end for 60 s (clang-14, libFuzzer + ASan/UBSan)"
CC=clang-14 CXX=clang++-14 cmake -G Ninja -S "$root" -B "$fuzz_dir" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILEC_BUILD_FUZZER=ON \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >/dev/null
cmake --build "$fuzz_dir" --target tilec-fuzz-frontend
ctest --test-dir "$fuzz_dir" -R '^fuzz-frontend$' --no-tests=error \
  --output-on-failure
echo "== all tests passed"
