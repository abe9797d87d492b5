#!/usr/bin/env python3
"""Checks tilec's GEMM kernels on odd shapes and times them against cuBLAS
(torch.matmul), in one process and on one stream.

    bench_gemm.py --kernels DIR --json OUT.json [--table OUT.txt] [--quick]
    bench_gemm.py --package PKG --json OUT.json ...


DIR holds GEMM kernels compiled by tools/gpu/compile_gemm.sh (one folder
per configuration with <stem>.<arch>.json + binaries, the stem naming the -D
values that differ from the defaults (gemm-dtype_bf16-block_K_64); the NN, NT, TN and TT
specs, whose metadata says which operand is stored transposed). For every
kernel:

* correctness: M, N, K drawn from {1, 17, 127, 1000, 4095, 4096, 8192} (K a
  multiple of 8), fresh random inputs, the output poisoned with NaN before
  the launch, the relative Frobenius error against fp32 PyTorch
  (||out - ref|| / ||ref||) at most 2e-2 and no NaN left;
* speed at 4096^3, 8192^3, 8192x8192x1024, 4096x4096x512, 16384^3 and
  M = 128 and M = 16 with N = K = 8192: warmup 10, 50 repetitions
  between CUDA events, median ms, TFLOP/s = 2*M*N*K / time, and the ratio to
  torch.matmul on the same (transposed) operands, measured in the same
  process.

--package PKG (repeatable, with or without --kernels) times a kernel package
(tilec-tune compile, tuned by tile-bench tune) as one kernel,
tilert.Package, which dispatches each call to the variant its tuning
database selects for the device and the shape (the nearest tuned shape for
the odd correctness shapes); each timed row names the variant selected.
"""

import argparse
import glob
import json
import os
import random
import sys

import torch

import tilert
from bench_report import finish
from gpu_timing import time_ms

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16}
CHECK_SIZES = [1, 17, 127, 1000, 4095, 4096, 8192]
BENCH_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (8192, 8192, 1024),
                (4096, 4096, 512), (16384, 16384, 16384), (128, 8192, 8192),
                (16, 8192, 8192)]
TOLERANCE = 2e-2


def operands(meta, dtype, m, n, k):
    """Random A and B as the kernel stores them (its metadata's shapes: A is
    [M, K] or, transposed, [K, M]; B is [K, N] or [N, K]) and op(A), op(B)."""
    dims = {"M": m, "N": n, "K": k}
    shapes = {p["name"]: p["shape"] for p in meta["params"] if p["kind"] == "tensor"}
    a = torch.randn(*[dims[d] for d in shapes["A"]], device="cuda", dtype=dtype)
    b = torch.randn(*[dims[d] for d in shapes["B"]], device="cuda", dtype=dtype)
    op_a = a if shapes["A"] == ["M", "K"] else a.t()
    op_b = b if shapes["B"] == ["K", "N"] else b.t()
    return a, b, op_a, op_b


def check(kernel, meta, dtype, m, n, k):
    a, b, op_a, op_b = operands(meta, dtype, m, n, k)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
    kernel(a, b, c)
    torch.cuda.synchronize()
    ref = op_a.float() @ op_b.float()
    out = c.float()
    if torch.isnan(out).any():
        return float("inf")
    norm = torch.linalg.norm(ref).item()
    err = torch.linalg.norm(out - ref).item()
    return err / norm if norm > 0 else err


def load_kernels(paths, packages):
    """(config, metadata, callable, package or None) for every kernel JSON
    of ``paths`` and every package directory of ``packages`` (its default
    variant's metadata gives the signature)."""
    for path in paths:
        config = os.path.basename(os.path.dirname(path))
        try:
            kernel = tilert.Kernel(path)
        except tilert.Error as error:  # e.g. a binary this GPU cannot run
            print(f"{config}: cannot load: {error}")
            continue
        yield config, json.load(open(path)), kernel, None
    for directory in packages:
        index = json.load(open(os.path.join(directory, "index.json")))
        default = next(v for v in index["variants"]
                       if v["name"] == index["default"])
        meta = json.load(open(os.path.join(directory,
                                           default["files"]["metadata"])))
        package = tilert.Package(directory)
        package.entries = {v["name"]: v for v in index["variants"]}
        yield ("package:" + os.path.basename(os.path.normpath(directory)),
               meta, package, package)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels")
    parser.add_argument("--package", action="append", default=[],
                        help="a kernel package directory (repeatable)")
    parser.add_argument("--json", required=True)
    parser.add_argument("--table")
    parser.add_argument("--quick", action="store_true",
                        help="fewer correctness shapes")
    parser.add_argument("--shapes",
                        help="timed shapes instead of the default ones, as "
                        "MxNxK[,MxNxK...]")
    parser.add_argument("--no-check", action="store_true",
                        help="time only (for experiments)")
    args = parser.parse_args()
    if not args.kernels and not args.package:
        parser.error("give --kernels DIR or --package PKG")

    rng = random.Random(1)
    bench_shapes = BENCH_SHAPES
    if args.shapes:
        bench_shapes = [tuple(int(d) for d in shape.split("x"))
                        for shape in args.shapes.split(",")]
    results = {"device": torch.cuda.get_device_name(), "checks": [],
               "bench": []}
    failures = 0
    paths = (sorted(glob.glob(os.path.join(args.kernels, "*", "*.json")))
             if args.kernels else [])
    if args.kernels and not paths:
        print(f"no kernels in {args.kernels}", file=sys.stderr)
        return 1
    cublas = {}
    for config, meta, kernel, package in load_kernels(paths, args.package):
        dtype_name = meta["constants"]["dtype"]
        dtype = DTYPES[dtype_name]
        shapes = [(m, n, k) for m in CHECK_SIZES for n in CHECK_SIZES
                  for k in CHECK_SIZES if k % 8 == 0 or k == 1]
        rng.shuffle(shapes)
        shapes = shapes[: 12 if args.quick else 40] + [(8192, 8192, 1024)]
        if args.no_check:
            shapes = []
        worst = 0.0
        for m, n, k in shapes:
            if k % 8:
                continue
            error = check(kernel, meta, dtype, m, n, k)
            ok = error <= TOLERANCE
            failures += not ok
            worst = max(worst, error)
            results["checks"].append({"config": config, "m": m, "n": n,
                                      "k": k, "rel_error": error, "ok": ok})
            if not ok:
                print(f"FAIL {config} M={m} N={n} K={k}: rel error {error:.3g}")
        print(f"{config}: {len(shapes)} shapes checked, worst rel error {worst:.3g}")
        for m, n, k in bench_shapes:
            a, b, op_a, op_b = operands(meta, dtype, m, n, k)
            c = torch.empty(m, n, device="cuda", dtype=dtype)
            ours, _ = time_ms(lambda: kernel(a, b, c))
            key = (config, m, n, k)
            if key not in cublas:
                cublas[key], _ = time_ms(
                    lambda: torch.matmul(op_a, op_b, out=c))
            flops = 2.0 * m * n * k
            if package:
                variant = package.select({"M": m, "N": n, "K": k}).variant
                print(f"{config} M={m} N={n} K={k}: selects {variant}")
            row = {"config": config, "dtype": dtype_name, "m": m, "n": n,
                   "k": k, "ms": ours, "tflops": flops / ours / 1e9,
                   "cublas_ms": cublas[key],
                   "cublas_tflops": flops / cublas[key] / 1e9,
                   "variant": variant if package else None,
                   "ratio": cublas[key] / ours,
                   "registers": meta.get("resources", {}).get("registers"),
                   "dynamic_smem": meta["launch"]["dynamic_smem"]}
            if package:  # the selected variant's (smem: static + dynamic)
                row["registers"] = package.entries[variant]["registers"]
                row["dynamic_smem"] = package.entries[variant]["smem"]
            results["bench"].append(row)
    lines = ["GEMM on " + results["device"] + " (median of 50 after 10 warmup; "
             "TFLOP/s = 2MNK/t; ratio = cuBLAS ms / tilec ms)",
             f"{'config':34} {'M':>5} {'N':>5} {'K':>5} {'tilec ms':>9} "
             f"{'TFLOP/s':>8} {'cuBLAS':>8} {'ratio':>6} {'regs':>5} {'smem':>6}"]
    for row in results["bench"]:
        lines.append(f"{row['config']:34} {row['m']:5} {row['n']:5} {row['k']:5} "
                     f"{row['ms']:9.3f} {row['tflops']:8.1f} "
                     f"{row['cublas_tflops']:8.1f} {row['ratio']:6.3f} "
                     f"{row['registers']!s:>5} {row['dynamic_smem']:6}")
    return finish(results, lines, failures, f"shapes within {TOLERANCE}",
                  args.json, args.table)


if __name__ == "__main__":
    sys.exit(main())
