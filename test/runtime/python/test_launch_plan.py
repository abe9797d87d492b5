"""The Python launch path to the driver, without a GPU: tilert's LaunchPlan
with stand-in PyTorch tensors (a fake ``torch`` module) on the fake CUDA
driver (test/runtime/fake-cuda, found through LD_LIBRARY_PATH, which CTest
sets), which records what reaches cuLaunchKernelEx. Covers the attribute
path for PyTorch tensors, the DLPack path it falls back to, and the
runtime's argument checks through both."""

import ctypes
import os
import shutil
import struct
import sys
import tempfile
import threading
import time
import types
import unittest

from test_tilert import (DLManagedTensor, SCALE_ADD, _PyCapsule_New,
                         tensor_param, write_kernel)


class FakeCudaLaunch(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint64), ("grid", ctypes.c_uint32 * 3),
                ("block", ctypes.c_uint32 * 3),
                ("shared_bytes", ctypes.c_uint32),
                ("num_attributes", ctypes.c_uint32),
                ("stream", ctypes.c_uint64),
                ("params", ctypes.c_uint64 * 32)]


def fake_driver():
    """The fake libcuda.so.1's control functions, or None."""
    if not os.environ.get("FAKE_CUDA_DIR"):
        return None
    lib = ctypes.CDLL("libcuda.so.1")
    if not hasattr(lib, "fakeCudaReset"):
        return None
    lib.fakeCudaCallCount.restype = ctypes.c_uint64
    lib.fakeCudaCallCount.argtypes = [ctypes.c_char_p]
    lib.fakeCudaTotalCalls.restype = ctypes.c_uint64
    return lib


class FakeDType:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "torch." + self.name


# A stand-in for the parts of PyTorch tilert reads.
torch = types.ModuleType("torch")
for _name in ("float16", "bfloat16", "float32", "float64", "int8", "int16",
              "int32", "int64", "uint8", "bool", "complex64"):
    setattr(torch, _name, FakeDType(_name))
CURRENT_STREAMS = {0: 0x5100, 1: 0x5200}
torch._C = types.SimpleNamespace(
    _cuda_getCurrentRawStream=lambda device: CURRENT_STREAMS[device])
DLPACK_CODES = {"float16": (2, 16), "float32": (2, 32), "int32": (0, 32),
                "complex64": (5, 64)}


class Tensor:
    """A fake torch.Tensor: fields as PyTorch reports them, plus a DLPack
    export that records the stream it was asked for."""

    def __init__(self, address, shape, dtype=torch.float32, device=0,
                 strides=None, cuda=True):
        self.address = address
        self.shape = tuple(shape)
        self.dtype = dtype
        self.device_index = device
        self.is_cuda = cuda
        if strides is None:
            strides, step = [], 1
            for extent in reversed(self.shape):
                strides.insert(0, step)
                step *= extent
        self.strides = tuple(strides)
        self.dlpack_streams = []
        self._keep = []

    def data_ptr(self):
        return self.address

    def get_device(self):
        return self.device_index if self.is_cuda else -1

    def stride(self):
        return self.strides

    def __dlpack_device__(self):
        return (2 if self.is_cuda else 1, self.get_device())

    def __dlpack__(self, stream=None):
        self.dlpack_streams.append(stream)
        managed = DLManagedTensor()
        rank = len(self.shape)
        shape = (ctypes.c_int64 * max(rank, 1))(*self.shape)
        strides = (ctypes.c_int64 * max(rank, 1))(*self.strides)
        managed.dl_tensor.data = self.address
        managed.dl_tensor.device.device_type = 2 if self.is_cuda else 1
        managed.dl_tensor.device.device_id = max(self.get_device(), 0)
        managed.dl_tensor.ndim = rank
        code, bits = DLPACK_CODES[self.dtype.name]
        managed.dl_tensor.dtype.code = code
        managed.dl_tensor.dtype.bits = bits
        managed.dl_tensor.dtype.lanes = 1
        managed.dl_tensor.shape = shape
        managed.dl_tensor.strides = strides
        self._keep += [managed, shape, strides]
        return _PyCapsule_New(ctypes.addressof(managed), b"dltensor", None)


torch.Tensor = Tensor


def f32_bits(value):
    return struct.unpack("<I", struct.pack("<f", value))[0]


class LaunchPlanTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.driver = fake_driver()
        if cls.driver is None:
            raise unittest.SkipTest(
                "the fake CUDA driver is not in LD_LIBRARY_PATH (run through "
                "CTest: runtime-python-fake-driver)")
        sys.modules["torch"] = torch
        import tilert
        cls.tilert = tilert
        cls.dir = tempfile.mkdtemp(prefix="tilert-plan-")
        cls.kernel = tilert.Kernel(write_kernel(cls.dir, SCALE_ADD))

    @classmethod
    def tearDownClass(cls):
        cls.kernel.close()
        shutil.rmtree(cls.dir)
        del sys.modules["torch"]

    def setUp(self):
        self.driver.fakeCudaReset()
        self.driver.fakeCudaSetParamCount(5)

    def last_launch(self):
        launch = FakeCudaLaunch()
        self.driver.fakeCudaLastLaunch(ctypes.byref(launch))
        return launch

    def vectors(self, n=1000, **fields):
        return [Tensor(0x7f0000000000 + i * 0x100000, [n], **fields)
                for i in range(3)]

    def expect_error(self, message, *args, **kwargs):
        with self.assertRaises(self.tilert.Error) as raised:
            self.kernel(*args, **kwargs)
        self.assertEqual(raised.exception.status,
                         "TILERT_ERROR_INVALID_ARGUMENT")
        self.assertIn(message, raised.exception.message)
        self.assertEqual(self.driver.fakeCudaCallCount(b"cuLaunchKernelEx"), 0)

    def test_torch_tensors_reach_the_driver_without_dlpack(self):
        a, b, c = self.vectors(n=1000)
        self.kernel(a, b, c, 0.5)
        launch = self.last_launch()
        self.assertEqual(launch.count, 1)
        self.assertEqual(launch.grid[0], 4)  # ceildiv(1000, 256)
        self.assertEqual(launch.stream, CURRENT_STREAMS[0])
        self.assertEqual(list(launch.params[:4]),
                         [a.address, b.address, c.address, 1000])
        self.assertEqual(launch.params[4] & 0xFFFFFFFF, f32_bits(0.5))
        self.assertEqual(a.dlpack_streams + c.dlpack_streams, [])

    def test_the_current_stream_of_the_tensors_device(self):
        tensors = self.vectors(device=1)
        with self.assertRaises(self.tilert.Error) as raised:
            self.kernel(*tensors, 1.0)
        # The fake driver has one device: the launch got as far as loading.
        self.assertIn("CUDA device 1 does not exist", raised.exception.message)

    def test_an_explicit_stream_other_than_the_current_one_uses_dlpack(self):
        a, b, c = self.vectors()
        self.kernel(a, b, c, 2.0, stream=0x6600)
        self.assertEqual(self.last_launch().stream, 0x6600)
        self.assertEqual(a.dlpack_streams, [0x6600])
        self.assertEqual(c.dlpack_streams, [0x6600])

        stream = types.SimpleNamespace(cuda_stream=CURRENT_STREAMS[0])
        a, b, c = self.vectors()
        self.kernel(a, b, c, 2.0, stream=stream)
        self.assertEqual(self.last_launch().stream, CURRENT_STREAMS[0])
        self.assertEqual(a.dlpack_streams, [])

    def test_the_runtime_checks_attribute_described_tensors(self):
        a, b, c = self.vectors(n=64)
        self.expect_error("tensor 'B' (index 1) has dtype f16 but the kernel "
                          "expects f32", a, Tensor(b.address, [64],
                                                   dtype=torch.float16), c, 1.0)
        self.expect_error("dim 'N' is inconsistent: tensor 'A' dim 0 has 64 "
                          "but tensor 'C' dim 0 has 65",
                          a, b, Tensor(c.address, [65]), 1.0)
        self.expect_error("tensor 'A' (index 0) is not contiguous: dim 0 has "
                          "stride 2", Tensor(a.address, [64], strides=[2]), b,
                          c, 1.0)
        self.expect_error("tensor 'C' (index 2) address 0x7f0000200004",
                          a, b, Tensor(c.address + 4, [64]), 1.0)
        self.expect_error("tensor 'B' (index 1) is on CUDA device 1 but "
                          "tensor 'A' is on device 0",
                          a, Tensor(b.address, [64], device=1), c, 1.0)
        self.expect_error("tensor 'A' (index 0) has a NULL data pointer",
                          Tensor(0, [64]), b, c, 1.0)

    def test_tensors_the_attribute_path_does_not_describe(self):
        a, b, c = self.vectors(n=64)
        # Another rank: exported through DLPack, refused by the runtime.
        square = Tensor(a.address, [8, 8])
        self.expect_error("tensor 'A' (index 0) has rank 2 but the kernel "
                          "expects rank 1", square, b, c, 1.0)
        self.assertEqual(len(square.dlpack_streams), 1)
        # A dtype without a plain DLPack code.
        self.expect_error("tensor 'B' (index 1) has dtype DLDataType(code=5, "
                          "bits=64, lanes=1)", a,
                          Tensor(b.address, [64], dtype=torch.complex64), c,
                          1.0)
        # A host tensor.
        self.expect_error("tensor 'C' (index 2) is on DLPack device type 1, "
                          "not kDLCUDA", a, b,
                          Tensor(c.address, [64], cuda=False), 1.0)

    def test_scalar_conversions(self):
        a, b, c = self.vectors()
        with self.assertRaisesRegex(TypeError, "scalar 'alpha' \\(index 0\\) "
                                    "is a f32 but got str"):
            self.kernel(a, b, c, "1")
        self.kernel(a, b, c, 1e300)  # rounds to +inf, as in C
        self.assertEqual(self.last_launch().params[4] & 0xFFFFFFFF,
                         0x7F800000)
        self.kernel(a, b, c, 3)
        self.assertEqual(self.last_launch().params[4] & 0xFFFFFFFF,
                         f32_bits(3.0))

    def test_integer_and_half_scalars(self):
        params = [tensor_param("A", ["N"]),
                  {"kind": "dim", "name": "N", "dtype": "i64"},
                  {"kind": "scalar", "name": "n", "dtype": "i32"},
                  {"kind": "scalar", "name": "h", "dtype": "f16"},
                  {"kind": "scalar", "name": "flag", "dtype": "bool"}]
        directory = tempfile.mkdtemp(prefix="tilert-plan-")
        try:
            kernel = self.tilert.Kernel(write_kernel(directory, params))
            self.driver.fakeCudaSetParamCount(5)
            a = Tensor(0x7f0000000000, [7])
            kernel(a, -3, 1.0, True)
            params = self.last_launch().params
            self.assertEqual(params[1], 7)
            self.assertEqual(params[2] & 0xFFFFFFFF, (-3) & 0xFFFFFFFF)
            self.assertEqual(params[3] & 0xFFFF, 0x3C00)
            self.assertEqual(params[4] & 0xFF, 1)
            with self.assertRaisesRegex(ValueError, "scalar 'n' \\(index 0\\):"
                                        " 2147483648 does not fit in i32"):
                kernel(a, 1 << 31, 1.0, True)
            with self.assertRaisesRegex(TypeError, "scalar 'flag' \\(index "
                                        "2\\) is a bool but got 2"):
                kernel(a, 1, 1.0, 2)
            kernel.close()
        finally:
            shutil.rmtree(directory)

    def test_threads_fill_buffers_of_their_own(self):
        a, b, c = self.vectors()
        self.kernel(a, b, c, 1.0)
        theirs = []

        def launch_in_a_thread():
            x, y, z = self.vectors(n=77)
            self.kernel(x, y, z, 1.0)
            theirs.append(self.kernel._threads.__dict__.copy())

        thread = threading.Thread(target=launch_in_a_thread)
        thread.start()
        thread.join()
        mine = self.kernel._threads
        self.assertIsNot(theirs[0]["launch"], mine.launch)
        self.assertNotEqual(ctypes.addressof(theirs[0]["buffer"].memory),
                            ctypes.addressof(mine.buffer.memory))
        self.assertEqual(self.last_launch().params[3], 77)
        self.kernel(a, b, c, 1.0)
        self.assertEqual(self.last_launch().params[3], 1000)

    def test_the_attribute_path_in_use(self):
        """The C extension's where it was built (CTest says so), else the
        Python one; TILERT_PYTHON_EXTENSION=0 turns the extension off."""
        a, b, c = self.vectors()
        self.kernel(a, b, c, 1.0)
        launch = self.kernel._threads.launch
        native = type(launch).__name__ == "Launcher"
        if os.environ.get("TILERT_PYTHON_EXTENSION") == "0":
            self.assertFalse(native)
            self.assertIsNone(self.tilert._native_module())
        elif os.environ.get("TILERT_EXPECT_EXTENSION") == "1":
            self.assertTrue(native)

    def test_every_launch_is_checked_again(self):
        """Nothing the attribute path saw in one launch is assumed by the
        next: after a valid launch, each of these is refused."""
        a, b, c = self.vectors(n=64)
        cases = [
            ("tensor 'B' (index 1) has dtype f16",
             Tensor(b.address, [64], dtype=torch.float16)),
            ("dim 'N' is inconsistent", Tensor(b.address, [63])),
            ("has rank 2 but the kernel expects rank 1",
             Tensor(b.address, [8, 8])),
            ("is not contiguous", Tensor(b.address, [64], strides=[2])),
            ("is not aligned to 16 bytes", Tensor(b.address + 8, [64])),
            ("is on CUDA device 1", Tensor(b.address, [64], device=1)),
            ("has a NULL data pointer", Tensor(0, [64])),
        ]
        for message, wrong in cases:
            self.kernel(a, b, c, 1.0)
            self.driver.fakeCudaReset()
            self.expect_error(message, a, wrong, c, 1.0)
        # The next valid launch passes its own values.
        big = self.vectors(n=5000)
        self.kernel(*big, 4.0)
        launch = self.last_launch()
        self.assertEqual(launch.grid[0], 20)  # ceildiv(5000, 256)
        self.assertEqual(list(launch.params[:4]),
                         [big[0].address, big[1].address, big[2].address,
                          5000])
        self.assertEqual(launch.params[4] & 0xFFFFFFFF, f32_bits(4.0))

    def test_dlpack_launches_between_attribute_launches(self):
        a, b, c = self.vectors(n=100)
        self.kernel(a, b, c, 1.0)
        # An explicit other stream exports every tensor through DLPack.
        self.kernel(a, b, c, 2.0, stream=0x6600)
        self.assertEqual(self.last_launch().stream, 0x6600)
        self.assertEqual(b.dlpack_streams, [0x6600])
        # A tensor that is no PyTorch tensor: the others keep the attribute
        # path in the same launch.
        other = Tensor(b.address, [100])
        plain = types.SimpleNamespace(__dlpack__=other.__dlpack__,
                                      __dlpack_device__=other.__dlpack_device__)
        self.kernel(a, plain, c, 3.0)
        launch = self.last_launch()
        self.assertEqual(launch.stream, CURRENT_STREAMS[0])
        self.assertEqual(list(launch.params[:4]),
                         [a.address, b.address, c.address, 100])
        # One that fails after another was exported leaves nothing behind.
        with self.assertRaisesRegex(TypeError, "does not support DLPack"):
            self.kernel(Tensor(a.address, [10, 10]), object(), c, 1.0)
        x, y, z = self.vectors(n=300)
        self.kernel(x, y, z, 5.0)
        launch = self.last_launch()
        self.assertEqual(list(launch.params[:4]),
                         [x.address, y.address, z.address, 300])
        self.assertEqual(x.dlpack_streams + y.dlpack_streams, [])

    def test_pytorch_imported_after_the_first_launch(self):
        """A thread that launched before PyTorch was imported takes the
        attribute path once it is."""
        a, b, c = self.vectors()
        kernel = self.tilert.Kernel(self.kernel.json_path)
        saved = self.tilert._launch_plan._Torch.tensor_type
        del sys.modules["torch"]
        self.tilert._launch_plan._Torch.tensor_type = None
        try:
            kernel(a, b, c, 1.0)  # Through DLPack: no PyTorch.
            self.assertEqual(len(a.dlpack_streams), 1)
            sys.modules["torch"] = torch
            kernel(a, b, c, 1.0)
            self.assertEqual(len(a.dlpack_streams), 1)
            self.assertEqual(self.last_launch().stream, CURRENT_STREAMS[0])
        finally:
            sys.modules["torch"] = torch
            self.tilert._launch_plan._Torch.tensor_type = saved
            kernel.close()

    def test_scalars_of_the_attribute_path(self):
        a, b, c = self.vectors()
        for value, bits in [(0.25, f32_bits(0.25)), (3, f32_bits(3.0)),
                            (True, f32_bits(1.0)), (1e300, 0x7F800000),
                            (-1e300, 0xFF800000),
                            (float("nan"), None)]:
            self.kernel(a, b, c, value)
            got = self.last_launch().params[4] & 0xFFFFFFFF
            if bits is None:
                self.assertEqual(got & 0x7F800000, 0x7F800000)
                self.assertNotEqual(got & 0x7FFFFF, 0)
            else:
                self.assertEqual(got, bits, value)

    def test_host_time_per_call(self):
        """Prints the Python-side cost of a launch on the fake driver (the
        fake's own calls take nanoseconds); the benchmark of record is
        tools/gpu/bench_launch.py on a GPU."""
        a, b, c = self.vectors()
        for _ in range(100):
            self.kernel(a, b, c, 0.5)
        calls = 20000
        start = time.perf_counter_ns()
        for _ in range(calls):
            self.kernel(a, b, c, 0.5)
        per_call = (time.perf_counter_ns() - start) / calls / 1000
        print(f"\nhost time per launch on the fake driver: {per_call:.2f} us")
        self.assertEqual(self.last_launch().count, 100 + calls)


if __name__ == "__main__":
    unittest.main()
