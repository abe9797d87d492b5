#!/usr/bin/env bash
# Compiles the row-wise kernels (softmax, softmax_online, row_sum, rmsnorm,
# layernorm), the fused GEMM epilogue (gemm_bias_gelu) and FlashAttention
# that tools/gpu/bench_rows.py, bench_epilogue.py and bench_attention.py
# check and time,
# with the tilec of BUILD_DIR (default build/), for ARCH (default sm_90a),
# into OUTDIR (default build/row-kernels), one folder per configuration.
#
#   tools/gpu/compile_rows.sh [OUTDIR] [ARCH]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tilec=${BUILD_DIR:-$root/build}/tools/tilec/tilec
out=${1:-$root/build/row-kernels}
arch=${2:-sm_90a}
rm -rf "$out"

# compile NAME SPEC FLAGS...: one configuration, with its resource line.
compile() {
  local name=$1 spec=$2
  shift 2
  mkdir -p "$out/$name"
  "$tilec" "$root/specs/$spec" --arch "$arch" "$@" --emit=cubin,ptx,json \
    -o "$out/$name"
  echo "$name: $(grep -o '"registers": [0-9]*' "$out/$name"/*.json)," \
    "$(grep -o '"spill_stores": [0-9]*' "$out/$name"/*.json)"
}

# Rows held in registers: block_N elements per row, block_M rows per block
# of `threads` (specs/softmax.tile has no block_M: one row per block).
row_configs=(
  "m1n1024t128:-D block_N=1024 -D threads=128"
  "m1n4096t256:-D block_N=4096 -D threads=256"
  "m1n4096t512:-D block_N=4096 -D threads=512"
  "m1n8192t256:-D block_N=8192 -D threads=256"
  "m1n8192t512:-D block_N=8192 -D threads=512"
  "m1n8192t1024:-D block_N=8192 -D threads=1024"
  "m1n16384t1024:-D block_N=16384 -D threads=1024"
  "m1n32768t1024:-D block_N=32768 -D threads=1024"
)
multirow_configs=(
  "m4n1024t128:-D block_M=4 -D block_N=1024 -D threads=128"
  "m8n1024t256:-D block_M=8 -D block_N=1024 -D threads=256"
  "m16n1024t512:-D block_M=16 -D block_N=1024 -D threads=512"
  "m2n4096t256:-D block_M=2 -D block_N=4096 -D threads=256"
  "m4n4096t512:-D block_M=4 -D block_N=4096 -D threads=512"
  "m2n8192t512:-D block_M=2 -D block_N=8192 -D threads=512"
)
# specs/layernorm.tile takes block_M rows one after another (rows of at most
# block_N columns pipelined through shared memory, `stages` buffers): m8 and
# m16 for rows that fit, m1 for longer ones (three chunked passes each).
layernorm_configs=(
  "m8n1024t128:-D block_M=8 -D block_N=1024 -D threads=128"
  "m16n1024t128:-D block_M=16 -D block_N=1024 -D threads=128"
  "m8n1024t128s2:-D block_M=8 -D block_N=1024 -D threads=128 -D stages=2"
  "m8n4096t256:-D block_M=8 -D block_N=4096 -D threads=256"
  "m4n4096t256:-D block_M=4 -D block_N=4096 -D threads=256"
  "m8n4096t512:-D block_M=8 -D block_N=4096 -D threads=512"
  "m8n8192t512:-D block_M=8 -D block_N=8192 -D threads=512"
  "m16n8192t512:-D block_M=16 -D block_N=8192 -D threads=512"
  "m16n4096t256:-D block_M=16 -D block_N=4096 -D threads=256"
  "m8n8192t1024:-D block_M=8 -D block_N=8192 -D threads=1024"
  "m1n4096t256:-D block_M=1 -D block_N=4096 -D threads=256"
  "m1n8192t512:-D block_M=1 -D block_N=8192 -D threads=512"
  "m1n16384t1024:-D block_M=1 -D block_N=16384 -D threads=1024"
)
for dtype in f16 bf16; do
  for spec in softmax softmax_online rmsnorm layernorm; do
    case $spec in
      softmax) list=("${row_configs[@]}") ;;
      layernorm) list=("${layernorm_configs[@]}") ;;
      *) list=("${row_configs[@]}" "${multirow_configs[@]}") ;;
    esac
    for entry in "${list[@]}"; do
      # Only f16 gets the whole sweep; bf16 is checked at a few sizes.
      if [ "$dtype" = bf16 ] && [ "${entry%%:*}" != m1n1024t128 ] &&
        [ "${entry%%:*}" != m1n8192t256 ] &&
        [ "${entry%%:*}" != m8n1024t128 ] &&
        [ "${entry%%:*}" != m1n8192t512 ]; then
        continue
      fi
      # shellcheck disable=SC2086
      compile "$spec-$dtype-${entry%%:*}" "$spec.tile" -D dtype=$dtype \
        ${entry#*:}
    done
  done
  compile "row_sum-$dtype-m4n1024t128" row_sum.tile -D dtype=$dtype
  compile "row_sum-$dtype-m1n4096t256" row_sum.tile -D dtype=$dtype \
    -D block_M=1 -D block_N=4096 -D threads=256
  compile "row_sum-$dtype-m2n4096t512" row_sum.tile -D dtype=$dtype \
    -D block_M=2 -D block_N=4096 -D threads=512
  compile "row_sum-$dtype-m8n1024t256" row_sum.tile -D dtype=$dtype \
    -D block_M=8 -D block_N=1024 -D threads=256
  # layernorm without B, at the configurations that suit short, 4096- and
  # 8192-column rows and longer ones.
  for entry in "m8n1024t128:-D block_N=1024 -D threads=128" \
    "m8n4096t256:" "m8n8192t512:-D block_N=8192 -D threads=512" \
    "m1n8192t512:-D block_M=1 -D block_N=8192 -D threads=512"; do
    # shellcheck disable=SC2086
    compile "layernorm_nobias-$dtype-${entry%%:*}" layernorm.tile \
      -D dtype=$dtype -D has_bias=false ${entry#*:}
  done
done

# The softmax specs with --fast-math (folders ending in -fm: ex2.approx and
# one reciprocal per row instead of libdevice's expf and div.rn per element;
# bench_rows.py checks and ranks them apart from the exact ones).
fast_math_configs=(
  "softmax:m1n1024t128:-D block_N=1024 -D threads=128"
  "softmax:m1n4096t256:-D block_N=4096 -D threads=256"
  "softmax:m1n8192t512:-D block_N=8192 -D threads=512"
  "softmax_online:m1n4096t256:-D block_N=4096 -D threads=256"
  "softmax_online:m1n8192t512:-D block_N=8192 -D threads=512"
)
for dtype in f16 bf16; do
  for entry in "${fast_math_configs[@]}"; do
    spec=${entry%%:*}
    rest=${entry#*:}
    # shellcheck disable=SC2086
    compile "$spec-$dtype-${rest%%:*}-fm" "$spec.tile" -D dtype=$dtype \
      ${rest#*:} --fast-math
  done
done

# Rows staged whole in shared memory (specs/*_staged.tile): 8 rows per
# block of 512 threads, rows of up to 32768 elements in two 64 KB stages,
# walked in chunks of 8192 (the best measured at 4096x32768).
staged_configs=(
  "m8n32768c8192t512s2:"
)
for dtype in f16 bf16; do
  for spec in softmax_staged rmsnorm_staged layernorm_staged; do
    for entry in "${staged_configs[@]}"; do
      # shellcheck disable=SC2086
      compile "$spec-$dtype-${entry%%:*}" "$spec.tile" -D dtype=$dtype \
        ${entry#*:}
    done
  done
  # shellcheck disable=SC2086
  compile "softmax_staged-$dtype-m8n32768c8192t512s2-fm" softmax_staged.tile \
    -D dtype=$dtype --fast-math
done

epilogue_configs=(
  "m128n128k32s3t128:"
  "m128n128k64s3t128:-D block_K=64"
  "m128n128k64s4t256:-D block_K=64 -D stages=4 -D threads=256"
  "m128n256k64s3t256:-D block_N=256 -D block_K=64 -D threads=256"
  "m256n128k64s3t256:-D block_M=256 -D block_K=64 -D threads=256"
  "m128n256k64s4t256:-D block_N=256 -D block_K=64 -D stages=4 -D threads=256"
  "m128n128k64s4t128:-D block_K=64 -D stages=4"
  "m64n256k64s4t128:-D block_M=64 -D block_N=256 -D block_K=64 -D stages=4"
)
for dtype in f16 bf16; do
  for entry in "${epilogue_configs[@]}"; do
    # shellcheck disable=SC2086
    compile "gemm_bias_gelu-$dtype-${entry%%:*}" gemm_bias_gelu.tile \
      -D dtype=$dtype ${entry#*:}
    # GELU's tanh form (cuBLASLt's), with --fast-math (tanh.approx.f32);
    # not at 256x128x64x3, which spills 15.9 KB there (ptxas C7511).
    [ "${entry%%:*}" = m256n128k64s3t256 ] && continue
    # shellcheck disable=SC2086
    compile "gemm_bias_gelu_tanh-$dtype-${entry%%:*}-fm" \
      gemm_bias_gelu_tanh.tile -D dtype=$dtype ${entry#*:} --fast-math
  done
  # shellcheck disable=SC2086
  compile "gemm_bias_gelu_tanh-$dtype-m128n128k64s4t256" \
    gemm_bias_gelu_tanh.tile -D dtype=$dtype -D block_K=64 -D stages=4 \
    -D threads=256
done

# FlashAttention (specs/flash_attention.tile), checked and timed by
# tools/gpu/bench_attention.py.
for dtype in f16 bf16; do
  for causal in false true; do
    compile "flash_attention-$dtype-causal_$causal" flash_attention.tile \
      -D dtype=$dtype -D causal=$causal
  done
done
