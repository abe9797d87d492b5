"""Command-line checks of tile-bench that need no GPU: every problem with the
dims, scalars or FLOP model is reported before any device is touched; a
--launch-overhead run on the fake driver (FAKE_CUDA_DIR, test/runtime/
fake-cuda); and `tile-bench tune` on the fake driver, whose kernels do
nothing: a package of read-write tensors validates (nothing changes), one
whose output is only written has a reference that writes nothing, which the
tuner refuses."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from test_package import write_package
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


class TuneTest(unittest.TestCase):
    """`tile-bench tune` on a scale_add package of three variants."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tile-bench-tune-")
        self.package = os.path.join(self.dir, "pkg")
        os.makedirs(self.package)
        write_package(self.package)
        self.env = dict(os.environ,
                        TILEC_CACHE_DIR=os.path.join(self.dir, "cache"))
        self.env.pop("TILEC_AUTOTUNE_DISABLE_CACHE", None)
        fake = os.environ.get("FAKE_CUDA_DIR")
        if fake:
            self.env["LD_LIBRARY_PATH"] = fake

    def tearDown(self):
        shutil.rmtree(self.dir)

    def tune(self, *args, package=None):
        return subprocess.run(
            [TILE_BENCH, "tune", package or self.package, "--scalar",
             "alpha=0.5", "--warmup", "1", "--reps", "3", *args],
            capture_output=True, text=True, timeout=120, env=self.env)

    def need_fake_driver(self):
        if not os.environ.get("FAKE_CUDA_DIR"):
            self.skipTest("FAKE_CUDA_DIR (the fake libcuda.so.1) is not set")

    def expect_error(self, message, *args, package=None):
        result = self.tune(*args, package=package)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("tile-bench: error: " + message, result.stderr)
        return result

    def read_database(self):
        with open(os.path.join(self.package, "tuning.json")) as f:
            return json.load(f)

    def test_errors_before_any_device(self):
        self.expect_error("--shape 'N': expected NAME=VALUE[,NAME=VALUE...] "
                          "with values >= 1", "--shape", "N")
        self.expect_error("--shape 'N=0': expected", "--shape", "N=0")
        self.expect_error("--dim M=5: scale_add has no dim 'M'", "--shape",
                          "M=5")
        self.expect_error(os.path.join(self.package, "index.json") +
                          " lists no shapes to tune for; give --shape")
        missing = os.path.join(self.dir, "missing")
        self.expect_error(missing, "--shape", "N=8", package=missing)
        result = subprocess.run(
            [TILE_BENCH, "tune", self.package, "--shape", "N=8"],
            capture_output=True, text=True, timeout=60, env=self.env)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("missing --scalar alpha=VALUE", result.stderr)

    def test_a_corrupt_index_is_an_error(self):
        index = os.path.join(self.package, "index.json")
        with open(index, "w") as f:
            f.write('{"schema": "tilec.package/1", "kernel": ')
        self.expect_error("TILERT_ERROR_METADATA: " + index, "--shape",
                          "N=8")
        with open(index, "w") as f:
            json.dump({"schema": "tilec.package/1", "kernel": "scale_add",
                       "default": "scale_add", "variants": [],
                       "shapes": [{"N": 0}]}, f)
        self.expect_error("TILERT_ERROR_METADATA: " + index + ": field "
                          "'variants': the package has no variant", "--shape",
                          "N=8")

    def test_a_default_that_cannot_load_is_fatal(self):
        with open(os.path.join(self.package, "scale_add.sm_90a.cubin"),
                  "wb") as f:
            f.write(b"other bytes")
        result = self.expect_error(
            "the default variant 'scale_add' of", "--shape", "N=8")
        self.assertIn("it is the reference, so nothing can be validated",
                      result.stderr)

    def test_tunes_validates_and_caches(self):
        self.need_fake_driver()
        # A variant whose binary does not match its metadata is excluded,
        # not fatal.
        with open(os.path.join(self.package, "scale_add-block_64.sm_90a"
                               ".cubin"), "wb") as f:
            f.write(b"other bytes")
        result = self.tune("--shape", "N=4096", "--shape", "N=100000")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("tile-bench: wrote " + os.path.join(self.package,
                                                          "tuning.json"),
                      result.stdout)
        database = self.read_database()
        self.assertEqual(database["schema"], "tilec.tuning/1")
        self.assertEqual(database["kernel"], "scale_add")
        with open(os.path.join(self.package, "index.json"), "rb") as f:
            self.assertEqual(database["package"]["index_sha256"],
                             hashlib.sha256(f.read()).hexdigest())
        [device] = database["devices"]
        self.assertEqual(device["device"], "Fake CUDA device")
        self.assertEqual(device["arch"], "sm_90")
        self.assertEqual(device["ordinals"], [0])
        self.assertEqual(device["reps"], 3)
        self.assertEqual(device["finalists"], 8)
        self.assertEqual(device["final_rounds"], 10)
        self.assertEqual([s["dims"] for s in device["shapes"]],
                         [{"N": 4096}, {"N": 100000}])
        for shape in device["shapes"]:
            self.assertEqual(shape["candidates"], 3)
            self.assertEqual(shape["measured"], 2)
            self.assertIn(shape["best"]["variant"],
                          ("scale_add", "scale_add-block_1024"))
            self.assertEqual(shape["default"]["variant"], "scale_add")
            # The final round timed both measured variants again; the best
            # is its fastest.
            self.assertEqual(len(shape["final_round"]), 2)
            self.assertEqual(shape["best"], shape["final_round"][0])
            [excluded] = shape["excluded"]
            self.assertEqual(excluded["variant"], "scale_add-block_64")
            self.assertIn("cannot be loaded", excluded["reason"])
        # The runtime reads what the tuner wrote and selects its best.
        best = device["shapes"][1]["best"]["variant"]
        selected = subprocess.run(
            [sys.executable, "-c",
             "import sys, tilert\n"
             "with tilert.Package(sys.argv[1]) as p:\n"
             "    print(p.select({\"N\": 100000}).variant)", self.package],
            capture_output=True, text=True, timeout=60, env=self.env)
        self.assertEqual(selected.returncode, 0, selected.stderr)
        self.assertEqual(selected.stdout.strip(), best)

        # Again: every measurement comes from the cache (a variant that
        # cannot be loaded is not a measurement).
        again = self.tune("--shape", "N=4096", "--shape", "N=100000")
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(again.stderr.count("(cached)"), 4, again.stderr)
        # A corrupt cache entry is a warning, and measured again.
        entries = [os.path.join(d, f) for d, _, files in
                   os.walk(os.path.join(self.dir, "cache")) for f in files]
        self.assertEqual(len(entries), 4, entries)
        with open(entries[0], "w") as f:
            f.write("{not json")
        third = self.tune("--shape", "N=4096", "--shape", "N=100000")
        self.assertEqual(third.returncode, 0, third.stderr)
        self.assertIn("warning", third.stderr)
        self.assertEqual(third.stderr.count("(cached)"), 3, third.stderr)
        # --no-cache measures everything again.
        fresh = self.tune("--shape", "N=4096", "--no-cache",
                          "--finalists", "0")
        self.assertEqual(fresh.returncode, 0, fresh.stderr)
        self.assertNotIn("(cached)", fresh.stderr)
        [shape] = self.read_database()["devices"][0]["shapes"]
        self.assertEqual(shape["final_round"], [])

    def test_every_device_of_a_name_works_on_one_entry(self):
        self.need_fake_driver()
        self.env["FAKE_CUDA_DEVICES"] = "2"
        self.expect_error("--device 2: there are 2 CUDA device(s)",
                          "--shape", "N=4096", "--device", "2")
        self.expect_error("--device 0 is given twice", "--shape", "N=4096",
                          "--device", "0", "--device", "0")
        result = self.tune("--shape", "N=4096", "--shape", "N=8192",
                           "--shape", "N=100000")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("on 2 device(s) [Fake CUDA device: 0,1]", result.stdout)
        [device] = self.read_database()["devices"]
        self.assertEqual(device["ordinals"], [0, 1])
        self.assertEqual([s["measured"] for s in device["shapes"]], [3, 3, 3])
        # Only the second device, on an entry of its own name.
        result = self.tune("--shape", "N=4096", "--device", "1")
        self.assertEqual(result.returncode, 0, result.stderr)
        [device] = self.read_database()["devices"]
        self.assertEqual(device["ordinals"], [1])

    def test_a_corrupt_database_is_replaced(self):
        self.need_fake_driver()
        database = os.path.join(self.package, "tuning.json")
        with open(database, "w") as f:
            f.write("not JSON")
        result = self.tune("--shape", "N=4096")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("tile-bench: warning: replacing " + database +
                      " (not a tuning database of this package's "
                      "index.json)", result.stderr)
        self.assertEqual(self.read_database()["schema"], "tilec.tuning/1")

    def test_a_reference_that_writes_nothing_is_refused(self):
        self.need_fake_driver()
        # C only written: the fake runs nothing, so C keeps its fill.
        for name in os.listdir(self.package):
            if name.endswith(".sm_90a.json"):
                path = os.path.join(self.package, name)
                with open(path) as f:
                    metadata = json.load(f)
                for param in metadata["params"]:
                    if param["kind"] == "tensor":
                        param["access"] = ("write" if param["name"] == "C"
                                           else "read")
                with open(path, "w") as f:
                    json.dump(metadata, f)
        result = self.expect_error(
            "the reference (the default variant scale_add) failed: tensor "
            "'C': 4096 of 4096 elements were not written", "--shape",
            "N=4096")
        self.assertIn("cannot be validated against it", result.stderr)


if __name__ == "__main__":
    unittest.main()
