#!/usr/bin/env python3
"""Checks tilec's FlashAttention (specs/flash_attention.tile) against fp32
PyTorch on odd shapes and times it against torch's scaled_dot_product_attention
(FlashAttention-2 kernels), in one process.

    bench_attention.py --kernels DIR --json OUT.json [--table OUT.txt]

DIR holds kernels compiled by tools/gpu/compile_rows.sh; the
flash_attention ones are used (dim = 128; causal or not, per their
constants). Correctness: (B, H, S) from a list of odd shapes, fresh inputs,
O poisoned with NaN, scale = 1/sqrt(dim), relative Frobenius error against
softmax(Q K^T scale [masked]) V in fp32 at most 2e-2. Speed at B = 4, H = 16,
S = 1024 and 4096: median of 50 after 10 warmup; TFLOP/s counts 4 B H S^2 dim
(halved when causal).
"""

import argparse
import glob
import json
import math
import os
import sys

import torch
import torch.nn.functional as F

import tilert
from bench_report import finish
from gpu_timing import time_ms

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16}
CHECK_SHAPES = [(1, 1, 1), (1, 2, 17), (2, 3, 127), (1, 2, 128), (1, 1, 129),
                (2, 2, 1000)]
BENCH_SHAPES = [(4, 16, 1024), (4, 16, 4096)]
TOLERANCE = 2e-2


def inputs(dtype, b, h, s, dim):
    q, k, v = (torch.randn(b, h, s, dim, device="cuda", dtype=dtype)
               for _ in range(3))
    return q, k, v


def check(kernel, dtype, causal, b, h, s, dim):
    q, k, v = inputs(dtype, b, h, s, dim)
    o = torch.full_like(q, float("nan"))
    scale = 1.0 / math.sqrt(dim)
    kernel(q, k, v, o, scale)
    torch.cuda.synchronize()
    scores = (q.float() @ k.float().transpose(-1, -2)) * scale
    if causal:
        mask = torch.ones(s, s, device="cuda", dtype=torch.bool).triu(1)
        scores.masked_fill_(mask, float("-inf"))
    ref = torch.softmax(scores, -1) @ v.float()
    out = o.float()
    if torch.isnan(out).any():
        return float("inf")
    return (torch.linalg.norm(out - ref) / torch.linalg.norm(ref)).item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", required=True)
    parser.add_argument("--json", required=True)
    parser.add_argument("--table")
    args = parser.parse_args()
    results = {"device": torch.cuda.get_device_name(), "checks": [],
               "bench": []}
    failures = 0
    for path in sorted(glob.glob(os.path.join(args.kernels, "*", "*.json"))):
        meta = json.load(open(path))
        if meta["name"] != "flash_attention":
            continue
        config = os.path.basename(os.path.dirname(path))
        constants = meta["constants"]
        dtype = DTYPES[constants["dtype"]]
        causal, dim = constants["causal"], constants["dim"]
        kernel = tilert.Kernel(path)
        worst = 0.0
        for b, h, s in CHECK_SHAPES:
            error = check(kernel, dtype, causal, b, h, s, dim)
            ok = error <= TOLERANCE
            failures += not ok
            worst = max(worst, error)
            results["checks"].append({"config": config, "b": b, "h": h,
                                      "s": s, "rel_error": error, "ok": ok})
            if not ok:
                print(f"FAIL {config} B={b} H={h} S={s}: rel error {error:.3g}")
        print(f"{config}: {len(CHECK_SHAPES)} shapes checked, "
              f"worst rel error {worst:.3g}")
        for b, h, s in BENCH_SHAPES:
            q, k, v = inputs(dtype, b, h, s, dim)
            o = torch.empty_like(q)
            scale = 1.0 / math.sqrt(dim)
            ours, _ = time_ms(lambda: kernel(q, k, v, o, scale))
            peer, _ = time_ms(lambda: F.scaled_dot_product_attention(
                q, k, v, is_causal=causal, scale=scale))
            flops = 4.0 * b * h * s * s * dim / (2 if causal else 1)
            results["bench"].append({
                "config": config, "b": b, "h": h, "s": s, "ms": ours,
                "tflops": flops / ours / 1e9, "sdpa_ms": peer,
                "sdpa_tflops": flops / peer / 1e9, "ratio": peer / ours,
                "registers": meta.get("resources", {}).get("registers")})
    lines = ["FlashAttention on " + results["device"] + " (median of 50 after "
             "10 warmup; ratio = SDPA ms / tilec ms)",
             f"{'config':34} {'B':>2} {'H':>3} {'S':>5} {'tilec ms':>9} "
             f"{'TFLOP/s':>8} {'SDPA':>8} {'ratio':>6} {'regs':>5}"]
    for row in results["bench"]:
        lines.append(f"{row['config']:34} {row['b']:2} {row['h']:3} "
                     f"{row['s']:5} {row['ms']:9.3f} {row['tflops']:8.1f} "
                     f"{row['sdpa_tflops']:8.1f} {row['ratio']:6.3f} "
                     f"{row['registers']!s:>5}")
    return finish(results, lines, failures, f"shapes within {TOLERANCE}",
                  args.json, args.table)


if __name__ == "__main__":
    sys.exit(main())
