#!/usr/bin/env python3
"""Checks device print (tile.print) on the GPU: runs the kernel of
test/gpu/kernels/print.tile (compiled into KERNELS/print-f32/) at N = 8 with
X[i] = i + 0.5 in a child process and compares the lines the device printed
with the expected ones (sorted: threads print in no fixed order), and the
output Y = 2 X.

    check_print.py --kernels DIR

Exits 0 if they match, 1 if not, 77 without a GPU."""

import argparse
import glob
import os
import subprocess
import sys

EXPECTED = """start
bx: 0
f @ (0): 0.5
f @ (1): 1.5
f @ (2): 2.5
f @ (3): 3.5
n: 8
sum @ (0): 8
half: 1.5
done 100%
""".splitlines()

CHILD = """
import sys, torch, tilert
kernel = None
for path in sys.argv[1:]:
    try:
        kernel = tilert.Kernel(path)
        kernel.prepare(0)
        break
    except tilert.Error:
        kernel = None
x = torch.arange(8, device="cuda", dtype=torch.float32) + 0.5
y = torch.full_like(x, float("nan"))
kernel(x, y)
torch.cuda.synchronize()
sys.stdout.flush()
if not torch.equal(y, 2 * x):
    sys.exit("Y is not 2 X: " + str(y.tolist()))
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", required=True)
    args = parser.parse_args()
    import torch
    if not torch.cuda.is_available():
        print("SKIPPED: no CUDA GPU")
        return 77
    # Newest architecture first.
    paths = sorted(glob.glob(os.path.join(args.kernels, "print-f32", "*.json")),
                   reverse=True)
    if not paths:
        print(f"no print-f32 kernel in {args.kernels}", file=sys.stderr)
        return 1
    child = subprocess.run([sys.executable, "-c", CHILD] + paths,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    if child.returncode != 0:
        print(child.stderr, file=sys.stderr)
        return 1
    lines = child.stdout.splitlines()
    if sorted(lines) != sorted(EXPECTED):
        print("device print: expected (in any order)\n  " +
              "\n  ".join(EXPECTED) + "\ngot\n  " + "\n  ".join(lines))
        return 1
    print(f"device print: {len(lines)} lines as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
