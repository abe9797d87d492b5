"""Per-kernel launch plans: what a launch does in Python, worked out once.

A ``LaunchPlan`` is built when a kernel is loaded. It owns, per thread, one
buffer laid out as tilertKernelLaunchArgs reads its arguments: a
tilertLaunchArgs, then per tensor a DLTensor followed by its shape and
strides, then the tilertScalars, then the array of DLTensor pointers. The
kernel handle, the counts and the addresses are written once; a launch
writes the stream, the tensors and the scalars and makes one ctypes call
with one argument. The runtime validates everything (dtype, rank, dims,
contiguity, device, alignment, scalar types), as for any caller of the C
ABI: nothing of one launch is assumed for the next.

PyTorch CUDA tensors of a dtype DLPack spells the usual way and of the
parameters' ranks, launched on the current PyTorch stream (the default),
take the attribute path: ``data_ptr()``, ``get_device()``, ``dtype``,
``shape`` and ``stride()`` are read once per tensor, by the C extension's
Launcher (native/tilert_launch.c) where it was built, else by a function
written out for the kernel's ranks and scalars that packs the buffer in one
``pack_into``. Anything else takes the generic path: tensors exported
through DLPack with the stream (so the producer's pending work is ordered
before the launch), mixed with attribute-described PyTorch tensors.
"""

import ctypes
import math
import numbers
import struct
import sys

__all__ = ["LaunchPlan"]

_KDLCUDA = 2

# tilertLaunchArgs (tilert.h): kernel, tensors, num_tensors, num_scalars,
# scalars, stream.
_LAUNCH_ARGS = struct.Struct("=QQiiQQ")
_STREAM_OFFSET = 32
# DLTensor (dlpack.h, 64-bit): data, device {type, id}, ndim, dtype {code,
# bits, lanes} (written as one 32-bit word), shape, strides, byte_offset.
_DLTENSOR = "QiiiIQQQ"
_DLTENSOR_SIZE = struct.calcsize("=" + _DLTENSOR)
# tilertScalar: the dtype (int), padding, then an 8-byte union.
_SCALAR_SIZE = 16
_POINTER = struct.Struct("=Q")


def _dtype_word(code, bits):
    """The DLDataType {code, bits, lanes = 1} as one native 32-bit word."""
    return struct.unpack("=I", bytes((code, bits, 1, 0)))[0]


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
        cls.dtypes = {getattr(torch, name): _dtype_word(*code)
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
    """One thread's argument buffer of a plan, laid out as in the module's
    doc, with the fields that never change filled in."""

    def __init__(self, plan):
        self.memory = (ctypes.c_uint64 * (plan.size // 8))()
        base = ctypes.addressof(self.memory)
        # Per tensor: the address of its DLTensor, shape and strides.
        self.tensors = []
        for offset, rank in zip(plan.tensor_offsets, plan.ranks):
            shape = base + offset + _DLTENSOR_SIZE
            self.tensors.append((base + offset, shape, shape + 8 * rank))
        self.in_place = [entry[0] for entry in self.tensors]
        self.pointer_struct = plan.pointer_struct
        self.pointer_offset = plan.pointer_offset
        pointers = base + plan.pointer_offset
        _LAUNCH_ARGS.pack_into(
            self.memory, 0, plan.handle, pointers if plan.num_tensors else 0,
            plan.num_tensors, plan.num_scalars,
            base + plan.scalar_offset if plan.num_scalars else 0, 0)
        self.restore_pointers()

    def restore_pointers(self):
        """Points every tensor pointer at its DLTensor in the buffer (again,
        after a launch with DLPack exports)."""
        self.pointer_struct.pack_into(self.memory, self.pointer_offset,
                                      *self.in_place)


class LaunchPlan:
    """The launch of one kernel, worked out once (see the module's doc)."""

    def __init__(self, kernel_name, handle, tensors, scalars, scalar_codes,
                 launch, native=None):
        self.kernel_name = kernel_name
        self.handle = handle
        self.tensor_params = tensors
        self.scalar_params = scalars
        self.num_tensors = len(tensors)
        self.num_scalars = len(scalars)
        self.num_args = self.num_tensors + self.num_scalars
        self.ranks = [len(param.shape) for param in tensors]
        self._launch = launch
        # The C extension's module (tilert_launch.c), if it was built.
        self._native = native if tensors else None
        # Layout: tilertLaunchArgs, per tensor its DLTensor, shape and
        # strides, the scalars, the tensor pointers.
        offset = _LAUNCH_ARGS.size
        self.tensor_offsets = []
        self.tensor_structs = []
        for rank in self.ranks:
            self.tensor_offsets.append(offset)
            self.tensor_structs.append(
                struct.Struct("=" + _DLTENSOR + "q" * (2 * rank)))
            offset += _DLTENSOR_SIZE + 16 * rank
        self.scalar_offset = offset
        offset += _SCALAR_SIZE * self.num_scalars
        self.pointer_offset = offset
        self.size = offset + 8 * self.num_tensors
        self.pointer_struct = struct.Struct("=" + "Q" * self.num_tensors)
        scalar_formats = [
            "i4x" + _SCALAR_CODES[param.dtype] + "x" * (
                8 - struct.calcsize("=" + _SCALAR_CODES[param.dtype]))
            for param in scalars]
        self.converters = [_scalar_converter(kernel_name, i, param)
                           for i, param in enumerate(scalars)]
        self.scalar_packers = [
            (struct.Struct("=" + fmt), code, convert) for fmt, code, convert
            in zip(scalar_formats, scalar_codes, self.converters)]
        self.scalar_codes = scalar_codes
        # What the attribute path writes, from the stream on, in one call.
        self.fast_struct = struct.Struct(
            "=Q" + "".join(_DLTENSOR + "q" * (2 * rank)
                           for rank in self.ranks) + "".join(scalar_formats))
        self._fast_factory = _fast_factory(self) if self.num_tensors else None

    def launcher(self, store):
        """Makes the calling thread's launch function, sets it as
        ``store.launch`` (and its buffer as ``store.buffer``) and returns it:
        ``launch(args, stream)`` fills the thread's buffer from ``args`` (the
        tensors, then the scalars; their count checked) and returns the
        status of tilertKernelLaunchArgs. The attribute path is the C
        extension's Launcher where it was built, else a function written
        out for the kernel (_fast_factory)."""
        buffer = _Buffer(self)

        def generic(args, stream):
            return self._launch_generic(buffer, args, stream)

        if self._fast_factory is None:
            launch = generic
        elif self._native is not None and _Torch.load():
            base = ctypes.addressof(buffer.memory)
            launch = self._native.launcher(
                ctypes.cast(self._launch, ctypes.c_void_p).value,
                buffer.memory, base,
                tuple(entry + (rank,) for entry, rank in zip(buffer.tensors,
                                                             self.ranks)),
                tuple(self.scalar_codes), tuple(self.converters),
                _Torch.tensor_type, _Torch.current_stream, stream_handle,
                _Torch.dtypes, generic)
        elif _Torch.load():
            constants = []
            for _, shape, strides in buffer.tensors:
                constants += [shape, strides]
            launch = self._fast_factory(
                buffer.memory, self._launch, generic, _Torch.tensor_type,
                _Torch.current_stream, stream_handle, _Torch.dtypes,
                self.fast_struct.pack_into, *constants, *self.converters)
        else:
            def launch(args, stream):
                # PyTorch may be imported later: then its attribute path.
                if _Torch.load():
                    return self.launcher(store)(args, stream)
                return generic(args, stream)
        store.launch = launch
        store.buffer = buffer
        return launch

    def _launch_generic(self, buffer, args, stream):
        """Any arguments: each PyTorch CUDA tensor on the current stream is
        described from its attributes, any other tensor through DLPack."""
        memory = buffer.memory
        num_tensors = self.num_tensors
        # PyTorch CUDA tensors on the current stream (its pending work
        # already comes first) are described from their attributes.
        fast = False
        if num_tensors and _Torch.load():
            first = args[0]
            if type(first) is _Torch.tensor_type and first.is_cuda:
                current = _Torch.current_stream(first.get_device())
                handle = current if stream is None else stream_handle(
                    stream, ())
                fast = handle == current
        if not fast:
            handle = stream_handle(stream, args[:num_tensors])
        capsules = []
        tensor_type = _Torch.tensor_type
        dtypes = _Torch.dtypes
        try:
            for i, (pack, offset, rank, (_, shape_address,
                                         strides_address)) in enumerate(zip(
                    self.tensor_structs, self.tensor_offsets, self.ranks,
                    buffer.tensors)):
                tensor = args[i]
                if fast and type(tensor) is tensor_type and tensor.is_cuda:
                    shape = tensor.shape
                    word = dtypes.get(tensor.dtype)
                    if word is not None and len(shape) == rank:
                        pack.pack_into(memory, offset, tensor.data_ptr(),
                                       _KDLCUDA, tensor.get_device(), rank,
                                       word, shape_address, strides_address,
                                       0, *shape, *tensor.stride())
                        continue
                # DLPack spells the legacy default stream 1 (0 is
                # ambiguous).
                capsule, exported = _export(self.kernel_name, i,
                                            self.tensor_params[i].name,
                                            tensor, handle if handle else 1)
                capsules.append(capsule)
                _POINTER.pack_into(memory, self.pointer_offset + 8 * i,
                                   exported)
            offset = self.scalar_offset
            for i, (packer, code, convert) in enumerate(self.scalar_packers):
                packer.pack_into(memory, offset, code,
                                 convert(args[num_tensors + i]))
                offset += _SCALAR_SIZE
            _POINTER.pack_into(memory, _STREAM_OFFSET, handle)
            # The launch is enqueued when it returns; the producers keep the
            # memory of the exports alive.
            return self._launch(memory)
        finally:
            if capsules:
                buffer.restore_pointers()


def _fast_factory(plan):
    """Compiles the attribute path of ``plan``'s kernel: a function that
    returns a thread's launch function for its buffer. Written out for the
    kernel's tensor ranks and scalars, so that a launch of PyTorch CUDA
    tensors on the current stream reads each attribute once, packs the
    buffer in one call and makes one foreign call; any other argument goes
    to the generic path, which handles everything."""
    tensors = [f"a{i}" for i in range(plan.num_tensors)]
    scalars = [f"s{i}" for i in range(plan.num_scalars)]
    constants = []
    for i in range(plan.num_tensors):
        constants += [f"shape{i}", f"strides{i}"]
    converters = [f"convert{i}" for i in range(plan.num_scalars)]
    lines = [
        "def make(memory, launch_args, generic, Tensor, current_stream, "
        "stream_handle, dtypes, pack, " +
        ", ".join(constants + converters) + "):",
        "    def launch(args, stream):",
        f"        {', '.join(tensors + scalars)}, = args",
        "        if not (" + " and ".join(
            f"type({a}) is Tensor" for a in tensors) + " and " + " and ".join(
            f"{a}.is_cuda" for a in tensors) + "):",
        "            return generic(args, stream)",
        "        d0 = a0.get_device()",
        "        h = current_stream(d0)",
        "        if stream is not None and stream_handle(stream, ()) != h:",
        "            return generic(args, stream)",
    ]
    for i, a in enumerate(tensors):
        lines.append(f"        w{i} = dtypes.get({a}.dtype)")
    lines += [
        "        if " + " or ".join(f"w{i} is None"
                                    for i in range(len(tensors))) + ":",
        "            return generic(args, stream)",
        "        try:",
    ]
    values = ["h"]
    for i, (a, rank) in enumerate(zip(tensors, plan.ranks)):
        if rank:
            extents = [f"z{i}_{d}" for d in range(rank)]
            strides = [f"y{i}_{d}" for d in range(rank)]
            lines.append(f"            {', '.join(extents)}, = {a}.shape")
            lines.append(f"            {', '.join(strides)}, = {a}.stride()")
        else:
            extents = strides = []
            lines.append(f"            if {a}.shape:")
            lines.append("                return generic(args, stream)")
        device = "d0" if i == 0 else f"{a}.get_device()"
        values += [f"{a}.data_ptr()", str(_KDLCUDA), device, str(rank),
                   f"w{i}", f"shape{i}", f"strides{i}", "0"]
        values += extents + strides
    lines += [
        "        except ValueError:",
        "            return generic(args, stream)",
    ]
    for i, (s, param, code) in enumerate(zip(scalars, plan.scalar_params,
                                             plan.scalar_codes)):
        lines.append(f"        v{i} = {_fast_scalar(s, param.dtype, i)}")
        values += [str(code), f"v{i}"]
    lines += [
        f"        pack(memory, {_STREAM_OFFSET}, {', '.join(values)})",
        "        return launch_args(memory)",
        "    return launch",
    ]
    namespace = {}
    exec(compile("\n".join(lines) + "\n",
                 f"<tilert launch plan of {plan.kernel_name}>", "exec"),
         namespace)
    return namespace["make"]


def _fast_scalar(name, dtype, index):
    """The expression of the attribute path that converts scalar ``name``:
    the common exact types inline, everything else through its converter
    (which raises the errors)."""
    convert = f"convert{index}({name})"
    if dtype == "f64":
        return f"{name} if type({name}) is float else {convert}"
    if dtype == "f32":
        return (f"{name} if type({name}) is float and "
                f"{-_FLOAT32_MAX!r} <= {name} <= {_FLOAT32_MAX!r} "
                f"else {convert}")
    if dtype in _INT_RANGES:
        low, high = _INT_RANGES[dtype]
        return (f"{name} if type({name}) is int and {low} <= {name} <= "
                f"{high} else {convert}")
    return convert
