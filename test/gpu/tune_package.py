"""`tile-bench tune` on a GPU, end to end: a package of gelu-f16 (the
default), gelu-f16-b2048 and a broken variant (gelu-f16-b2048's cubin with
a grid of half its blocks, so half of Y is never written) from the kernel
directory (argv[1]) is tuned by tile-bench (argv[2]) at two shapes. The two
correct variants must be measured, the broken one excluded as a wrong
result, and tilert.Package must then launch the tuned best, whose output is
checked against PyTorch. Prints "SKIPPED: ..." and exits 77 without
PyTorch or a GPU."""

import json
import os
import shutil
import subprocess
import sys

from package_dispatch import gelu_variants

SHAPES = (4096, (1 << 20) + 3)


def add_half_grid_variant(package_dir, arch):
    """A copy of gelu-f16-b2048 launched on ceildiv(N, 4096) blocks."""
    source = os.path.join(package_dir, "gelu-f16-b2048")
    target = os.path.join(package_dir, "gelu-f16-half-grid")
    shutil.copytree(source, target)
    [name] = [f for f in os.listdir(target) if f.endswith(".json")]
    with open(os.path.join(target, name)) as f:
        metadata = json.load(f)
    metadata["launch"]["grid"][0] = "ceildiv(N, 4096)"
    with open(os.path.join(target, name), "w") as f:
        json.dump(metadata, f)
    cubin = next(b["file"] for b in metadata["binaries"]
                 if b["kind"] == "cubin")
    return {"name": "gelu-f16-half-grid", "arch": arch,
            "files": {"metadata": f"gelu-f16-half-grid/{name}",
                      "cubin": f"gelu-f16-half-grid/{cubin}"}}


def check_database(package_dir, failures):
    with open(os.path.join(package_dir, "tuning.json")) as f:
        database = json.load(f)
    [device] = database["devices"]
    for shape in device["shapes"]:
        n = shape["dims"]["N"]
        excluded = {e["variant"]: e["reason"] for e in shape["excluded"]}
        ok = (shape["measured"] == 2 and shape["candidates"] == 3 and
              shape["best"]["variant"] in ("gelu-f16", "gelu-f16-b2048") and
              "wrong result" in excluded.get("gelu-f16-half-grid", ""))
        failures.append(not ok)
        print(f"[{'PASS' if ok else 'FAIL'}] tuned N={n}: best "
              f"{shape['best']['variant']} {shape['best']['median_ms']:.4f} "
              f"ms; excluded {excluded}")
    return device


def main():
    prepared = gelu_variants(sys.argv[1], "tile-bench-tune-gpu-")
    if isinstance(prepared, int):
        return prepared
    torch, arch, package_dir, variants = prepared
    import tilert
    tile_bench = sys.argv[2]
    try:
        variants.append(add_half_grid_variant(package_dir, arch))
        with open(os.path.join(package_dir, "index.json"), "w") as f:
            json.dump({"schema": "tilec.package/1", "kernel": "gelu_forward",
                       "default": "gelu-f16", "variants": variants}, f)
        env = dict(os.environ,
                   TILEC_CACHE_DIR=os.path.join(package_dir, "cache"))
        command = [tile_bench, "tune", package_dir, "--device", "0",
                   "--warmup", "2", "--reps", "10"]
        for n in SHAPES:
            command += ["--shape", f"N={n}"]
        result = subprocess.run(command, capture_output=True, text=True,
                                timeout=300, env=env)
        print(result.stdout + result.stderr)
        if result.returncode != 0:
            print(f"[FAIL] tile-bench tune exited {result.returncode}")
            return 1
        failures = []
        device = check_database(package_dir, failures)
        with tilert.Package(package_dir) as package:
            for shape in device["shapes"]:
                n = shape["dims"]["N"]
                x = torch.randn(n, device="cuda", dtype=torch.float16)
                y = torch.full_like(x, float("nan"))
                package(x, y)
                torch.cuda.synchronize()
                selected = package.select({"N": n}).variant
                reference = torch.nn.functional.gelu(x.float())
                ok = (selected == shape["best"]["variant"] and
                      torch.allclose(y.float(), reference, rtol=2e-2,
                                     atol=2e-3))
                failures.append(not ok)
                print(f"[{'PASS' if ok else 'FAIL'}] package N={n}: "
                      f"{selected}, output against PyTorch")
        return 1 if any(failures) else 0
    finally:
        shutil.rmtree(package_dir)


if __name__ == "__main__":
    sys.exit(main())
