#!/usr/bin/env python3
"""Host time per launch on the fake CUDA driver, without a GPU.

    tools/scripts/bench_launch_cpu.py [--build build-rt] [--launches 2000]
                                      [--rounds 7] [--callgrind]

Measures what tools/gpu/bench_launch.py measures on a GPU, for a 1-element
f32 vector_add, but on the fake driver of test/runtime/fake-cuda (built as
<build>/test/runtime/fake-cuda/libcuda.so.1), whose entry points take
nanoseconds: what is left is tilert's own cost per launch. Python launches
stand-in PyTorch CUDA tensors (a fake ``torch`` module whose tensors have
the attributes tilert reads), through the module's C extension where it was
built and through ctypes alone; C++ is ``tile-bench --launch-overhead``.
Each reports the median of --launches launches timed one by one and the
median over --rounds rounds of the mean of --launches back-to-back
launches. --callgrind also counts the instructions per C++ launch (valgrind,
fake driver included). Real PyTorch tensors cost more per attribute read
than the stand-ins, and a real driver far more per call: the GPU numbers
come from tools/gpu/bench_launch.py.
"""

import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import types

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def write_vector_add(directory):
    """A vector_add metadata JSON (and its fake cubin) in `directory`."""
    cubin = b"fake cubin"
    with open(os.path.join(directory, "k.cubin"), "wb") as f:
        f.write(cubin)
    params = [{"kind": "tensor", "name": name, "dtype": "f32",
               "shape": ["N"], "alignment": 16} for name in "ABC"]
    params.append({"kind": "dim", "name": "N", "dtype": "i64"})
    document = {
        "schema": "tilec.kernel/1", "name": "vector_add",
        "entry": "vector_add", "arch": "sm_90a",
        "binaries": [{"kind": "cubin", "file": "k.cubin",
                      "sha256": hashlib.sha256(cubin).hexdigest()}],
        "versions": {"tilec": "0.1.0", "llvm": "22", "ptxas": "13.0"},
        "source": {"path": "specs/vector_add.tile", "sha256": "0" * 64},
        "constants": {"dtype": "f32"}, "params": params,
        "launch": {"grid": ["ceildiv(N, 1024)", "1", "1"],
                   "block": [256, 1, 1], "cluster": [1, 1, 1],
                   "dynamic_smem": 0},
        "resources": {"registers": 16, "spill_stores": 0, "spill_loads": 0,
                      "local_bytes": 0, "static_smem": 0,
                      "max_threads": 256}}
    path = os.path.join(directory, "vector_add.json")
    with open(path, "w") as f:
        json.dump(document, f)
    return path


def fake_torch():
    """A ``torch`` module with what tilert reads of PyTorch."""
    torch = types.ModuleType("torch")

    class DType:
        pass

    torch.float32 = DType()
    torch._C = types.SimpleNamespace(
        _cuda_getCurrentRawStream=lambda device: 0)

    class Tensor:
        is_cuda = True
        dtype = torch.float32

        def __init__(self, address, n):
            self.address = address
            self.shape = (n,)

        def data_ptr(self):
            return self.address

        def get_device(self):
            return 0

        def stride(self):
            return (1,)

    torch.Tensor = Tensor
    return torch


def timed(call, launches, rounds):
    """(median of single launches, median of round means), microseconds."""
    for _ in range(100):
        call()
    means = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        for _ in range(launches):
            call()
        means.append((time.perf_counter_ns() - start) / launches / 1000)
    single = []
    clock = time.perf_counter_ns
    for _ in range(launches):
        start = clock()
        call()
        single.append(clock() - start)
    return statistics.median(single) / 1000, statistics.median(means)


def child(json_path, launches, rounds):
    """Runs in a subprocess: the Python launch, as the environment says."""
    torch = fake_torch()
    sys.modules["torch"] = torch
    import tilert
    kernel = tilert.Kernel(json_path)
    a, b, c = (torch.Tensor(0x7F0000000000 + i * 0x100000, 1)
               for i in range(3))
    kernel(a, b, c)
    single, mean = timed(lambda: kernel(a, b, c), launches, rounds)
    # (An older tilert, measured for comparison, has no per-thread launch.)
    launch = getattr(getattr(kernel, "_threads", None), "launch", None)
    native = type(launch).__name__ == "Launcher"
    print(json.dumps({"single": single, "mean": mean, "native": native}))


def source_dir(build):
    """The checkout `build` was configured from (its Python module goes with
    its library)."""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("CMAKE_HOME_DIRECTORY:"):
                return line.split("=", 1)[1].strip()
    return ROOT


def run_python(build, json_path, launches, rounds, extension):
    fake = os.path.join(build, "test", "runtime", "fake-cuda")
    env = dict(os.environ, LD_LIBRARY_PATH=fake,
               TILERT_LIBRARY=os.path.join(build, "runtime", "libtilert.so"),
               PYTHONPATH=os.path.join(source_dir(build), "runtime",
                                       "python"),
               TILERT_PYTHON_EXTENSION="1" if extension else "0")
    out = subprocess.run(
        [sys.executable, __file__, "--child", json_path, "--launches",
         str(launches), "--rounds", str(rounds)], env=env, check=True,
        stdout=subprocess.PIPE, text=True).stdout
    return json.loads(out)


def run_cpp(build, json_path, launches, rounds, wrapper=()):
    fake = os.path.join(build, "test", "runtime", "fake-cuda")
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "report.json")
        proc = subprocess.run(
            [*wrapper, os.path.join(build, "tools", "tile-bench",
                                    "tile-bench"),
             json_path, "--dim", "N=1", "--launch-overhead", "--warmup",
             "100", "--reps", str(rounds), "--launches", str(launches),
             "--json", report], env=dict(os.environ, LD_LIBRARY_PATH=fake),
            check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        with open(report) as f:
            result = json.load(f)
    return result, proc.stderr


def instructions_per_launch(build, json_path, launches):
    """Instructions per C++ launch: two valgrind runs that differ by ten
    rounds of `launches`."""
    counts = []
    for rounds in (1, 11):
        _, log = run_cpp(build, json_path, launches, rounds,
                         ("valgrind", "--tool=callgrind",
                          "--callgrind-out-file=/dev/null"))
        counts.append(int(re.search(r"Collected : (\d+)", log).group(1)))
    return (counts[1] - counts[0]) / (10 * launches)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build-rt"),
                        help="a runtime build tree (default build-rt)")
    parser.add_argument("--launches", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--callgrind", action="store_true",
                        help="also count instructions per C++ launch")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.launches, args.rounds)
        return 0
    build = os.path.abspath(args.build)
    with tempfile.TemporaryDirectory() as scratch:
        json_path = write_vector_add(scratch)
        rows = []
        native = run_python(build, json_path, args.launches, args.rounds,
                            True)
        label = "Python (C ext)" if native["native"] else \
            "Python (C ext not built: ctypes)"
        rows.append((label, native["single"], native["mean"]))
        fallback = run_python(build, json_path, args.launches, args.rounds,
                              False)
        rows.append(("Python (ctypes)", fallback["single"],
                     fallback["mean"]))
        cpp, _ = run_cpp(build, json_path, args.launches, args.rounds)
        # (An older tile-bench, measured for comparison, lacks the first.)
        rows.append(("C++ (tile-bench)", cpp.get("single_launch_median_us"),
                     cpp["median_us"]))
        print(f"host us per launch, vector_add N=1, fake CUDA driver "
              f"({build})")
        print(f"{'':34}{'median of ' + str(args.launches):>18}"
              f"{'mean, ' + str(args.rounds) + ' rounds':>18}")
        for label, single, mean in rows:
            single = "n/a" if single is None else f"{single:.3f}"
            print(f"{label:34}{single:>18}{mean:>18.3f}")
        if args.callgrind:
            print(f"C++ instructions per launch (callgrind, fake driver "
                  f"included): "
                  f"{instructions_per_launch(build, json_path, 2000):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
