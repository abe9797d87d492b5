"""tilert.Package on the fake CUDA driver (test/runtime/fake-cuda, found
through LD_LIBRARY_PATH, which CTest sets): opening, selection by the
tuning database, dispatch of calls by the tensors' shapes through the
dict cache, variant Kernels the package owns, and errors."""

import ctypes
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
import unittest

from test_launch_plan import (FakeCudaLaunch, Tensor, fake_driver, torch)
from test_tilert import SCALE_ADD

CUBIN = b"fake cubin bytes"


def write_variant(directory, name, arch, block):
    """Writes variant ``name`` of scale_add for ``arch`` (grid
    ceildiv(N, block)); returns its index.json entry."""
    stem = f"{name}.{arch}"
    with open(os.path.join(directory, stem + ".cubin"), "wb") as f:
        f.write(CUBIN)
    document = {
        "schema": "tilec.kernel/1",
        "name": "scale_add",
        "entry": "scale_add",
        "arch": arch,
        "binaries": [{"kind": "cubin", "file": stem + ".cubin",
                      "sha256": hashlib.sha256(CUBIN).hexdigest()}],
        "versions": {"tilec": "0.1.0", "llvm": "22.1.8", "ptxas": "13.0.88"},
        "source": {"path": "specs/scale_add.tile", "sha256": "0" * 64},
        "constants": {"dtype": "f32", "block": block},
        "params": SCALE_ADD,
        "launch": {"grid": [f"ceildiv(N, {block})", "1", "1"],
                   "block": [256, 1, 1], "cluster": [1, 1, 1],
                   "dynamic_smem": 0},
        "resources": {"registers": 8, "spill_stores": 0, "spill_loads": 0,
                      "local_bytes": 0, "static_smem": 0, "max_threads": 256},
    }
    with open(os.path.join(directory, stem + ".json"), "w") as f:
        json.dump(document, f)
    return {"name": name, "arch": arch, "defines": {"block": block},
            "files": {"metadata": stem + ".json", "cubin": stem + ".cubin"},
            "registers": 8, "spills": {"stores": 0, "loads": 0}, "smem": 0,
            "threads": 256}


def write_package(directory, tuned_shapes=None, device="Fake CUDA device"):
    """A scale_add package: "scale_add" (block 256, the default),
    "scale_add-block_1024" and "scale_add-block_64", all sm_90a; with
    ``tuned_shapes`` ({N: best}) a tuning.json for ``device``."""
    variants = [write_variant(directory, "scale_add", "sm_90a", 256),
                write_variant(directory, "scale_add-block_1024", "sm_90a",
                              1024),
                write_variant(directory, "scale_add-block_64", "sm_90a", 64)]
    index = json.dumps({"schema": "tilec.package/1", "kernel": "scale_add",
                        "archs": ["sm_90a"], "shapes": [],
                        "default": "scale_add", "variants": variants})
    with open(os.path.join(directory, "index.json"), "w") as f:
        f.write(index)
    if tuned_shapes is not None:
        tuning = {
            "schema": "tilec.tuning/1.0", "kernel": "scale_add",
            "package": {"index_sha256":
                        hashlib.sha256(index.encode()).hexdigest()},
            "devices": [{"device": device, "arch": "sm_90",
                         "shapes": [{"dims": {"N": n},
                                     "best": {"variant": best,
                                              "arch": "sm_90a",
                                              "median_ms": 0.1}}
                                    for n, best in tuned_shapes.items()]}]}
        with open(os.path.join(directory, "tuning.json"), "w") as f:
            json.dump(tuning, f)


class PackageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.driver = fake_driver()
        if cls.driver is None:
            raise unittest.SkipTest(
                "the fake CUDA driver is not in LD_LIBRARY_PATH (run through "
                "CTest: runtime-python-package)")
        sys.modules["torch"] = torch
        import tilert
        cls.tilert = tilert

    @classmethod
    def tearDownClass(cls):
        del sys.modules["torch"]

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tilert-package-")
        self.driver.fakeCudaReset()
        self.driver.fakeCudaSetParamCount(5)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def last_launch(self):
        launch = FakeCudaLaunch()
        self.driver.fakeCudaLastLaunch(ctypes.byref(launch))
        return launch

    def vectors(self, n):
        return [Tensor(0x7f0000000000 + i * 0x1000000, [n]) for i in range(3)]

    def test_describes_itself(self):
        write_package(self.dir)
        with self.tilert.Package(self.dir) as package:
            self.assertEqual(package.kernel_name, "scale_add")
            self.assertEqual(package.default, "scale_add")
            self.assertFalse(package.tuned)
            self.assertEqual(package.num_variants, 3)
            self.assertEqual(package.dims, ["N"])
            self.assertEqual(package.tensors[0],
                             self.tilert.TensorParam("A", "f32", ["N"], 16))
            self.assertEqual(package.scalars,
                             [self.tilert.ScalarParam("alpha", "f32")])
            self.assertIn("3 variants, default scale_add, not tuned",
                          repr(package))

    def test_select_by_the_tuning_database(self):
        write_package(self.dir, {1000: "scale_add-block_64",
                                 1 << 20: "scale_add-block_1024"})
        package = self.tilert.Package(self.dir)
        self.assertTrue(package.tuned)
        self.assertEqual(package.select({"N": 1000}).variant,
                         "scale_add-block_64")
        self.assertEqual(package.select([1 << 20]).variant,
                         "scale_add-block_1024")
        self.assertEqual(package.select((3 << 18,)).variant,
                         "scale_add-block_1024")
        kernel = package.select({"N": 1000})
        self.assertIs(kernel, package.select([900]))
        self.assertEqual(kernel.arch, "sm_90a")
        self.assertEqual(kernel.grid, ("ceildiv(N, 64)", "1", "1"))
        with self.assertRaisesRegex(ValueError, "unknown: M; missing: N"):
            package.select({"M": 3})
        with self.assertRaises(self.tilert.Error) as raised:
            package.select([1, 2])
        self.assertIn("scale_add has 1 dims (N) but 2 were given",
                      raised.exception.message)
        package.close()

    def test_other_device_names_get_the_default(self):
        write_package(self.dir, {1000: "scale_add-block_64"},
                      device="NVIDIA H200")
        package = self.tilert.Package(self.dir)
        self.assertEqual(package.select({"N": 1000}).variant, "scale_add")
        package.close()

    def test_calls_dispatch_by_shape(self):
        write_package(self.dir, {1000: "scale_add-block_64",
                                 1 << 20: "scale_add-block_1024"})
        package = self.tilert.Package(self.dir)
        package(*self.vectors(1000), 0.5)
        launch = self.last_launch()
        self.assertEqual(launch.grid[0], 16)  # ceildiv(1000, 64)
        self.assertEqual(launch.params[3], 1000)
        a, b, c = self.vectors(1 << 20)
        package(a, b, c, 2.0)
        launch = self.last_launch()
        self.assertEqual(launch.grid[0], 1024)  # ceildiv(2^20, 1024)
        self.assertEqual(list(launch.params[:3]),
                         [a.address, b.address, c.address])
        self.assertEqual(set(package._dispatch), {(0, 1000), (0, 1 << 20)})
        # The same launch through the selected variant.
        package.select([1 << 20])(a, b, c, 2.0)
        self.assertEqual(self.last_launch().grid[0], 1024)
        self.assertEqual(self.last_launch().count, 3)
        package.close()

    def test_call_errors_are_the_kernels(self):
        write_package(self.dir)
        package = self.tilert.Package(self.dir)
        a, b, c = self.vectors(64)
        with self.assertRaises(self.tilert.Error) as raised:
            package(a, b, Tensor(c.address, [65]), 1.0)
        self.assertIn("dim 'N' is inconsistent: tensor 'A' dim 0 has 64 but "
                      "tensor 'C' dim 0 has 65", raised.exception.message)
        with self.assertRaises(self.tilert.Error) as raised:
            package(a, b, c)
        self.assertIn("scale_add takes 3 tensors (A, B, C) and 1 scalars "
                      "(alpha) but 3 arguments were given",
                      raised.exception.message)
        with self.assertRaises(self.tilert.Error) as raised:
            package(Tensor(a.address, []), b, c, 1.0)
        self.assertIn("tensor 'A' (index 0) has rank 0 but the kernel "
                      "expects rank 1", raised.exception.message)
        self.assertEqual(self.driver.fakeCudaCallCount(b"cuLaunchKernelEx"), 0)
        package.close()

    def test_close_closes_the_variants(self):
        write_package(self.dir)
        package = self.tilert.Package(self.dir)
        kernel = package.select([100])
        kernel.close()  # Nothing: the package owns it.
        package(*self.vectors(100), 1.0)
        variant = package.select([100])
        package.close()
        package.close()
        with self.assertRaisesRegex(ValueError, "is closed"):
            variant(*self.vectors(100), 1.0)
        with self.assertRaisesRegex(ValueError, "is closed"):
            package.select([100])
        with self.assertRaisesRegex(ValueError, "is closed"):
            package(*self.vectors(100), 1.0)

    def test_host_time_of_dispatch(self):
        """Prints what dispatch adds to a launch on the fake driver: the
        key's attribute reads and one dict lookup."""
        write_package(self.dir)
        package = self.tilert.Package(self.dir)
        a, b, c = self.vectors(1000)
        kernel = package.select([1000])
        calls = 20000
        times = {}
        for name, launch in (("variant", kernel), ("package", package)):
            for _ in range(100):
                launch(a, b, c, 0.5)
            start = time.perf_counter_ns()
            for _ in range(calls):
                launch(a, b, c, 0.5)
            times[name] = (time.perf_counter_ns() - start) / calls / 1000
        print(f"\nhost time per launch on the fake driver: variant "
              f"{times['variant']:.2f} us, package {times['package']:.2f} us")
        self.assertEqual(self.last_launch().count, 2 * (100 + calls))
        package.close()

    def test_open_errors(self):
        with self.assertRaises(self.tilert.Error) as raised:
            self.tilert.Package(self.dir)
        self.assertEqual(raised.exception.status, "TILERT_ERROR_IO")
        self.assertIn("index.json", raised.exception.message)
        write_package(self.dir, {1000: "scale_add-fast"})
        with self.assertRaises(self.tilert.Error) as raised:
            self.tilert.Package(self.dir)
        self.assertEqual(raised.exception.status, "TILERT_ERROR_METADATA")
        self.assertIn("tuning.json: field 'devices[0].shapes[0].best': "
                      "variant 'scale_add-fast' for sm_90a is not in the "
                      "package's index.json", raised.exception.message)


if __name__ == "__main__":
    unittest.main()
