"""Per-kernel launch plans: what a launch does in Python, worked out once.

A ``LaunchPlan`` is built when a kernel is loaded. It owns, per thread, one
buffer laid out as tilertKernelLaunch reads its arguments: the array of
DLTensor pointers, then per tensor a DLTensor followed by its shape and
strides, then the tilertScalars. A launch fills the buffer with a few
``struct.pack_into`` calls and makes one ctypes call; the runtime validates
everything (dtype, rank, dims, contiguity, device, alignment, scalar types),
as for any caller of the C ABI.

A PyTorch CUDA tensor of a dtype DLPack spells the usual way and of the
parameter's rank is described from a few attribute reads (``data_ptr()``,
``get_device()``, ``dtype``, ``shape``, ``stride()``) when it is launched on
the current PyTorch stream (the default); anything else, or an explicit
stream other than the current one, is exported through DLPack with the
stream, so the producer's pending work is ordered before the launch.
"""

import ctypes
import math
import numbers
import struct
import sys
import threading

__all__ = ["LaunchPlan"]

_KDLCUDA = 2

# DLTensor (dlpack.h, 64-bit): data, device {type, id}, ndim, dtype {code,
# bits, lanes}, shape, strides, byte_offset.
_DLTENSOR = "QiiiBBHQQQ"
_DLTENSOR_SIZE = struct.calcsize("=" + _DLTENSOR)
# tilertScalar: the dtype (int), padding, then an 8-byte union.
_SCALAR_SIZE = 16
_POINTER = struct.Struct("=Q")

_PyCapsule_GetPointer = ctypes.pythonapi.PyCapsule_GetPointer
_PyCapsule_GetPointer.restype = ctypes.c_void_p
_PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

_INT_RANGES = {
    "i8": (-(1 << 7), (1 << 7) - 1),
    "i16": (-(1 << 15), (1 << 15) - 1),
    "i32": (-(1 << 31), (1 << 31) - 1),
    "i64": (-(1 << 63), (1 << 63) - 1),
    "u8": (0, (1 << 8) - 1),
    "u32": (0, (1 << 32) - 1),
}
# The struct code of each scalar dtype's value in the union.
_SCALAR_CODES = {"f64": "d", "f32": "f", "f16": "H", "bf16": "H", "i64": "q",
                 "i32": "i", "i16": "h", "i8": "b", "u32": "I", "u8": "B",
                 "bool": "B"}


def _float32_bits(value):
    return struct.unpack("<I", struct.pack("<f", value))[0]


def _float32_bits_saturating(value):
    try:
        return _float32_bits(value)
    except OverflowError:
        return _float32_bits(math.copysign(math.inf, value))


def half_bits(value):
    """The IEEE binary16 bits of ``value`` rounded (via float32) to nearest
    even, as tilert::halfFromFloat computes them."""
    bits = _float32_bits_saturating(value)
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


def bfloat16_bits(value):
    """The bfloat16 bits of ``value`` rounded (via float32) to nearest even."""
    bits = _float32_bits_saturating(value)
    if (bits & 0x7FFFFFFF) > 0x7F800000:
        return (bits >> 16) | 0x40
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


_FLOAT32_MAX = 3.4028234663852886e38


def _float32_value(value):
    """``value`` as a float32 rounds it in C: overflow gives an infinity."""
    if -_FLOAT32_MAX <= value <= _FLOAT32_MAX:
        return value
    try:
        struct.pack("=f", value)  # Within half an ulp of the largest float.
        return value
    except OverflowError:
        return math.copysign(math.inf, value)


def _scalar_converter(kernel_name, index, param):
    """A function from a Python number to what the union member of
    ``param``'s dtype is packed from; it raises TypeError or ValueError
    naming the scalar."""
    where = f"{kernel_name}: scalar '{param.name}' (index {index})"
    dtype = param.dtype
    if dtype in ("f16", "bf16", "f32", "f64"):
        finish = {"f16": half_bits, "bf16": bfloat16_bits,
                  "f32": _float32_value, "f64": lambda value: value}[dtype]

        def convert(value):
            kind = type(value)
            if kind is not float and kind is not int and not isinstance(
                    value, numbers.Real):
                raise TypeError(f"{where} is a {dtype} but got "
                                f"{type(value).__name__}")
            return finish(float(value))
        return convert
    if dtype == "bool":
        def convert(value):
            if not isinstance(value, numbers.Integral) or int(value) not in (
                    0, 1):
                raise TypeError(f"{where} is a bool but got {value!r}")
            return int(value)
        return convert
    low, high = _INT_RANGES[dtype]

    def convert(value):
        if type(value) is not int and not isinstance(value,
                                                     numbers.Integral):
            raise TypeError(f"{where} is an {dtype} but got "
                            f"{type(value).__name__}")
        value = int(value)
        if not low <= value <= high:
            raise ValueError(f"{where}: {value} does not fit in {dtype}")
        return value
    return convert


class _Torch:
    """What the plans need from PyTorch, looked up once it is imported."""

    tensor_type = None
    current_stream = None
    dtypes = {}

    @classmethod
    def load(cls):
        """Returns whether PyTorch is imported (and sets the fields)."""
        if cls.tensor_type is not None:
            return True
        torch = sys.modules.get("torch")
        if torch is None:
            return False
        names = {"float16": (2, 16), "bfloat16": (4, 16), "float32": (2, 32),
                 "float64": (2, 64), "int8": (0, 8), "int16": (0, 16),
                 "int32": (0, 32), "int64": (0, 64), "uint8": (1, 8),
                 "uint32": (1, 32), "bool": (6, 8)}
        cls.dtypes = {getattr(torch, name): code
                      for name, code in names.items() if hasattr(torch, name)}
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        cls.current_stream = raw if raw is not None else (
            lambda device: torch.cuda.current_stream(device).cuda_stream)
        cls.tensor_type = torch.Tensor
        return True


def stream_handle(stream, tensors):
    """The CUstream to launch on, as an integer: ``stream`` given as an int
    or a stream object, else the current stream of the first tensor's
    framework (PyTorch or CuPy), else 0 (the legacy default stream)."""
    if stream is None:
        for tensor in tensors:
            if _Torch.load() and isinstance(tensor, _Torch.tensor_type):
                if tensor.is_cuda:
                    return _Torch.current_stream(tensor.get_device())
                continue
            if type(tensor).__module__.startswith("cupy"):
                return sys.modules["cupy"].cuda.get_current_stream().ptr
        return 0
    if isinstance(stream, numbers.Integral):
        return int(stream)
    for attribute in ("cuda_stream", "ptr"):
        if hasattr(stream, attribute):
            return int(getattr(stream, attribute))
    raise TypeError(f"stream must be an int, a torch.cuda.Stream or a "
                    f"cupy.cuda.Stream, not {type(stream).__name__}")


def _export(kernel_name, index, name, tensor, dlpack_stream):
    """Returns (capsule, DLTensor address) of ``tensor`` through DLPack;
    keep the capsule alive while the address is in use."""
    if not hasattr(tensor, "__dlpack__"):
        raise TypeError(f"{kernel_name}: tensor '{name}' (index {index}) is a "
                        f"{type(tensor).__name__}, which does not support "
                        f"DLPack (__dlpack__)")
    on_cuda = False
    if hasattr(tensor, "__dlpack_device__"):
        on_cuda = tensor.__dlpack_device__()[0] == _KDLCUDA
    # On CUDA, DLPack makes the producer's work visible on the stream named.
    capsule = (tensor.__dlpack__(stream=dlpack_stream) if on_cuda
               else tensor.__dlpack__())
    # A DLManagedTensor starts with its DLTensor.
    return capsule, _PyCapsule_GetPointer(capsule, b"dltensor")


class _Buffer:
    """One thread's argument buffer of a plan, and the addresses in it."""

    def __init__(self, plan):
        self.memory = (ctypes.c_uint64 * (plan.size // 8))()
        base = ctypes.addressof(self.memory)
        self.pointers = base
        self.scalars = base + plan.scalar_offset if plan.num_scalars else None
        # Per tensor: how to fill its DLTensor, shape and strides in place,
        # and its address.
        self.tensors = []
        for offset, rank, packer in zip(plan.tensor_offsets, plan.ranks,
                                        plan.tensor_structs):
            address = base + offset
            shape = address + _DLTENSOR_SIZE
            self.tensors.append((packer.pack_into, offset, rank, shape,
                                 shape + 8 * rank, address))
        self.in_place = [entry[5] for entry in self.tensors]
        plan.pointer_struct.pack_into(self.memory, 0, *self.in_place)
        # Whether a pointer names a DLPack export instead of its DLTensor.
        self.exported = False


class LaunchPlan:
    """The launch of one kernel, worked out once (see the module's doc)."""

    def __init__(self, kernel_name, tensors, scalars, scalar_codes):
        self.kernel_name = kernel_name
        self.tensor_params = tensors
        self.scalar_params = scalars
        self.num_tensors = len(tensors)
        self.num_scalars = len(scalars)
        self.num_args = self.num_tensors + self.num_scalars
        self.ranks = [len(param.shape) for param in tensors]
        # Layout: pointers, then per tensor its DLTensor, shape and strides,
        # then the scalars.
        offset = 8 * self.num_tensors
        self.tensor_offsets = []
        self.tensor_structs = []
        for rank in self.ranks:
            self.tensor_offsets.append(offset)
            self.tensor_structs.append(
                struct.Struct("=" + _DLTENSOR + "q" * (2 * rank)))
            offset += _DLTENSOR_SIZE + 16 * rank
        self.scalar_offset = offset
        self.size = max(offset + _SCALAR_SIZE * self.num_scalars, 8)
        self.pointer_struct = struct.Struct("=" + "Q" * self.num_tensors)
        self.scalar_structs = [
            struct.Struct("=i4x" + _SCALAR_CODES[param.dtype] +
                          "x" * (8 - struct.calcsize(
                              "=" + _SCALAR_CODES[param.dtype])))
            for param in scalars]
        self.scalar_packers = list(zip(
            self.scalar_structs, scalar_codes,
            [_scalar_converter(kernel_name, i, param)
             for i, param in enumerate(scalars)]))
        self._local = threading.local()

    def _buffer(self):
        try:
            return self._local.buffer
        except AttributeError:
            self._local.buffer = _Buffer(self)
            return self._local.buffer

    def arguments(self, args, stream):
        """Fills this thread's buffer from ``args`` (the tensors, then the
        scalars; their count already checked) and returns (tensor pointer
        array address, scalar array address or None, stream handle,
        DLPack capsules to keep alive until the launch returned)."""
        buffer = self._buffer()
        memory = buffer.memory
        num_tensors = self.num_tensors
        # The attribute path: PyTorch CUDA tensors on the current stream (its
        # pending work already comes first).
        fast = False
        if num_tensors and (_Torch.tensor_type is not None or _Torch.load()):
            first = args[0]
            if type(first) is _Torch.tensor_type and first.is_cuda:
                current = _Torch.current_stream(first.get_device())
                handle = current if stream is None else stream_handle(
                    stream, ())
                fast = handle == current
        if not fast:
            handle = stream_handle(stream, args[:num_tensors])
        capsules = None
        tensor_type = _Torch.tensor_type
        dtypes = _Torch.dtypes
        for i, (pack_into, offset, rank, shape_address, strides_address,
                address) in enumerate(buffer.tensors):
            tensor = args[i]
            if fast and type(tensor) is tensor_type and tensor.is_cuda:
                shape = tensor.shape
                code = dtypes.get(tensor.dtype)
                if code is not None and len(shape) == rank:
                    pack_into(memory, offset, tensor.data_ptr(), _KDLCUDA,
                              tensor.get_device(), rank, code[0], code[1], 1,
                              shape_address, strides_address, 0, *shape,
                              *tensor.stride())
                    if buffer.exported:
                        _POINTER.pack_into(memory, 8 * i, address)
                    continue
            # DLPack spells the legacy default stream 1 (0 is ambiguous).
            capsule, exported = _export(self.kernel_name, i,
                                        self.tensor_params[i].name, tensor,
                                        handle if handle else 1)
            if capsules is None:
                capsules = []
            capsules.append(capsule)
            buffer.exported = True
            _POINTER.pack_into(memory, 8 * i, exported)
        if capsules is None:
            # Every pointer names its DLTensor in the buffer again.
            buffer.exported = False
        offset = self.scalar_offset
        for i, (packer, code, convert) in enumerate(self.scalar_packers):
            packer.pack_into(memory, offset, code,
                             convert(args[num_tensors + i]))
            offset += _SCALAR_SIZE
        return buffer.pointers, buffer.scalars, handle, capsules
