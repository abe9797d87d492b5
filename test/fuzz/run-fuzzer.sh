#!/usr/bin/env bash
# Runs the front-end fuzzer for a while from the seed corpus.
#
#   test/fuzz/run-fuzzer.sh [FUZZER [SECONDS]]
#
# FUZZER defaults to build-fuzz/test/fuzz/tilec-fuzz-frontend; build it with
#   cmake -G Ninja -S . -B build-fuzz -DCMAKE_C_COMPILER=clang-14 \
#     -DCMAKE_CXX_COMPILER=clang++-14 -DTILEC_BUILD_FUZZER=ON \
#     -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
#   ninja -C build-fuzz tilec-fuzz-frontend
# New interesting inputs are kept in a scratch directory (printed at the
# end); crashes are written to the current directory as crash-*.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fuzzer=${1:-$here/../../build-fuzz/test/fuzz/tilec-fuzz-frontend}
seconds=${2:-60}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tilec-fuzz.XXXXXX")
echo "fuzzing $fuzzer for ${seconds}s; new inputs in $scratch"
exec "$fuzzer" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -rss_limit_mb=2048 -dict="$here/tile.dict" -print_final_stats=1 \
  "$scratch" "$here/corpus"
