#!/usr/bin/env bash
# Compiles the GEMM configurations (specs/gemm.tile, and the transposed
# variants specs/gemm_{nt,tn,tt}.tile) that tools/gpu/bench_gemm.py checks and
# times, with the tilec of BUILD_DIR (default build/), into OUTDIR (default
# build/gemm-kernels), one folder per configuration: for sm_90 (the mma.sync
# path, which the H200 runs natively; folders named <dtype>-<config>) and
# for sm_90a (the wgmma path, warp-specialized with TMA where the tensors
# allow; folders named sm90a-<dtype>-<config>).
#
#   tools/gpu/compile_gemm.sh [OUTDIR] [ARCH...]     (ARCH: sm_90, sm_90a)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tilec=${BUILD_DIR:-$root/build}/tools/tilec/tilec
out=${1:-$root/build/gemm-kernels}
shift || true
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(sm_90 sm_90a)
rm -rf "$out"

# compile DIR SPEC ARCH FLAGS...: one configuration, with its resource line.
compile() {
  local dir=$1 spec=$2 arch=$3
  shift 3
  mkdir -p "$dir"
  "$tilec" "$root/specs/$spec" --arch "$arch" "$@" --emit=cubin,ptx,json \
    -o "$dir"
  echo "$(basename "$dir"): $(grep -o '"registers": [0-9]*' "$dir"/*.json)," \
    "$(grep -o '"spill_stores": [0-9]*' "$dir"/*.json)"
}

configs=(
  "m128n128k32s3t128:"
  "m128n256k32s3t256:-D block_N=256 -D threads=256"
  "m128n128k64s3t128:-D block_K=64"
  "m128n256k64s3t256:-D block_N=256 -D block_K=64 -D threads=256"
  "m128n128k64s4t128:-D block_K=64 -D stages=4"
  "m128n128k32s4t128:-D stages=4"
  "m128n128k64s2t128:-D block_K=64 -D stages=2"
)
# Only the wgmma path has the registers for these.
wgmma_configs=(
  "m256n128k64s3t256:-D block_M=256 -D block_K=64 -D threads=256"
  "m256n128k64s4t256:-D block_M=256 -D block_K=64 -D stages=4 -D threads=256"
  "m128n256k64s4t256:-D block_N=256 -D block_K=64 -D stages=4 -D threads=256"
  "m128n256k32s6t256:-D block_N=256 -D stages=6 -D threads=256"
  "m128n128k32s6t128:-D stages=6"
  "m128n128k64s4t256:-D block_K=64 -D stages=4 -D threads=256"
  "m128n64k128s4t256:-D block_N=64 -D block_K=128 -D stages=4 -D threads=256"
  "m64n128k64s8t256:-D block_M=64 -D block_K=64 -D stages=8 -D threads=256"
  "m64n256k64s4t128:-D block_M=64 -D block_N=256 -D block_K=64 -D stages=4"
)
for arch in "${archs[@]}"; do
  prefix=""
  list=("${configs[@]}")
  if [ "$arch" = sm_90a ]; then
    prefix="sm90a-"
    list+=("${wgmma_configs[@]}")
  fi
  for dtype in f16 bf16; do
    for entry in "${list[@]}"; do
      # shellcheck disable=SC2086
      compile "$out/$prefix$dtype-${entry%%:*}" gemm.tile "$arch" \
        -D dtype=$dtype ${entry#*:}
    done
    # The transposed variants at the best configuration measured (on
    # sm_90a also at the warp-specialized ones' best: 128 x 256 x 64, and
    # 128 x 128 x 64 on 256 threads with the TMA-store epilogue).
    for variant in nt tn tt; do
      compile "$out/$prefix$dtype-$variant-m128n128k64s3t128" \
        "gemm_$variant.tile" "$arch" -D dtype=$dtype -D block_K=64
      if [ "$arch" = sm_90a ]; then
        compile "$out/$prefix$dtype-$variant-m128n256k64s4t256" \
          "gemm_$variant.tile" "$arch" -D dtype=$dtype -D block_N=256 \
          -D block_K=64 -D stages=4 -D threads=256
        compile "$out/$prefix$dtype-$variant-m128n128k64s4t256" \
          "gemm_$variant.tile" "$arch" -D dtype=$dtype -D block_K=64 \
          -D stages=4 -D threads=256
      fi
    done
  done
  # f16 accumulation (f16 inputs only; mma.sync on both architectures).
  compile "$out/${prefix}f16-m128n128k64s3t128-f16acc" gemm.tile "$arch" \
    -D dtype=f16 -D accum=f16 -D block_K=64
done
