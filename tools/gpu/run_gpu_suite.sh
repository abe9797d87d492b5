#!/usr/bin/env bash
# The whole GPU run in one go, on the GPU machine (no LLVM needed):
#   1. refuse stale kernels: the kernel directory must have been compiled
#      from this checkout's sources (tools/gpu/gpu_kernels.py check);
#   2. configure and build the runtime-only tree (libtilert, tile-bench, the
#      tests) into build-gpu/;
#   3. run the unit tests (CTest, label != gpu);
#   4. run the GPU tests on those kernels, with a GPU required, and the
#      kernel-package tests (tilert.Package dispatch, tile-bench tune);
#   5. install the runtime into OUTDIR/package/prefix and build the project
#      of test/package against it alone, with the kernels its build on the
#      development machine compiled (cubins and a fatbin for sm_80 + sm_90a),
#      and run them through libtilert.so and libtilert.a, and compiled into
#      the program (tilec_embed_kernels, run-embedded);
#   6. time vector_add through tile-bench (the variant that loads on the
#      device);
#   7. benchmark the elementwise kernels against PyTorch in one process;
#   8. measure the host time per launch (Python, C++) against PyTorch's and
#      launch inside CUDA graph capture (tools/gpu/bench_launch.py);
#   9. check the lines a kernel prints with tile.print
#      (tools/gpu/check_print.py);
# then print a summary and the benchmark table last. Logs and JSON results go
# to OUTDIR. Exits non-zero if any step failed.
#
#   tools/gpu/run_gpu_suite.sh OUTDIR
#
# The kernels come from the development machine, where
# `cmake --build build --target gpu-kernels` compiles them into build/kernels
# with the tilec built there; carry that folder here with the checkout.
# Environment: TILEC_KERNEL_DIR (default build/kernels) holds the compiled
# kernels; TILEC_PACKAGE_KERNEL_DIR (default build/package-kernels, written
# by the CTest test package-consumer) those of test/package; BUILD_DIR
# (default build-gpu) the build tree. Headers the machine
# lacks (dlpack, CLI11, Catch2) are taken from .deps/include.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1"
outdir=$(cd "$1" && pwd)
kernels=${TILEC_KERNEL_DIR:-$root/build/kernels}
package_kernels=${TILEC_PACKAGE_KERNEL_DIR:-$root/build/package-kernels}
build=${BUILD_DIR:-$root/build-gpu}
declare -A results

step() { printf '\n== %s\n' "$*"; }

step "kernels in $kernels"
python3 "$root/tools/gpu/gpu_kernels.py" check "$kernels" 2>&1 |
  tee "$outdir/kernels.log"

step "build (runtime only) into $build"
# The Python module's C extension is built for the python3 that runs the
# benchmarks (where its headers are installed).
cmake -G Ninja -S "$root" -B "$build" -DTILEC_BUILD_COMPILER=OFF \
  -DCMAKE_BUILD_TYPE=Release -DTILEC_GPU_KERNEL_DIR="$kernels" \
  -DPython3_EXECUTABLE="$(command -v python3)" 2>&1 |
  tee "$outdir/build.log"
cmake --build "$build" -j "$(nproc)" 2>&1 | tee -a "$outdir/build.log"

step "unit tests"
if ctest --test-dir "$build" -LE gpu --no-tests=error --output-on-failure \
    2>&1 | tee "$outdir/unit_tests.log"; then
  results[unit]=passed
else
  results[unit]=FAILED
fi

step "GPU tests on $kernels"
gpu_rc=0
"$build/test/gpu/tilert-gpu-tests" --require-gpu \
  --json "$outdir/gpu_tests.json" "$kernels" 2>&1 |
  tee "$outdir/gpu_tests.log" || gpu_rc=$?
if ((gpu_rc == 0)); then
  results[gpu]="passed ($(tail -n 1 "$outdir/gpu_tests.log"))"
else
  results[gpu]="FAILED ($(tail -n 1 "$outdir/gpu_tests.log"))"
fi

step "kernel packages on the GPU: dispatch, and tile-bench tune"
if TILERT_LIBRARY="$build/runtime/libtilert.so" \
    PYTHONPATH="$root/runtime/python${PYTHONPATH:+:$PYTHONPATH}" \
    bash -c 'cd "$1/test/gpu" && python3 package_dispatch.py "$2" &&
      python3 tune_package.py "$2" "$3"' _ "$root" "$kernels" \
      "$build/tools/tile-bench/tile-bench" 2>&1 | tee "$outdir/packages.log"; then
  results[packages]=passed
else
  results[packages]="FAILED (see $outdir/packages.log)"
fi

step "installed package: test/package with $package_kernels"
package_build() {
  # The carried kernels must come from this checkout's vector_add.tile.
  # (Each command is checked: errexit does not apply inside an `if`.)
  python3 - "$root/specs/vector_add.tile" "$package_kernels" <<'PY' || return 1
import glob, hashlib, json, os, sys
digest = hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest()
jsons = glob.glob(os.path.join(sys.argv[2], "*", "*.json"))
if not jsons:
    sys.exit("no kernels in %s (run ctest -R package-consumer on the "
             "development machine and carry build/package-kernels)" % sys.argv[2])
for path in jsons:
    if json.load(open(path))["source"]["sha256"] != digest:
        sys.exit("%s was not compiled from this checkout's %s" % (path, sys.argv[1]))
PY
  local package=$outdir/package
  rm -rf "$package" &&
    cmake --install "$build" --prefix "$package/prefix" &&
    cmake -G Ninja -S "$root/test/package" -B "$package/build" \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$package/prefix" \
      -DCONSUMER_KERNEL_DIR="$package_kernels" &&
    cmake --build "$package/build" || return 1
  # Exit status 77 (no GPU) is a failure here.
  "$package/build/run-vector-add" \
    "$package_kernels/k/vector_add.sm_90a.json" \
    "$package_kernels/k/vector_add.sm_80.json" &&
    "$package/build/run-vector-add" \
      "$package_kernels/kfat/vector_add.sm_80.json" &&
    "$package/build/run-vector-add-static" \
      "$package_kernels/kfat/vector_add.sm_90a.json" &&
    "$package/build/run-embedded"
}
if package_build 2>&1 | tee "$outdir/package.log"; then
  results[package]=passed
else
  results[package]="FAILED (see $outdir/package.log)"
fi

step "tile-bench vector_add f32"
# The first f32 vector_add that loads on device 0 (newest architecture
# first: the sm_90a cubin on an H100/H200, the sm_80 one on an A100).
vector_add=$(TILERT_LIBRARY="$build/runtime/libtilert.so" \
  PYTHONPATH="$root/runtime/python${PYTHONPATH:+:$PYTHONPATH}" \
  python3 - "$kernels" <<'PY'
import glob, json, os, sys
import tilert
found = []
for path in glob.glob(os.path.join(sys.argv[1], "**", "*.json"), recursive=True):
    try:
        meta = json.load(open(path))
    except ValueError:
        continue
    if meta.get("name") == "vector_add" and meta.get("constants", {}).get("dtype") == "f32":
        arch = meta.get("arch", "")
        digits = "".join(ch for ch in arch if ch.isdigit())
        found.append((-int(digits or 0), not arch.endswith("a"), path))
for _, _, path in sorted(found):
    try:
        tilert.Kernel(path).prepare(0)
    except tilert.Error as error:
        print(f"{path} does not run on device 0: {error}", file=sys.stderr)
        continue
    print(path)
    break
PY
) || vector_add=""
if [[ -z $vector_add ]]; then
  results[tile_bench]="FAILED (no vector_add f32 kernel of $kernels runs on device 0)"
elif "$build/tools/tile-bench/tile-bench" "$vector_add" --dim N=268435456 \
    --json "$outdir/tile_bench_vector_add_f32.json" 2>&1 |
    tee "$outdir/tile_bench.log"; then
  results[tile_bench]=passed
else
  results[tile_bench]=FAILED
fi

step "elementwise benchmark against PyTorch"
if TILERT_LIBRARY="$build/runtime/libtilert.so" \
    PYTHONPATH="$root/runtime/python${PYTHONPATH:+:$PYTHONPATH}" \
    python3 "$root/tools/gpu/bench_elementwise.py" --kernels "$kernels" \
      --json "$outdir/bench_elementwise.json" \
      --table "$outdir/bench_table.txt" 2>&1 | tee "$outdir/bench.log"; then
  results[bench]=passed
else
  results[bench]=FAILED
fi

step "host time per launch and CUDA graph capture"
if TILERT_LIBRARY="$build/runtime/libtilert.so" \
    PYTHONPATH="$root/runtime/python${PYTHONPATH:+:$PYTHONPATH}" \
    python3 "$root/tools/gpu/bench_launch.py" --kernels "$kernels" \
      --tile-bench "$build/tools/tile-bench/tile-bench" \
      --json "$outdir/bench_launch.json" \
      --table "$outdir/launch_table.txt" 2>&1 | tee "$outdir/launch.log"; then
  results[launch]=passed
else
  results[launch]="FAILED (see $outdir/launch.log)"
fi

step "device print"
if TILERT_LIBRARY="$build/runtime/libtilert.so" \
    PYTHONPATH="$root/runtime/python${PYTHONPATH:+:$PYTHONPATH}" \
    python3 "$root/tools/gpu/check_print.py" --kernels "$kernels" 2>&1 |
    tee "$outdir/print.log"; then
  results[print]=passed
else
  results[print]="FAILED (see $outdir/print.log)"
fi

status=0
step "summary (logs and JSON in $outdir)"
for name in unit gpu packages package tile_bench bench launch print; do
  printf '%-11s %s\n' "$name" "${results[$name]}"
  [[ ${results[$name]} == passed* ]] || status=1
done
echo
if [[ -f $outdir/bench_table.txt ]]; then
  cat "$outdir/bench_table.txt"
else
  echo "(no benchmark table: see $outdir/bench.log)"
fi
echo
if [[ -f $outdir/launch_table.txt ]]; then
  cat "$outdir/launch_table.txt"
else
  echo "(no launch overhead table: see $outdir/launch.log)"
fi
exit $status
