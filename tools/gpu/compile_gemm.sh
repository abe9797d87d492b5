#!/usr/bin/env bash
# Compiles the GEMM configurations (specs/gemm.tile, and the transposed
# variants specs/gemm_{nt,tn,tt}.tile) that tools/gpu/bench_gemm.py checks and
# times, with the tilec of BUILD_DIR (default build/), into OUTDIR (default
# build/gemm-kernels), one folder per configuration, for sm_90 (the mma.sync
# path, which the H200 runs natively).
#
#   tools/gpu/compile_gemm.sh [OUTDIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tilec=${BUILD_DIR:-$root/build}/tools/tilec/tilec
out=${1:-$root/build/gemm-kernels}
rm -rf "$out"
configs=(
  "m128n128k32s3t128:"
  "m128n256k32s3t256:-D block_N=256 -D threads=256"
  "m128n128k64s3t128:-D block_K=64"
  "m128n256k64s3t256:-D block_N=256 -D block_K=64 -D threads=256"
  "m128n128k64s4t128:-D block_K=64 -D stages=4"
  "m128n128k32s4t128:-D stages=4"
  "m128n128k64s2t128:-D block_K=64 -D stages=2"
)
for dtype in f16 bf16; do
  for entry in "${configs[@]}"; do
    name=${entry%%:*}
    flags=${entry#*:}
    dir="$out/$dtype-$name"
    mkdir -p "$dir"
    # shellcheck disable=SC2086
    "$tilec" "$root/specs/gemm.tile" --arch sm_90 -D dtype=$dtype $flags \
      --emit=cubin,ptx,json -o "$dir"
    echo "$dtype-$name: $(grep -o '"registers": [0-9]*' "$dir"/*.json), $(grep -o '"spill_stores": [0-9]*' "$dir"/*.json)"
  done
  # The transposed variants at the best configuration measured.
  for variant in nt tn tt; do
    dir="$out/$dtype-$variant-m128n128k64s3t128"
    mkdir -p "$dir"
    "$tilec" "$root/specs/gemm_$variant.tile" --arch sm_90 -D dtype=$dtype \
      -D block_K=64 --emit=cubin,ptx,json -o "$dir"
    echo "$dtype-$variant: $(grep -o '"registers": [0-9]*' "$dir"/*.json), $(grep -o '"spill_stores": [0-9]*' "$dir"/*.json)"
  done
done
# f16 accumulation (f16 inputs only).
dir="$out/f16-m128n128k64s3t128-f16acc"
mkdir -p "$dir"
"$tilec" "$root/specs/gemm.tile" --arch sm_90 -D dtype=f16 -D accum=f16 \
  -D block_K=64 --emit=cubin,ptx,json -o "$dir"
