"""tilert.Package on a GPU from Python: a package of the gelu-f16 and
gelu-f16-b2048 kernels of the kernel directory (argv[1]), tuned for this
device's name, launched through the package and through the selected
variant directly; the outputs must be identical and the selection the
tuned one. Prints "SKIPPED: ..." and exits 77 without PyTorch or a GPU."""

import glob
import hashlib
import json
import os
import shutil
import sys
import tempfile

SKIP = 77


def copy_variant(kernel_dir, package_dir, variant, arch):
    """Copies the ``arch`` build of ``variant`` into the package; returns
    its index.json entry, or None if it was not compiled."""
    paths = glob.glob(os.path.join(kernel_dir, variant, f"*.{arch}.json"))
    if not paths:
        return None
    with open(paths[0]) as f:
        metadata = json.load(f)
    os.makedirs(os.path.join(package_dir, variant))
    shutil.copy(paths[0], os.path.join(package_dir, variant))
    cubin = None
    for binary in metadata["binaries"]:
        shutil.copy(os.path.join(os.path.dirname(paths[0]), binary["file"]),
                    os.path.join(package_dir, variant))
        if binary["kind"] == "cubin":
            cubin = f"{variant}/{binary['file']}"
    return {"name": variant, "arch": arch,
            "files": {"metadata": f"{variant}/{os.path.basename(paths[0])}",
                      "cubin": cubin}}


def gelu_variants(kernel_dir, prefix):
    """(torch, arch, package_dir, entries): a new directory holding the
    gelu-f16 and gelu-f16-b2048 kernels of ``kernel_dir`` built for this
    GPU, with their index.json entries; or the exit status to end with
    (SKIP without PyTorch or a GPU, 1 when the kernels are missing)."""
    try:
        import torch
    except ImportError:
        print("SKIPPED: PyTorch is not installed")
        return SKIP
    if not torch.cuda.is_available():
        print("SKIPPED: no CUDA GPU")
        return SKIP
    major, minor = torch.cuda.get_device_capability(0)
    arch = "sm_90a" if (major, minor) == (9, 0) else "sm_80"
    package_dir = tempfile.mkdtemp(prefix=prefix)
    variants = [copy_variant(kernel_dir, package_dir, name, arch)
                for name in ("gelu-f16", "gelu-f16-b2048")]
    if None in variants:
        shutil.rmtree(package_dir)
        print(f"[FAIL] gelu-f16 and gelu-f16-b2048 for {arch} are not in "
              f"{kernel_dir}")
        return 1
    return torch, arch, package_dir, variants


def main():
    prepared = gelu_variants(sys.argv[1], "tilert-package-gpu-")
    if isinstance(prepared, int):
        return prepared
    torch, arch, package_dir, variants = prepared
    import tilert
    try:
        index = json.dumps({"schema": "tilec.package/1",
                            "kernel": "gelu_forward", "default": "gelu-f16",
                            "variants": variants})
        with open(os.path.join(package_dir, "index.json"), "w") as f:
            f.write(index)
        large = (1 << 20) + 3
        tuning = {"schema": "tilec.tuning/1", "kernel": "gelu_forward",
                  "package": {"index_sha256":
                              hashlib.sha256(index.encode()).hexdigest()},
                  "devices": [{"device": torch.cuda.get_device_name(0),
                               "shapes": [
                                   {"dims": {"N": 1000},
                                    "best": {"variant": "gelu-f16",
                                             "arch": arch}},
                                   {"dims": {"N": large},
                                    "best": {"variant": "gelu-f16-b2048",
                                             "arch": arch}}]}]}
        with open(os.path.join(package_dir, "tuning.json"), "w") as f:
            json.dump(tuning, f)
        failures = 0
        with tilert.Package(package_dir) as package:
            for n, expected in ((1000, "gelu-f16"), (large, "gelu-f16-b2048"),
                                (3 << 20, "gelu-f16-b2048")):
                x = torch.randn(n, device="cuda", dtype=torch.float16)
                through_package = torch.empty_like(x)
                direct = torch.empty_like(x)
                package(x, through_package)
                variant = package.select({"N": n})
                variant(x, direct)
                torch.cuda.synchronize()
                reference = torch.nn.functional.gelu(x.float()).half()
                ok = (variant.variant == expected and
                      torch.equal(through_package, direct) and
                      torch.allclose(direct.float(), reference.float(),
                                     rtol=2e-2, atol=2e-3))
                failures += not ok
                print(f"[{'PASS' if ok else 'FAIL'}] package N={n}: "
                      f"{variant.variant} (expected {expected})")
        return 1 if failures else 0
    finally:
        shutil.rmtree(package_dir)


if __name__ == "__main__":
    sys.exit(main())
