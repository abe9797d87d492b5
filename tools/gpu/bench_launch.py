#!/usr/bin/env python3
"""Host time per launch of tilert against PyTorch, and launches inside CUDA
graph capture.

    bench_launch.py --kernels build/kernels [--tile-bench PATH]
                    [--json OUT.json] [--table OUT.txt]
                    [--launches 2000] [--rounds 7]

With the f32 vector_add of --kernels (the first variant that loads on device
0) at N = 1 and N = 2^20, in one process on PyTorch's current stream: each
round times --launches back-to-back calls with time.perf_counter_ns around
them and no synchronization in between (the stream is synchronized between
rounds), and the median over the rounds of the time per call is reported for

- tilert from Python: ``kernel(a, b, c)``;
- PyTorch: ``torch.add(a, b, out=c)``;
- tilert from C++: ``tile-bench --launch-overhead`` (same method, its own
  process and stream), when --tile-bench is given.

Before timing, the output of each size is checked against PyTorch's. Then a
CUDA graph captures two dependent launches (c = a + b; d = c + b) under
``torch.cuda.graph`` and is replayed twice with new inputs; d must equal
PyTorch's result exactly. Without a GPU (or PyTorch) it prints
"SKIPPED: ..." and exits 77. The table is printed last.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

SKIP = 77
SIZES = (1, 1 << 20)
# The targets of issue 10, host microseconds per call.
TARGET_PYTHON_US = 10.0
TARGET_CPP_US = 3.0


def newest_first(paths):
    """`paths` (kernel JSONs) with the newest architecture first, an
    arch-specific one (sm_90a) before its portable twin."""
    def key(path):
        with open(path) as f:
            arch = json.load(f)["arch"]
        digits = "".join(ch for ch in arch if ch.isdigit())
        return (-int(digits or 0), not arch.endswith("a"))
    return sorted(paths, key=key)


def host_us_per_call(call, launches, rounds, synchronize):
    """Median over `rounds` of the wall-clock time per call of `launches`
    back-to-back calls, in microseconds."""
    for _ in range(100):
        call()
    synchronize()
    per_call = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        for _ in range(launches):
            call()
        stop = time.perf_counter_ns()
        synchronize()
        per_call.append((stop - start) / launches / 1000)
    return statistics.median(per_call), per_call


def cpp_us_per_call(tile_bench, json_path, n, launches, rounds):
    """tile-bench --launch-overhead's median, in microseconds."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "overhead.json")
        proc = subprocess.run(
            [tile_bench, json_path, "--dim", f"N={n}", "--launch-overhead",
             "--warmup", "100", "--reps", str(rounds), "--launches",
             str(launches), "--json", out],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"tile-bench failed:\n{proc.stdout}")
        with open(out) as f:
            report = json.load(f)
    return report["median_us"], report["host_us_per_launch"]


def check_graph(torch, kernel):
    """Captures c = a + b; d = c + b in a CUDA graph, replays it twice with
    new inputs and compares d with PyTorch's. Returns a description."""
    n = 4097
    a, b = (torch.rand(n, device="cuda") for _ in range(2))
    c, d = torch.empty_like(a), torch.empty_like(a)
    # Warm up on a side stream, as PyTorch asks before capturing.
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        kernel(a, b, c)
        kernel(c, b, d)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        kernel(a, b, c)
        kernel(c, b, d)
    for replay in range(2):
        a.copy_(torch.rand(n, device="cuda"))
        b.copy_(torch.rand(n, device="cuda"))
        d.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        expected = torch.add(torch.add(a, b), b)
        if not torch.equal(d, expected):
            bad = (d != expected).nonzero()[0].item()
            raise RuntimeError(
                f"graph replay {replay}: d[{bad}] = {d[bad].item()}, "
                f"expected {expected[bad].item()}")
    return "2 captured launches, 2 replays with new inputs, exact"


def format_table(rows, device, graph, launches, rounds):
    lines = [f"host time per launch on {device} (us, median of {rounds} "
             f"rounds of {launches} back-to-back launches; targets: "
             f"Python <= {TARGET_PYTHON_US:g}, C++ <= {TARGET_CPP_US:g})",
             f"{'N':>9}  {'tilert Python':>13}  {'torch.add':>9}  "
             f"{'tilert C++':>10}  {'Python / torch':>14}"]
    for row in rows:
        cpp = row.get("tilert_cpp_us")
        lines.append(
            f"{row['n']:>9}  {row['tilert_python_us']:>13.2f}  "
            f"{row['torch_add_us']:>9.2f}  "
            f"{(f'{cpp:.2f}' if cpp is not None else 'n/a'):>10}  "
            f"{row['tilert_python_us'] / row['torch_add_us']:>14.2f}")
    lines.append(f"CUDA graph capture + replay: {graph}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", required=True,
                        help="folder of compiled kernels (build/kernels)")
    parser.add_argument("--tile-bench", help="tile-bench, for the C++ column")
    parser.add_argument("--json", help="write every number here")
    parser.add_argument("--table", help="write the table here")
    parser.add_argument("--launches", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()

    try:
        import torch
    except ImportError as error:
        print(f"SKIPPED: PyTorch is not available ({error})")
        return SKIP
    if not torch.cuda.is_available():
        print("SKIPPED: no CUDA GPU visible to PyTorch")
        return SKIP
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_elementwise import find_kernels, load_runnable

    paths = find_kernels(args.kernels).get(("vector_add", "f32"))
    if not paths:
        sys.exit(f"bench_launch: no f32 vector_add kernel in {args.kernels}")
    kernel = load_runnable(newest_first(paths), 0)
    if kernel is None:
        sys.exit("bench_launch: no f32 vector_add kernel runs on device 0")
    json_path = kernel.json_path
    device = torch.cuda.get_device_name(0)
    print(f"vector_add f32: {json_path} on {device}")

    rows = []
    for n in SIZES:
        a, b = (torch.rand(n, device="cuda") for _ in range(2))
        c = torch.full_like(a, float("nan"))
        kernel(a, b, c)
        torch.cuda.synchronize()
        if not torch.equal(c, torch.add(a, b)):
            sys.exit(f"bench_launch: vector_add is wrong at N = {n}")
        row = {"n": n}
        row["tilert_python_us"], row["tilert_python_rounds"] = \
            host_us_per_call(lambda: kernel(a, b, c), args.launches,
                             args.rounds, torch.cuda.synchronize)
        row["torch_add_us"], row["torch_add_rounds"] = host_us_per_call(
            lambda: torch.add(a, b, out=c), args.launches, args.rounds,
            torch.cuda.synchronize)
        if args.tile_bench:
            row["tilert_cpp_us"], row["tilert_cpp_rounds"] = cpp_us_per_call(
                args.tile_bench, json_path, n, args.launches, args.rounds)
        print(json.dumps({k: v for k, v in row.items()
                          if not k.endswith("rounds")}))
        rows.append(row)

    graph = check_graph(torch, kernel)
    table = format_table(rows, device, graph, args.launches, args.rounds)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "kernel": json_path,
                       "launches_per_round": args.launches,
                       "rounds": args.rounds, "rows": rows, "graph": graph},
                      f, indent=2)
    if args.table:
        with open(args.table, "w") as f:
            f.write(table + "\n")
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
