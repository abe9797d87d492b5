#!/usr/bin/env python3
"""Checks tilec's row-wise kernels (softmax, softmax_online, row_sum,
rmsnorm, layernorm) against PyTorch on odd shapes and times them against
their PyTorch peers and a plain copy, in one process and on one stream.

    bench_rows.py --kernels DIR --json OUT.json [--table OUT.txt] [--quick]

DIR holds kernels compiled by tools/gpu/compile_rows.sh, one folder per
configuration (<stem>.<arch>.json + binaries); a kernel is known by its
metadata's name and constants. For every kernel:

* correctness: M from {1, 3, 1000} and N from {1, 7, 1000, 50257, 262144}
  (specs/softmax.tile, which holds a row in registers, only where N fits
  its block_N), fresh random inputs (softmax: some entries and one whole row
  -inf, as attention masks make them), outputs poisoned with NaN before the
  launch; the output must match PyTorch in f32 (torch.allclose with
  atol 2e-3 and rtol 2e-2 for f16/bf16 outputs, NaN where PyTorch has NaN)
  and softmax rows must sum to 1 within 1e-3 where they are finite (4e-3
  for bf16 outputs, whose rounding alone moves a sum by up to ~2^-9);
* speed at 16384x1024, 16384x4096, 8192x8192 and 4096x32768: the best
  configuration of each kernel that can run the shape, warmup 10, 50
  repetitions between CUDA events, median ms, bandwidth = bytes moved
  (X read once, Y written once; W, B and row_sum's Y are counted too) / time,
  against the peer (torch.softmax, torch.nn.functional.layer_norm and
  rms_norm, x.sum(-1, dtype=torch.float32)) and against Y.copy_(X) (the
  copy bandwidth), measured in the same process.

Configurations compiled with --fast-math (folders ending in -fm) are
checked and ranked apart from the exact ones of the same kernel.
"""

import argparse
import glob
import json
import os
import sys

import torch
import torch.nn.functional as F

import tilert
from bench_report import finish
from gpu_timing import time_ms

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16}
ROW_KERNELS = {"softmax", "softmax_online", "row_sum", "rmsnorm", "layernorm",
               "softmax_staged", "rmsnorm_staged", "layernorm_staged"}


def base_name(name):
    """The kernel a spec computes: a *_staged spec (rows staged in shared
    memory) computes the same as the spec it is named after."""
    return name[: -len("_staged")] if name.endswith("_staged") else name


CHECK_M = [1, 3, 1000]
CHECK_N = [1, 7, 1000, 50257, 262144]
BENCH_SHAPES = [(16384, 1024), (16384, 4096), (8192, 8192), (4096, 32768)]
EPS = 1e-5


def inputs(name, dtype, m, n, masked):
    """The kernel's inputs at [m, n] and the arguments in ABI order."""
    name = base_name(name)
    x = torch.randn(m, n, device="cuda", dtype=dtype) * 3
    if masked and name.startswith("softmax"):
        x.masked_fill_(torch.rand(m, n, device="cuda") < 0.1, float("-inf"))
        x[m // 2].fill_(float("-inf"))
    w = torch.randn(n, device="cuda", dtype=dtype)
    b = torch.randn(n, device="cuda", dtype=dtype)
    if name == "row_sum":
        y = torch.full((m,), float("nan"), device="cuda", dtype=torch.float32)
        return x, w, b, y, (x, y)
    y = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
    if name == "rmsnorm":
        return x, w, b, y, (x, w, y, EPS)
    if name == "layernorm":
        return x, w, b, y, (x, w, b, y, EPS)
    return x, w, b, y, (x, y)


def reference(name, constants, x, w, b):
    name = base_name(name)
    xf = x.float()
    if name.startswith("softmax"):
        return torch.softmax(xf, -1)
    if name == "row_sum":
        return xf.sum(-1)
    if name == "rmsnorm":
        return F.rms_norm(xf, (x.shape[1],), w.float(), EPS)
    bias = b.float() if constants.get("has_bias", True) else None
    return F.layer_norm(xf, (x.shape[1],), w.float(), bias, EPS)


def peer(name, constants, x, w, b, y):
    """The PyTorch call the kernel is timed against."""
    name = base_name(name)
    n = x.shape[1]
    if name.startswith("softmax"):
        return lambda: torch.softmax(x, -1)
    if name == "row_sum":
        return lambda: torch.sum(x, -1, dtype=torch.float32, out=y)
    if name == "rmsnorm":
        return lambda: F.rms_norm(x, (n,), w, EPS)
    bias = b if constants.get("has_bias", True) else None
    return lambda: F.layer_norm(x, (n,), w, bias, EPS)


def fits(name, constants, n):
    """True if the kernel computes rows of n elements (specs/softmax.tile
    holds a whole row in one block_N fragment)."""
    return name != "softmax" or n <= constants["block_N"]


def kernel_family(config, meta):
    """What a configuration is checked once and ranked among: the kernel,
    its dtype and bias, and whether it was compiled with --fast-math (the
    folders of compile_rows.sh that end in -fm)."""
    constants = meta["constants"]
    return (meta["name"], constants["dtype"], constants.get("has_bias"),
            config.endswith("-fm"))


def check(kernel, name, constants, dtype, m, n):
    name = base_name(name)
    x, w, b, y, args = inputs(name, dtype, m, n, masked=True)
    kernel(*args)
    torch.cuda.synchronize()
    ref = reference(name, constants, x, w, b)
    out = y.float()
    if name == "row_sum":
        scale = x.float().abs().sum(-1).clamp_min(1.0)
        ok = bool(((out - ref).abs() <= 1e-4 * scale).all())
        return ok, ((out - ref).abs() / scale).max().item()
    ok = torch.allclose(out, ref.to(dtype).float(), atol=2e-3, rtol=2e-2,
                        equal_nan=True)
    worst = (out - ref).abs().nan_to_num(0.0).max().item()
    if name.startswith("softmax"):
        # Rounding every output to bf16 (8 bits) moves a row's sum by up to
        # ~2^-9: f16 outputs are held to 1e-3, bf16 ones to 4e-3.
        sums = out.sum(-1)
        finite = torch.isfinite(ref).all(-1)
        limit = 1e-3 if dtype == torch.float16 else 4e-3
        ok = ok and bool(((sums - 1).abs()[finite] <= limit).all())
    return ok, worst


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", required=True)
    parser.add_argument("--json", required=True)
    parser.add_argument("--table")
    parser.add_argument("--quick", action="store_true",
                        help="check only the first configuration of a kernel")
    args = parser.parse_args()

    results = {"device": torch.cuda.get_device_name(), "checks": [],
               "bench": []}
    failures = 0
    kernels = []
    for path in sorted(glob.glob(os.path.join(args.kernels, "*", "*.json"))):
        meta = json.load(open(path))
        if meta["name"] not in ROW_KERNELS:
            continue
        config = os.path.basename(os.path.dirname(path))
        try:
            kernel = tilert.Kernel(path)
        except tilert.Error as error:
            print(f"{config}: cannot load: {error}")
            continue
        kernels.append((config, meta, kernel))
    if not kernels:
        print(f"no row kernels in {args.kernels}", file=sys.stderr)
        return 1

    checked = set()
    for config, meta, kernel in kernels:
        name, constants = meta["name"], meta["constants"]
        dtype = DTYPES[constants["dtype"]]
        family = kernel_family(config, meta)
        if args.quick and family in checked:
            continue
        checked.add(family)
        worst = 0.0
        count = 0
        for m in CHECK_M:
            for n in CHECK_N:
                if not fits(name, constants, n) or m * n > 300_000_000:
                    continue
                ok, error = check(kernel, name, constants, dtype, m, n)
                count += 1
                failures += not ok
                worst = max(worst, error)
                results["checks"].append({"config": config, "m": m, "n": n,
                                          "error": error, "ok": ok})
                if not ok:
                    print(f"FAIL {config} M={m} N={n}: worst error {error:.3g}")
        print(f"{config}: {count} shapes checked, worst error {worst:.3g}")

    copies = {}
    for m, n in BENCH_SHAPES:
        best = {}
        for config, meta, kernel in kernels:
            name, constants = meta["name"], meta["constants"]
            if not fits(name, constants, n):
                continue
            dtype = DTYPES[constants["dtype"]]
            x, w, b, y, call = inputs(name, dtype, m, n, masked=False)
            ours, _ = time_ms(lambda: kernel(*call))
            family = kernel_family(config, meta)
            if family not in best or ours < best[family][1]:
                best[family] = (config, ours, meta, x, w, b, y)
        for family, (config, ours, meta, x, w, b, y) in sorted(best.items()):
            name, constants = meta["name"], meta["constants"]
            element = x.element_size()
            moved = 2 * m * n * element
            if name == "row_sum":
                moved = m * n * element + 4 * m
            elif base_name(name) in ("rmsnorm", "layernorm"):
                moved += 2 * n * element
            torch_ms, _ = time_ms(peer(name, constants, x, w, b, y))
            key = (m, n, element)
            if key not in copies:
                source = torch.randn(m, n, device="cuda").to(x.dtype)
                target = torch.empty_like(source)
                copies[key], _ = time_ms(lambda: target.copy_(source))
            copy_gbs = 2 * m * n * element / copies[key] / 1e6
            row = {"config": config, "kernel": name, "dtype": constants["dtype"],
                   "m": m, "n": n, "ms": ours, "gbs": moved / ours / 1e6,
                   "torch_ms": torch_ms, "torch_gbs": moved / torch_ms / 1e6,
                   "copy_gbs": copy_gbs,
                   "of_copy": moved / ours / 1e6 / copy_gbs,
                   "vs_torch": torch_ms / ours,
                   "registers": meta.get("resources", {}).get("registers")}
            results["bench"].append(row)

    lines = ["Row kernels on " + results["device"] + " (median of 50 after 10 "
             "warmup; GB/s = bytes moved / t; of copy = our GB/s / copy GB/s; "
             "vs torch = torch ms / tilec ms)",
             f"{'config':32} {'M':>6} {'N':>6} {'tilec ms':>9} {'GB/s':>7} "
             f"{'torch GB/s':>10} {'copy GB/s':>9} {'of copy':>7} "
             f"{'vs torch':>8} {'regs':>5}"]
    for row in results["bench"]:
        lines.append(f"{row['config']:32} {row['m']:6} {row['n']:6} "
                     f"{row['ms']:9.4f} {row['gbs']:7.0f} "
                     f"{row['torch_gbs']:10.0f} {row['copy_gbs']:9.0f} "
                     f"{row['of_copy']:7.3f} {row['vs_torch']:8.3f} "
                     f"{row['registers']!s:>5}")
    return finish(results, lines, failures, "checks passed", args.json,
                  args.table)


if __name__ == "__main__":
    sys.exit(main())
