"""Python bindings for libtilert, the tilec runtime (ctypes over its C ABI).

    import tilert
    kernel = tilert.Kernel("out/vector_add.sm_90a.json")
    kernel(a, b, c)                        # PyTorch / CuPy / JAX via DLPack
    kernel(x, y, 0.5, stream=torch.cuda.current_stream())

Tensors are passed through DLPack (``__dlpack__``); scalars are Python
numbers converted to the kernel's scalar dtypes. Every runtime error raises
``tilert.Error`` carrying the runtime's status name and message. No build
step: the shared library is found through the ``TILERT_LIBRARY`` environment
variable, next to this package, or in the repository's ``build*/runtime``.
"""

import collections
import ctypes
import ctypes.util
import glob
import math
import numbers
import os
import struct
import sys
import threading

__all__ = ["Error", "Kernel", "ScalarParam", "TensorParam", "library_path"]

TensorParam = collections.namedtuple("TensorParam", "name dtype shape alignment")
TensorParam.__doc__ = """A tensor parameter: shape entries are dim names (str)
or constant extents (int)."""
ScalarParam = collections.namedtuple("ScalarParam", "name dtype")
ScalarParam.__doc__ = "A runtime scalar parameter."

_SUCCESS = 0
_INVALID_ARGUMENT = 1
_KDLCUDA = 2


class Error(RuntimeError):
    """A failed runtime call: ``status`` is the status name (e.g.
    "TILERT_ERROR_INVALID_ARGUMENT"), ``code`` its value, ``message`` the
    runtime's message naming the argument, field or file at fault."""

    def __init__(self, code, message):
        self.code = code
        self.status = _library().tilertGetErrorName(code).decode()
        self.message = message
        super().__init__(f"{self.status}: {message}")


class _ScalarValue(ctypes.Union):
    _fields_ = [
        ("f64", ctypes.c_double),
        ("f32", ctypes.c_float),
        ("i64", ctypes.c_int64),
        ("i32", ctypes.c_int32),
        ("i16", ctypes.c_int16),
        ("i8", ctypes.c_int8),
        ("u32", ctypes.c_uint32),
        ("u8", ctypes.c_uint8),
        ("boolean", ctypes.c_uint8),
        ("f16", ctypes.c_uint16),
        ("bf16", ctypes.c_uint16),
    ]


class _Scalar(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("value", _ScalarValue)]


class _KernelInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("entry", ctypes.c_char_p),
        ("arch", ctypes.c_char_p),
        ("json_path", ctypes.c_char_p),
        ("grid", ctypes.c_char_p * 3),
        ("num_tensors", ctypes.c_int32),
        ("num_dims", ctypes.c_int32),
        ("num_scalars", ctypes.c_int32),
        ("block", ctypes.c_uint32 * 3),
        ("cluster", ctypes.c_uint32 * 3),
        ("dynamic_smem", ctypes.c_uint32),
    ]


class _TensorParam(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("dtype", ctypes.c_int),
        ("rank", ctypes.c_int32),
        ("dim_names", ctypes.POINTER(ctypes.c_char_p)),
        ("dim_values", ctypes.POINTER(ctypes.c_int64)),
        ("alignment", ctypes.c_int64),
    ]


class _ScalarParam(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int)]


_lib = None
_lib_path = None
_lib_lock = threading.Lock()


def _candidate_paths():
    override = os.environ.get("TILERT_LIBRARY")
    if override:
        return [override]
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.abspath(os.path.join(here, "..", "..", ".."))
    builds = glob.glob(os.path.join(repo, "build*", "runtime", "libtilert.so"))
    candidates = [os.path.join(here, "libtilert.so")]
    candidates += sorted(builds, key=os.path.getmtime, reverse=True)
    system = ctypes.util.find_library("tilert")
    if system:
        candidates.append(system)
    return candidates


def _declare(lib):
    c = ctypes
    signatures = {
        "tilertGetVersion": (c.c_char_p, []),
        "tilertGetErrorName": (c.c_char_p, [c.c_int]),
        "tilertGetLastErrorMessage": (c.c_char_p, []),
        "tilertDTypeName": (c.c_char_p, [c.c_int]),
        "tilertKernelLoad": (c.c_int, [c.c_char_p, c.POINTER(c.c_void_p)]),
        "tilertKernelDestroy": (c.c_int, [c.c_void_p]),
        "tilertKernelGetInfo": (c.c_int, [c.c_void_p, c.POINTER(_KernelInfo)]),
        "tilertKernelGetTensorParam": (
            c.c_int, [c.c_void_p, c.c_int32, c.POINTER(_TensorParam)]),
        "tilertKernelGetDimName": (
            c.c_int, [c.c_void_p, c.c_int32, c.POINTER(c.c_char_p)]),
        "tilertKernelGetScalarParam": (
            c.c_int, [c.c_void_p, c.c_int32, c.POINTER(_ScalarParam)]),
        "tilertKernelPrepare": (c.c_int, [c.c_void_p, c.c_int32]),
        "tilertKernelLaunch": (
            c.c_int, [c.c_void_p, c.POINTER(c.c_void_p), c.c_int32,
                      c.POINTER(_Scalar), c.c_int32, c.c_void_p]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes


def _library():
    global _lib, _lib_path
    with _lib_lock:
        if _lib is not None:
            return _lib
        tried = []
        for path in _candidate_paths():
            try:
                lib = ctypes.CDLL(path)
            except OSError as error:
                tried.append(f"{path} ({error})")
                continue
            _declare(lib)
            _lib, _lib_path = lib, path
            return lib
        raise ImportError(
            "tilert: cannot load libtilert.so; build the runtime (cmake "
            "-DTILEC_BUILD_COMPILER=OFF) and set TILERT_LIBRARY to the "
            "library's path. Tried: " + ("; ".join(tried) or "nothing"))


def library_path():
    """Returns the path of the loaded libtilert (loading it if needed)."""
    _library()
    return _lib_path


def _check(code):
    if code != _SUCCESS:
        raise Error(code, _library().tilertGetLastErrorMessage().decode())


_PyCapsule_GetPointer = ctypes.pythonapi.PyCapsule_GetPointer
_PyCapsule_GetPointer.restype = ctypes.c_void_p
_PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def _float32_bits(value):
    return struct.unpack("<I", struct.pack("<f", value))[0]


def _half_bits(value):
    """The IEEE binary16 bits of ``value`` rounded (via float32) to nearest
    even, as tilert::halfFromFloat computes them."""
    try:
        bits = _float32_bits(value)
    except OverflowError:
        bits = _float32_bits(math.copysign(math.inf, value))
    sign = (bits >> 16) & 0x8000
    exp = (bits >> 23) & 0xFF
    mant = bits & 0x7FFFFF
    if exp == 0xFF:
        return sign | 0x7C00 | ((0x200 | (mant >> 13)) if mant else 0)
    if exp > 142:
        return sign | 0x7C00
    if exp >= 113:
        half = ((exp - 112) << 10) | (mant >> 13)
        rem = mant & 0x1FFF
        if rem > 0x1000 or (rem == 0x1000 and half & 1):
            half += 1
        return sign | half
    if exp < 102:
        return sign
    full = mant | 0x800000
    shift = 126 - exp
    half = full >> shift
    rem = full & ((1 << shift) - 1)
    halfway = 1 << (shift - 1)
    if rem > halfway or (rem == halfway and half & 1):
        half += 1
    return sign | half


def _bfloat16_bits(value):
    """The bfloat16 bits of ``value`` rounded (via float32) to nearest even."""
    try:
        bits = _float32_bits(value)
    except OverflowError:
        bits = _float32_bits(math.copysign(math.inf, value))
    if (bits & 0x7FFFFFFF) > 0x7F800000:
        return (bits >> 16) | 0x40
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


_INT_RANGES = {
    "i8": (-(1 << 7), (1 << 7) - 1),
    "i16": (-(1 << 15), (1 << 15) - 1),
    "i32": (-(1 << 31), (1 << 31) - 1),
    "i64": (-(1 << 63), (1 << 63) - 1),
    "u8": (0, (1 << 8) - 1),
    "u32": (0, (1 << 32) - 1),
}


def _pack_scalar(kernel_name, index, param, code, value):
    where = f"{kernel_name}: scalar '{param.name}' (index {index})"
    scalar = _Scalar()
    scalar.dtype = code
    dtype = param.dtype
    if dtype in ("f16", "bf16", "f32", "f64"):
        if not isinstance(value, numbers.Real):
            raise TypeError(f"{where} is a {dtype} but got {type(value).__name__}")
        value = float(value)
        if dtype == "f64":
            scalar.value.f64 = value
        elif dtype == "f32":
            scalar.value.f32 = value
        elif dtype == "f16":
            scalar.value.f16 = _half_bits(value)
        else:
            scalar.value.bf16 = _bfloat16_bits(value)
    elif dtype == "bool":
        if not isinstance(value, numbers.Integral) or int(value) not in (0, 1):
            raise TypeError(f"{where} is a bool but got {value!r}")
        scalar.value.boolean = int(value)
    else:
        if not isinstance(value, numbers.Integral):
            raise TypeError(f"{where} is an {dtype} but got {type(value).__name__}")
        low, high = _INT_RANGES[dtype]
        if not low <= int(value) <= high:
            raise ValueError(f"{where}: {value} does not fit in {dtype}")
        setattr(scalar.value, dtype, int(value))
    return scalar


def _stream_handle(stream, tensors):
    """The CUstream to launch on, as an integer."""
    if stream is None:
        for tensor in tensors:
            module = type(tensor).__module__
            if module.startswith("torch") and getattr(tensor, "is_cuda", False):
                torch = sys.modules["torch"]
                return torch.cuda.current_stream(tensor.device).cuda_stream
            if module.startswith("cupy"):
                return sys.modules["cupy"].cuda.get_current_stream().ptr
        return 0
    if isinstance(stream, numbers.Integral):
        return int(stream)
    for attribute in ("cuda_stream", "ptr"):
        if hasattr(stream, attribute):
            return int(getattr(stream, attribute))
    raise TypeError(f"stream must be an int, a torch.cuda.Stream or a "
                    f"cupy.cuda.Stream, not {type(stream).__name__}")


def _dltensor(kernel_name, index, name, tensor, dlpack_stream):
    """Returns (capsule, DLTensor address); keep the capsule alive while the
    address is in use."""
    if not hasattr(tensor, "__dlpack__"):
        raise TypeError(f"{kernel_name}: tensor '{name}' (index {index}) is a "
                        f"{type(tensor).__name__}, which does not support "
                        f"DLPack (__dlpack__)")
    on_cuda = False
    if hasattr(tensor, "__dlpack_device__"):
        on_cuda = tensor.__dlpack_device__()[0] == _KDLCUDA
    # On CUDA, DLPack makes the producer's work visible on the stream we name.
    capsule = (tensor.__dlpack__(stream=dlpack_stream) if on_cuda
               else tensor.__dlpack__())
    # A DLManagedTensor starts with its DLTensor.
    return capsule, _PyCapsule_GetPointer(capsule, b"dltensor")


class Kernel:
    """A kernel compiled by tilec, loaded from its metadata JSON."""

    def __init__(self, json_path):
        lib = _library()
        handle = ctypes.c_void_p()
        _check(lib.tilertKernelLoad(os.fsencode(json_path), ctypes.byref(handle)))
        self._handle = handle
        info = _KernelInfo()
        _check(lib.tilertKernelGetInfo(handle, ctypes.byref(info)))
        self.name = info.name.decode()
        self.entry = info.entry.decode()
        self.arch = info.arch.decode()
        self.json_path = info.json_path.decode()
        self.grid = tuple(expr.decode() for expr in info.grid)
        self.block = tuple(info.block)
        self.cluster = tuple(info.cluster)
        self.dynamic_smem = info.dynamic_smem
        self.tensors = []
        for i in range(info.num_tensors):
            raw = _TensorParam()
            _check(lib.tilertKernelGetTensorParam(handle, i, ctypes.byref(raw)))
            shape = [raw.dim_names[d].decode() if raw.dim_names[d] is not None
                     else raw.dim_values[d] for d in range(raw.rank)]
            self.tensors.append(TensorParam(raw.name.decode(),
                                            lib.tilertDTypeName(raw.dtype).decode(),
                                            shape, raw.alignment))
        self.dims = []
        for i in range(info.num_dims):
            name = ctypes.c_char_p()
            _check(lib.tilertKernelGetDimName(handle, i, ctypes.byref(name)))
            self.dims.append(name.value.decode())
        self.scalars = []
        self._scalar_codes = []
        for i in range(info.num_scalars):
            raw = _ScalarParam()
            _check(lib.tilertKernelGetScalarParam(handle, i, ctypes.byref(raw)))
            self.scalars.append(ScalarParam(raw.name.decode(),
                                            lib.tilertDTypeName(raw.dtype).decode()))
            self._scalar_codes.append(raw.dtype)

    def prepare(self, device=0):
        """Loads the kernel on CUDA device ``device`` now instead of at its
        first launch there."""
        _check(_library().tilertKernelPrepare(self._live_handle(), device))

    def __call__(self, *args, stream=None):
        """Launches with the tensors then the scalars, in the kernel's
        parameter order, on ``stream`` (default: the current stream of the
        tensors' framework, else the legacy default stream)."""
        handle = self._live_handle()
        num_tensors = len(self.tensors)
        if len(args) != num_tensors + len(self.scalars):
            names = ", ".join(t.name for t in self.tensors)
            scalars = ", ".join(s.name for s in self.scalars)
            raise Error(_INVALID_ARGUMENT,
                        f"{self.name} takes {num_tensors} tensors ({names}) "
                        f"and {len(self.scalars)} scalars ({scalars}) but "
                        f"{len(args)} arguments were given")
        tensors, values = args[:num_tensors], args[num_tensors:]
        stream_handle = _stream_handle(stream, tensors)
        # DLPack spells the legacy default stream 1 (0 is ambiguous).
        dlpack_stream = stream_handle if stream_handle else 1
        capsules, addresses = [], (ctypes.c_void_p * max(num_tensors, 1))()
        for i, (param, tensor) in enumerate(zip(self.tensors, tensors)):
            capsule, address = _dltensor(self.name, i, param.name, tensor,
                                         dlpack_stream)
            capsules.append(capsule)
            addresses[i] = address
        scalars = (_Scalar * max(len(values), 1))(*[
            _pack_scalar(self.name, i, param, code, value)
            for i, (param, code, value) in enumerate(
                zip(self.scalars, self._scalar_codes, values))])
        code = _library().tilertKernelLaunch(
            handle, addresses, num_tensors, scalars, len(values),
            ctypes.c_void_p(stream_handle))
        del capsules  # The launch is enqueued; the producers keep the memory.
        _check(code)

    def close(self):
        """Releases the kernel (also done when it is garbage-collected)."""
        handle, self._handle = getattr(self, "_handle", None), None
        if handle and _lib is not None:
            _lib.tilertKernelDestroy(handle)

    def _live_handle(self):
        if not self._handle:
            raise ValueError(f"kernel {self.name} is closed")
        return self._handle

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __del__(self):
        self.close()

    def __repr__(self):
        params = ", ".join(
            [f"{t.name}: {t.dtype}[{', '.join(map(str, t.shape))}]"
             for t in self.tensors] +
            [f"{s.name}: {s.dtype}" for s in self.scalars])
        return f"<tilert.Kernel {self.name}({params}) {self.arch}>"
