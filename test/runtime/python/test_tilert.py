"""Tests of the tilert Python bindings that need no GPU: loading, metadata,
errors, scalar conversion and the DLPack capsule path (with a hand-made
DLManagedTensor, so neither PyTorch nor a GPU is required)."""

import ctypes
import hashlib
import json
import os
import shutil
import struct
import tempfile
import unittest

import tilert

CUBIN = b"fake cubin bytes"


def write_kernel(directory, params, grid=("ceildiv(N, 256)", "1", "1")):
    with open(os.path.join(directory, "k.cubin"), "wb") as f:
        f.write(CUBIN)
    document = {
        "schema": "tilec.kernel/1",
        "name": "scale_add",
        "entry": "scale_add",
        "arch": "sm_90a",
        "binaries": [{"kind": "cubin", "file": "k.cubin",
                      "sha256": hashlib.sha256(CUBIN).hexdigest()}],
        "versions": {"tilec": "0.1.0", "llvm": "22.1.8", "ptxas": "13.0.88"},
        "source": {"path": "specs/scale_add.tile", "sha256": "0" * 64},
        "constants": {"dtype": "f32"},
        "params": params,
        "launch": {"grid": list(grid), "block": [256, 1, 1],
                   "cluster": [1, 1, 1], "dynamic_smem": 0},
        "resources": {"registers": 8, "spill_stores": 0, "spill_loads": 0,
                      "local_bytes": 0, "static_smem": 0, "max_threads": 256},
    }
    path = os.path.join(directory, "k.json")
    with open(path, "w") as f:
        json.dump(document, f)
    return path


def tensor_param(name, shape, dtype="f32"):
    return {"kind": "tensor", "name": name, "dtype": dtype, "shape": shape,
            "alignment": 16}


SCALE_ADD = [tensor_param("A", ["N"]), tensor_param("B", ["N"]),
             tensor_param("C", ["N"]),
             {"kind": "dim", "name": "N", "dtype": "i64"},
             {"kind": "scalar", "name": "alpha", "dtype": "f32"}]


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice),
                ("ndim", ctypes.c_int), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


_PyCapsule_New = ctypes.pythonapi.PyCapsule_New
_PyCapsule_New.restype = ctypes.py_object
_PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class FakeCudaTensor:
    """A 1-D DLPack producer claiming to live on CUDA device 0."""

    def __init__(self, n, bits=32, address=0x7F0000000000):
        self.shape = (ctypes.c_int64 * 1)(n)
        self.managed = DLManagedTensor()
        t = self.managed.dl_tensor
        t.data = address
        t.device = DLDevice(2, 0)
        t.ndim = 1
        t.dtype = DLDataType(2, bits, 1)
        t.shape = self.shape
        self.streams = []

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return _PyCapsule_New(ctypes.addressof(self.managed), b"dltensor", None)


class TilertTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tilert-py-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_kernel_metadata(self):
        kernel = tilert.Kernel(write_kernel(self.dir, SCALE_ADD))
        self.assertEqual(kernel.name, "scale_add")
        self.assertEqual(kernel.arch, "sm_90a")
        self.assertEqual(kernel.grid, ("ceildiv(N, 256)", "1", "1"))
        self.assertEqual(kernel.block, (256, 1, 1))
        self.assertEqual(kernel.tensors[0], tilert.TensorParam("A", "f32", ["N"], 16))
        self.assertEqual(kernel.dims, ["N"])
        self.assertEqual(kernel.scalars, [tilert.ScalarParam("alpha", "f32")])
        self.assertIn("scale_add(A: f32[N]", repr(kernel))
        self.assertTrue(os.path.exists(tilert.library_path()))

    def test_constant_dims_are_ints(self):
        params = [tensor_param("W", ["M", 128]),
                  {"kind": "dim", "name": "M", "dtype": "i64"}]
        kernel = tilert.Kernel(write_kernel(self.dir, params, ("M", "1", "1")))
        self.assertEqual(kernel.tensors[0].shape, ["M", 128])

    def test_load_errors_raise_with_status(self):
        with self.assertRaises(tilert.Error) as caught:
            tilert.Kernel(os.path.join(self.dir, "missing.json"))
        self.assertEqual(caught.exception.status, "TILERT_ERROR_IO")
        self.assertIn("missing.json", caught.exception.message)
        path = os.path.join(self.dir, "bad.json")
        with open(path, "w") as f:
            f.write('{"schema": ')
        with self.assertRaises(tilert.Error) as caught:
            tilert.Kernel(path)
        self.assertEqual(caught.exception.status, "TILERT_ERROR_METADATA")
        self.assertIn("truncated JSON", str(caught.exception))

    def test_argument_errors(self):
        kernel = tilert.Kernel(write_kernel(self.dir, SCALE_ADD))
        a, b, c = FakeCudaTensor(100), FakeCudaTensor(100), FakeCudaTensor(100)
        with self.assertRaises(tilert.Error) as caught:
            kernel(a, b, c)
        self.assertEqual(caught.exception.status, "TILERT_ERROR_INVALID_ARGUMENT")
        self.assertIn("takes 3 tensors (A, B, C) and 1 scalars (alpha)",
                      caught.exception.message)
        with self.assertRaises(TypeError):
            kernel(a, [1.0], c, 1.0)
        with self.assertRaises(TypeError):
            kernel(a, b, c, "2.0")
        with self.assertRaises(TypeError):
            kernel(a, b, c, 1.0, stream="default")

    def test_runtime_validates_dlpack_tensors(self):
        kernel = tilert.Kernel(write_kernel(self.dir, SCALE_ADD))
        a, c = FakeCudaTensor(100), FakeCudaTensor(100)
        with self.assertRaises(tilert.Error) as caught:
            kernel(a, FakeCudaTensor(100, bits=16), c, 1.0)
        self.assertEqual(caught.exception.status, "TILERT_ERROR_INVALID_ARGUMENT")
        self.assertIn("tensor 'B' (index 1) has dtype f16", caught.exception.message)
        with self.assertRaises(tilert.Error) as caught:
            kernel(a, FakeCudaTensor(99), c, 1.0)
        self.assertIn("dim 'N' is inconsistent", caught.exception.message)
        with self.assertRaises(tilert.Error) as caught:
            kernel(a, FakeCudaTensor(100, address=0x7F0000000002), c, 1.0)
        self.assertIn("is not aligned to 16 bytes", caught.exception.message)
        # Valid arguments reach the driver: absent here, or rejecting the fake
        # cubin on a GPU machine.
        with self.assertRaises(tilert.Error) as caught:
            kernel(a, FakeCudaTensor(100), c, 0.5, stream=0)
        self.assertIn(caught.exception.status,
                      ("TILERT_ERROR_NO_DEVICE", "TILERT_ERROR_CUDA",
                       "TILERT_ERROR_JIT"))
        # The legacy default stream is DLPack's stream 1.
        self.assertEqual(a.streams[-1], 1)

    def test_tensor_maps_come_from_the_tensors(self):
        params = [dict(tensor_param("A", ["N"]), alignment=4),
                  tensor_param("B", ["N"]), tensor_param("C", ["N"]),
                  {"kind": "dim", "name": "N", "dtype": "i64"},
                  {"kind": "scalar", "name": "alpha", "dtype": "f32"},
                  {"kind": "tensor_map", "name": "A_map", "tensor": "A",
                   "box": [64], "swizzle": 0, "l2_promotion": 128,
                   "oob_fill": "zero"}]
        kernel = tilert.Kernel(write_kernel(self.dir, params))
        self.assertEqual([t.name for t in kernel.tensors], ["A", "B", "C"])
        self.assertEqual(kernel.scalars, [tilert.ScalarParam("alpha", "f32")])
        self.assertIn("scale_add(A: f32[N], B: f32[N], C: f32[N], alpha: f32)",
                      repr(kernel))
        b, c = FakeCudaTensor(100), FakeCudaTensor(100)
        with self.assertRaises(tilert.Error) as caught:
            kernel(FakeCudaTensor(100, address=0x7F0000000004), b, c, 1.0)
        self.assertEqual(caught.exception.status, "TILERT_ERROR_INVALID_ARGUMENT")
        self.assertIn("tensor 'A' (index 0): the address 0x7f0000000004 is not "
                      "aligned to 16 bytes as TMA requires (tensor map 'A_map')",
                      caught.exception.message)
        with self.assertRaises(tilert.Error) as caught:
            kernel(FakeCudaTensor(100), b, c, 1.0)
        self.assertIn(caught.exception.status,
                      ("TILERT_ERROR_NO_DEVICE", "TILERT_ERROR_CUDA",
                       "TILERT_ERROR_JIT", "TILERT_ERROR_ARCH_MISMATCH"))

    def test_closed_kernel(self):
        kernel = tilert.Kernel(write_kernel(self.dir, SCALE_ADD))
        kernel.close()
        kernel.close()
        with self.assertRaises(ValueError):
            kernel.prepare()

    def test_scalar_conversions(self):
        self.assertEqual(tilert._launch_plan.half_bits(1.0), 0x3C00)
        self.assertEqual(tilert._launch_plan.half_bits(65520.0), 0x7C00)
        self.assertEqual(tilert._launch_plan.half_bits(1e300), 0x7C00)
        self.assertEqual(tilert._launch_plan.half_bits(2.0 ** -24), 0x0001)
        self.assertEqual(tilert._launch_plan.half_bits(2.0 ** -25), 0x0000)
        self.assertEqual(tilert._launch_plan.half_bits(-2.0), 0xC000)
        for value in (0.1, -3.75, 1000.5, 6.1e-5):
            expected = struct.unpack("<H", struct.pack("<e", value))[0]
            self.assertEqual(tilert._launch_plan.half_bits(value), expected, value)
        self.assertEqual(tilert._launch_plan.bfloat16_bits(1.0), 0x3F80)
        self.assertEqual(tilert._launch_plan.bfloat16_bits(1.0 + 2.0 ** -8), 0x3F80)
        self.assertEqual(tilert._launch_plan.bfloat16_bits(1.0 + 3 * 2.0 ** -8), 0x3F82)


if __name__ == "__main__":
    unittest.main()
