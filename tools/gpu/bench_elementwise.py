#!/usr/bin/env python3
"""Times tilec's elementwise kernels through the tilert Python module against
PyTorch, in one process and on one stream.

    bench_elementwise.py --kernels build/kernels --json OUT.json [--table OUT.txt]

For every compiled vector_add, scale_add and gelu (gelu_forward) kernel
(found by the metadata's name and constants.dtype) at N = 2^28 elements: warmup 10, 50
repetitions each between CUDA events, median in ms, GB/s over the bytes of
all tensors (3*N*itemsize for the binary ops), and the ratio to PyTorch's
equivalent (torch.add(a, b, out=c), torch.add(b, a, alpha=alpha, out=c),
aten.gelu.out). Each kernel's output is checked against PyTorch's before it
is timed. The table is printed last.
"""

import argparse
import glob
import json
import os
import sys

import torch

import tilert
from gpu_timing import time_ms

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
# Per-element tolerance of our output against PyTorch's: a couple of ulps.
TOLERANCE = {"f32": 1e-5, "f16": 2e-3, "bf16": 1.6e-2}
ALPHA = 0.75


def peer_vector_add(inputs, out):
    torch.add(inputs[0], inputs[1], out=out)


def peer_scale_add(inputs, out):
    torch.add(inputs[1], inputs[0], alpha=ALPHA, out=out)


def peer_gelu(inputs, out):
    torch.ops.aten.gelu.out(inputs[0], out=out)


# name -> (number of inputs, scalars passed to our kernel, PyTorch peer, label)
SPECS = {
    "vector_add": (2, [], peer_vector_add, "torch.add(a, b, out=c)"),
    "scale_add": (2, [ALPHA], peer_scale_add,
                  "torch.add(b, a, alpha=alpha, out=c)"),
    "gelu": (1, [], peer_gelu, "aten.gelu.out(x, out=y)"),
}
# Kernel names that implement a spec under another name (specs/gelu.tile).
ALIASES = {"gelu_forward": "gelu"}


def find_kernels(directory):
    """Returns {(spec name, dtype): [json paths]} for the specs we can time."""
    found = {}
    for path in sorted(glob.glob(os.path.join(directory, "**", "*.json"), recursive=True)):
        try:
            with open(path) as f:
                metadata = json.load(f)
        except (OSError, ValueError) as error:
            print(f"note: skipping {path}: {error}")
            continue
        name = ALIASES.get(metadata.get("name"), metadata.get("name"))
        dtype = metadata.get("constants", {}).get("dtype")
        if name in SPECS and dtype in DTYPES:
            found.setdefault((name, dtype), []).append(path)
    return found


def load_runnable(paths, device):
    """The first kernel of `paths` that loads on `device`."""
    for path in paths:
        kernel = tilert.Kernel(path)
        try:
            kernel.prepare(device)
            return kernel
        except tilert.Error as error:
            print(f"note: {path} does not run here: {error}")
    return None


def bench(kernel, name, dtype, n, warmup, reps):
    num_inputs, scalars, peer, peer_label = SPECS[name]
    torch_dtype = DTYPES[dtype]
    generator = torch.Generator(device="cuda")
    generator.seed()
    inputs = [(torch.rand(n, device="cuda", generator=generator) * 8 - 4)
              .to(torch_dtype) for _ in range(num_inputs)]
    ours = torch.full((n,), float("nan"), device="cuda", dtype=torch_dtype)
    theirs = torch.empty(n, device="cuda", dtype=torch_dtype)

    kernel(*inputs, ours, *scalars)
    peer(inputs, theirs)
    torch.cuda.synchronize()
    error = (ours.float() - theirs.float()).abs()
    scale = theirs.float().abs() + 1.0
    worst = float((error / scale).max())
    correct = bool(torch.isfinite(ours).all()) and worst <= TOLERANCE[dtype]

    tilec_ms, tilec_times = time_ms(lambda: kernel(*inputs, ours, *scalars),
                                    warmup, reps)
    torch_ms, torch_times = time_ms(lambda: peer(inputs, theirs), warmup, reps)
    nbytes = sum(t.numel() * t.element_size() for t in inputs + [ours])
    with open(kernel.json_path) as f:
        constants = json.load(f)["constants"]
    return {
        "kernel": kernel.name,
        "dtype": dtype,
        "block": constants.get("block"),
        "constants": constants,
        "arch": kernel.arch,
        "json": kernel.json_path,
        "n": n,
        "bytes": nbytes,
        "correct": correct,
        "max_rel_error_vs_torch": worst,
        "tilec_median_ms": tilec_ms,
        "tilec_gbps": nbytes / (tilec_ms * 1e-3) * 1e-9,
        "tilec_times_ms": tilec_times,
        "torch_peer": peer_label,
        "torch_median_ms": torch_ms,
        "torch_gbps": nbytes / (torch_ms * 1e-3) * 1e-9,
        "torch_times_ms": torch_times,
        "speedup_vs_torch": torch_ms / tilec_ms,
    }


def format_table(rows, device, n):
    lines = [f"Elementwise kernels on {device}, N = {n} (2^{n.bit_length() - 1}"
             f"{'' if n & (n - 1) == 0 else '+'}), median of the timed reps",
             f"{'kernel':<13} {'dtype':<5} {'block':>6} {'tilec ms':>9} {'GB/s':>7} "
             f"{'torch ms':>9} {'GB/s':>7} {'tilec/torch':>11}  check"]
    for row in rows:
        lines.append(
            f"{row['kernel']:<13} {row['dtype']:<5} {str(row['block']):>6} "
            f"{row['tilec_median_ms']:>9.4f} {row['tilec_gbps']:>7.0f} "
            f"{row['torch_median_ms']:>9.4f} {row['torch_gbps']:>7.0f} "
            f"{row['speedup_vs_torch']:>10.3f}x  "
            f"{'ok' if row['correct'] else 'WRONG'}")
    lines.append("tilec/torch > 1 means tilec is faster (torch_ms / tilec_ms).")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", required=True,
                        help="directory of compiled kernels (*.json)")
    parser.add_argument("--json", required=True, help="results file to write")
    parser.add_argument("--table", help="also write the table to this file")
    parser.add_argument("--n", type=int, default=1 << 28)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--reps", type=int, default=50)
    args = parser.parse_args()

    if not torch.cuda.is_available():
        sys.exit("bench_elementwise: no CUDA device visible to PyTorch")
    device = torch.cuda.get_device_name(0)
    found = find_kernels(args.kernels)
    rows, missing = [], []
    for name in SPECS:
        for dtype in DTYPES:
            # Every compiled variant (e.g. other -D block=) gets its own row.
            kernels = [kernel for kernel in
                       (load_runnable([path], 0)
                        for path in found.get((name, dtype), []))
                       if kernel is not None]
            if not kernels:
                missing.append(f"{name} {dtype}")
            for kernel in kernels:
                print(f"timing {name} {dtype} ({kernel.json_path}) ...",
                      flush=True)
                rows.append(bench(kernel, name, dtype, args.n, args.warmup,
                                  args.reps))

    table = format_table(rows, device, args.n)
    results = {
        "device": device,
        "torch": torch.__version__,
        "tilert_library": tilert.library_path(),
        "n": args.n,
        "warmup": args.warmup,
        "reps": args.reps,
        "missing": missing,
        "results": rows,
        "table": table,
    }
    with open(args.json, "w") as f:
        json.dump(results, f, indent=2)
    if args.table:
        with open(args.table, "w") as f:
            f.write(table + "\n")
    if missing:
        print("not timed (no runnable kernel): " + ", ".join(missing))
    print(table)
    if not rows or not all(row["correct"] for row in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
