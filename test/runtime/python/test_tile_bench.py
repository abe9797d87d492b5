"""Command-line checks of tile-bench that need no GPU: every problem with the
dims, scalars or FLOP model is reported before any device is touched; and a
--launch-overhead run on the fake driver (FAKE_CUDA_DIR, test/runtime/
fake-cuda)."""

import json
import os
import shutil
import subprocess
import tempfile
import unittest

from test_tilert import SCALE_ADD, write_kernel

TILE_BENCH = os.environ.get("TILE_BENCH", "tile-bench")


class TileBenchTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tile-bench-")
        self.json = write_kernel(self.dir, SCALE_ADD)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_bench(self, *args):
        return subprocess.run([TILE_BENCH, *args], capture_output=True,
                              text=True, timeout=60)

    def expect_error(self, message, *args):
        result = self.run_bench(*args)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("tile-bench: error: " + message, result.stderr)

    def test_help(self):
        result = self.run_bench("--help")
        self.assertEqual(result.returncode, 0)
        self.assertIn("--dim", result.stdout)

    def test_missing_and_unknown_names(self):
        self.expect_error("missing --dim N=VALUE (scale_add needs dims: N)",
                          self.json, "--scalar", "alpha=1")
        self.expect_error("--dim M=5: scale_add has no dim 'M' (its dims: N)",
                          self.json, "--dim", "M=5")
        self.expect_error("missing --scalar alpha=VALUE", self.json,
                          "--dim", "N=8")
        self.expect_error("--scalar beta=1: scale_add has no scalar 'beta'",
                          self.json, "--dim", "N=8", "--scalar", "beta=1")
        self.expect_error("--dim N is given twice", self.json, "--dim", "N=1",
                          "--dim", "N=2")

    def test_bad_values(self):
        self.expect_error("--dim N: expected NAME=VALUE", self.json,
                          "--dim", "N")
        self.expect_error("--dim N 'x': unknown dimension 'x'", self.json,
                          "--dim", "N=x", "--scalar", "alpha=1")
        self.expect_error("--scalar alpha (f32): 'one' is not a number",
                          self.json, "--dim", "N=8", "--scalar", "alpha=one")
        self.expect_error("--flops '2*Q': unknown dimension 'Q'", self.json,
                          "--dim", "N=8", "--scalar", "alpha=1",
                          "--flops", "2*Q")
        self.expect_error("TILERT_ERROR_IO: cannot open", os.path.join(
            self.dir, "missing.json"), "--dim", "N=8")

    def test_valid_arguments_reach_the_device(self):
        # No GPU here (or a fake cubin on a GPU machine): the failure comes
        # from the runtime, after the command line was accepted.
        self.expect_error("TILERT_ERROR_", self.json, "--dim", "N=1024*1024",
                          "--scalar", "alpha=0.5", "--flops", "2*N")

    def test_launch_overhead_on_the_fake_driver(self):
        fake = os.environ.get("FAKE_CUDA_DIR")
        if not fake:
            self.skipTest("FAKE_CUDA_DIR (the fake libcuda.so.1) is not set")
        out = os.path.join(self.dir, "overhead.json")
        result = subprocess.run(
            [TILE_BENCH, self.json, "--dim", "N=4097", "--scalar",
             "alpha=0.5", "--launch-overhead", "--reps", "3", "--launches",
             "100", "--json", out],
            capture_output=True, text=True, timeout=60,
            env=dict(os.environ, LD_LIBRARY_PATH=fake))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("host time per launch: median", result.stdout)
        with open(out) as f:
            report = json.load(f)
        self.assertEqual(report["launches_per_round"], 100)
        self.assertEqual(len(report["host_us_per_launch"]), 3)
        self.assertGreater(report["median_us"], 0)
        self.assertGreater(report["single_launch_median_us"], 0)
        self.assertIn("the driver alone (cuLaunchKernelEx of an empty "
                      "kernel): median", result.stdout)
        self.assertGreater(report["driver_median_us"], 0)
        self.assertGreater(report["driver_single_launch_median_us"], 0)
        self.assertEqual(report["dims"], {"N": 4097})


if __name__ == "__main__":
    unittest.main()
