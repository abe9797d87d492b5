"""Python bindings for libtilert, the tilec runtime (ctypes over its C ABI).

    import tilert
    kernel = tilert.Kernel("out/vector_add.sm_90a.json")
    kernel(a, b, c)                        # PyTorch / CuPy / JAX via DLPack
    kernel(x, y, 0.5, stream=torch.cuda.current_stream())
    gemm = tilert.Package("pkg/gemm")      # a kernel package (tilec-tune)
    gemm(a, b, c)                          # the variant tuned for the shapes

Tensors are described from a few attribute reads (PyTorch CUDA tensors on
the current stream) or passed through DLPack (``__dlpack__``); scalars are
Python numbers converted to the kernel's scalar dtypes; the runtime checks
every argument (``_launch_plan.py``). Every runtime error raises
``tilert.Error`` carrying the runtime's status name and message. No build
step: the shared library is found through the ``TILERT_LIBRARY`` environment
variable, next to this package, or in the repository's ``build*/runtime``;
the optional C extension that makes PyTorch launches cheaper is built with
the library where Python's headers are installed.
"""

import collections
import ctypes
import ctypes.util
import glob
import importlib.machinery
import importlib.util
import os
import threading

from ._launch_plan import LaunchPlan

__all__ = ["Error", "Kernel", "Package", "ScalarParam", "TensorParam",
           "library_path"]

TensorParam = collections.namedtuple("TensorParam", "name dtype shape alignment")
TensorParam.__doc__ = """A tensor parameter: shape entries are dim names (str)
or constant extents (int)."""
ScalarParam = collections.namedtuple("ScalarParam", "name dtype")
ScalarParam.__doc__ = "A runtime scalar parameter."

_SUCCESS = 0
_INVALID_ARGUMENT = 1


class Error(RuntimeError):
    """A failed runtime call: ``status`` is the status name (e.g.
    "TILERT_ERROR_INVALID_ARGUMENT"), ``code`` its value, ``message`` the
    runtime's message naming the argument, field or file at fault."""

    def __init__(self, code, message):
        self.code = code
        self.status = _library().tilertGetErrorName(code).decode()
        self.message = message
        super().__init__(f"{self.status}: {message}")


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


class _PackageInfo(ctypes.Structure):
    _fields_ = [
        ("kernel", ctypes.c_char_p),
        ("directory", ctypes.c_char_p),
        ("default_variant", ctypes.c_char_p),
        ("num_variants", ctypes.c_int32),
        ("tuned", ctypes.c_int32),
        ("num_tuned_shapes", ctypes.c_int32),
        ("num_tensors", ctypes.c_int32),
        ("num_dims", ctypes.c_int32),
        ("num_scalars", ctypes.c_int32),
    ]


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
        # A LaunchPlan's buffer, passed as the ctypes array it is, without
        # argtypes: each converted argument costs a launch time.
        "tilertKernelLaunchArgs": (c.c_int, None),
        "tilertPackageOpen": (c.c_int, [c.c_char_p, c.POINTER(c.c_void_p)]),
        "tilertPackageDestroy": (c.c_int, [c.c_void_p]),
        "tilertPackageGetInfo": (
            c.c_int, [c.c_void_p, c.POINTER(_PackageInfo)]),
        "tilertPackageGetTensorParam": (
            c.c_int, [c.c_void_p, c.c_int32, c.POINTER(_TensorParam)]),
        "tilertPackageGetDimName": (
            c.c_int, [c.c_void_p, c.c_int32, c.POINTER(c.c_char_p)]),
        "tilertPackageGetScalarParam": (
            c.c_int, [c.c_void_p, c.c_int32, c.POINTER(_ScalarParam)]),
        "tilertPackageSelect": (
            c.c_int, [c.c_void_p, c.c_int32, c.POINTER(c.c_int64), c.c_int32,
                      c.POINTER(c.c_void_p), c.POINTER(c.c_char_p)]),
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


_native = None
_native_loaded = False
_native_lock = threading.Lock()


def _native_module():
    """The C extension (``_tilert_launch*.so`` for this interpreter's ABI)
    built next to the loaded library, else installed in this package, or
    None: then launches go through ctypes alone.
    ``TILERT_PYTHON_EXTENSION=0`` makes it None. Looked up once."""
    global _native, _native_loaded
    if os.environ.get("TILERT_PYTHON_EXTENSION", "1") == "0":
        return None
    folders = [os.path.dirname(os.path.abspath(library_path())),
               os.path.dirname(os.path.abspath(__file__))]
    candidates = [os.path.join(folder, "_tilert_launch" + suffix)
                  for folder in folders
                  for suffix in importlib.machinery.EXTENSION_SUFFIXES]
    with _native_lock:
        if _native_loaded:
            return _native
        _native_loaded = True
        for path in candidates:
            if not os.path.exists(path):
                continue
            spec = importlib.util.spec_from_file_location(
                "tilert._tilert_launch", path)
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
            except ImportError:
                continue
            _native = module
            break
        return _native


def library_path():
    """Returns the path of the loaded libtilert (loading it if needed)."""
    _library()
    return _lib_path


def _check(code):
    if code != _SUCCESS:
        raise Error(code, _library().tilertGetLastErrorMessage().decode())


def _parameters(lib, handle, counts, get_tensor, get_dim, get_scalar):
    """The tensor, dim and scalar parameters of a kernel or package handle
    (``counts``: their numbers), read with the given C getters, and the
    scalars' dtype codes."""
    num_tensors, num_dims, num_scalars = counts
    tensors = []
    for i in range(num_tensors):
        raw = _TensorParam()
        _check(get_tensor(handle, i, ctypes.byref(raw)))
        shape = [raw.dim_names[d].decode() if raw.dim_names[d] is not None
                 else raw.dim_values[d] for d in range(raw.rank)]
        tensors.append(TensorParam(raw.name.decode(),
                                   lib.tilertDTypeName(raw.dtype).decode(),
                                   shape, raw.alignment))
    dims = []
    for i in range(num_dims):
        name = ctypes.c_char_p()
        _check(get_dim(handle, i, ctypes.byref(name)))
        dims.append(name.value.decode())
    scalars = []
    scalar_codes = []
    for i in range(num_scalars):
        raw = _ScalarParam()
        _check(get_scalar(handle, i, ctypes.byref(raw)))
        scalars.append(ScalarParam(raw.name.decode(),
                                   lib.tilertDTypeName(raw.dtype).decode()))
        scalar_codes.append(raw.dtype)
    return tensors, dims, scalars, scalar_codes


def _wrong_arity(name, tensors, scalars, given):
    """The error of a launch of ``name`` with ``given`` arguments."""
    return Error(_INVALID_ARGUMENT,
                 f"{name} takes {len(tensors)} tensors "
                 f"({', '.join(t.name for t in tensors)}) and {len(scalars)} "
                 f"scalars ({', '.join(s.name for s in scalars)}) but "
                 f"{given} arguments were given")


class _Handle:
    """A runtime object behind a handle: usable as a context manager,
    released by ``close()`` (also when garbage-collected); ``_what()`` names
    it in the error a use after close raises."""

    def _live_handle(self):
        if not self._handle:
            raise ValueError(f"{self._what()} is closed")
        return self._handle

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __del__(self):
        self.close()


class Kernel(_Handle):
    """A kernel compiled by tilec, loaded from its metadata JSON. A variant
    of a Package (``Package.select``) is a Kernel the package owns: its
    ``variant`` is the variant's name (None for a kernel loaded from a
    JSON), and it is released with the package (its ``close()`` does
    nothing)."""

    def __init__(self, json_path):
        lib = _library()
        handle = ctypes.c_void_p()
        _check(lib.tilertKernelLoad(os.fsencode(json_path), ctypes.byref(handle)))
        self._init(handle, owned=True, variant=None)

    @classmethod
    def _borrow(cls, handle, variant):
        """A Kernel of ``handle``, which the caller owns (a package's
        variant): closing it does not destroy the handle."""
        kernel = cls.__new__(cls)
        kernel._init(ctypes.c_void_p(handle), owned=False, variant=variant)
        return kernel

    def _init(self, handle, owned, variant):
        lib = _library()
        self._handle = handle
        self._owned = owned
        self.variant = variant
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
        self.tensors, self.dims, self.scalars, scalar_codes = _parameters(
            lib, handle,
            (info.num_tensors, info.num_dims, info.num_scalars),
            lib.tilertKernelGetTensorParam, lib.tilertKernelGetDimName,
            lib.tilertKernelGetScalarParam)
        self._plan = LaunchPlan(self.name, handle.value, self.tensors,
                                self.scalars, scalar_codes,
                                lib.tilertKernelLaunchArgs, _native_module())
        # Per thread: the plan's launch function for the thread's buffer.
        self._threads = threading.local()

    def prepare(self, device=0):
        """Loads the kernel on CUDA device ``device`` now instead of at its
        first launch there."""
        _check(_library().tilertKernelPrepare(self._live_handle(), device))

    def __call__(self, *args, stream=None):
        """Launches with the tensors then the scalars, in the kernel's
        parameter order, on ``stream`` (default: the current stream of the
        tensors' framework, else the legacy default stream)."""
        self._live_handle()
        plan = self._plan
        if len(args) != plan.num_args:
            raise _wrong_arity(self.name, self.tensors, self.scalars,
                               len(args))
        try:
            launch = self._threads.launch
        except AttributeError:
            launch = plan.launcher(self._threads)
        code = launch(args, stream)
        if code != _SUCCESS:
            _check(code)

    def close(self):
        """Releases the kernel (also done when it is garbage-collected). A
        package's variant is released with its package, not here."""
        if getattr(self, "_owned", True):
            self._release()

    def _release(self):
        """Makes this object unusable, destroying the handle if it owns
        it."""
        handle, self._handle = getattr(self, "_handle", None), None
        if handle and self._owned and _lib is not None:
            _lib.tilertKernelDestroy(handle)

    def _what(self):
        return f"kernel {self.name}"

    def __repr__(self):
        params = ", ".join(
            [f"{t.name}: {t.dtype}[{', '.join(map(str, t.shape))}]"
             for t in self.tensors] +
            [f"{s.name}: {s.dtype}" for s in self.scalars])
        variant = f" variant {self.variant}" if self.variant else ""
        return f"<tilert.Kernel {self.name}({params}) {self.arch}{variant}>"


def _device_of(tensor):
    """The CUDA device ordinal of ``tensor``: ``get_device()`` (PyTorch),
    else its DLPack device, else 0."""
    get_device = getattr(tensor, "get_device", None)
    if get_device is not None:
        return max(get_device(), 0)
    dlpack_device = getattr(tensor, "__dlpack_device__", None)
    if dlpack_device is not None:
        return dlpack_device()[1]
    return 0


def _dispatch_key_function(package_name, tensors, dims):
    """Compiles ``key(args)``: (device, dims...) of a launch's arguments,
    the device of the first tensor and each dim from the shape of the first
    tensor that has it, as the runtime binds them."""
    extents = []
    for dim in dims:
        index, axis = next((i, shape.index(dim)) for i, (_, _, shape, _)
                           in enumerate(tensors) if dim in shape)
        extents.append(f"args[{index}].shape[{axis}]")
    device = "device_of(args[0])" if tensors else "0"
    source = (f"def key(args):\n"
              f"    return ({', '.join([device] + extents)},)\n")
    namespace = {"device_of": _device_of}
    exec(compile(source, f"<tilert dispatch of {package_name}>", "exec"),
         namespace)
    return namespace["key"]


class Package(_Handle):
    """A kernel package written by ``tilec-tune compile`` (a directory with
    index.json, its variants and, once benchmarked, tuning.json). Calling it
    launches the variant the runtime selects for the tensors' device and
    dims (``tilertPackageSelect``); the selection is cached per (device,
    dims) in a dict, so a repeated shape costs one lookup before the
    variant's launch."""

    def __init__(self, path):
        lib = _library()
        handle = ctypes.c_void_p()
        _check(lib.tilertPackageOpen(os.fsencode(path), ctypes.byref(handle)))
        self._handle = handle
        info = _PackageInfo()
        _check(lib.tilertPackageGetInfo(handle, ctypes.byref(info)))
        self.kernel_name = info.kernel.decode()
        self.path = info.directory.decode()
        self.default = info.default_variant.decode()
        self.tuned = bool(info.tuned)
        self.num_variants = info.num_variants
        self.num_tuned_shapes = info.num_tuned_shapes
        self.tensors, self.dims, self.scalars, _ = _parameters(
            lib, handle,
            (info.num_tensors, info.num_dims, info.num_scalars),
            lib.tilertPackageGetTensorParam, lib.tilertPackageGetDimName,
            lib.tilertPackageGetScalarParam)
        self._num_args = len(self.tensors) + len(self.scalars)
        self._key = _dispatch_key_function(self.kernel_name, self.tensors,
                                           self.dims)
        # (device, dims...) -> the variant's Kernel; variant Kernels by
        # handle, so that each variant has one launch plan.
        self._dispatch = {}
        self._variants = {}
        self._lock = threading.Lock()

    def select(self, dims, device=0):
        """The variant for ``dims`` (a dict of every dim, or a sequence in
        ``dims`` order) on CUDA device ``device``: a Kernel owned by the
        package, with the variant's name in ``.variant``."""
        if isinstance(dims, dict):
            unknown = sorted(set(dims) - set(self.dims))
            missing = [d for d in self.dims if d not in dims]
            if unknown or missing:
                raise ValueError(
                    f"{self.kernel_name}: dims must name each of "
                    f"{', '.join(self.dims)}" +
                    (f"; unknown: {', '.join(unknown)}" if unknown else "") +
                    (f"; missing: {', '.join(missing)}" if missing else ""))
            dims = [dims[d] for d in self.dims]
        return self._select(device, tuple(int(d) for d in dims))

    def _select(self, device, dims):
        lib = _library()
        values = (ctypes.c_int64 * max(len(dims), 1))(*dims)
        kernel = ctypes.c_void_p()
        name = ctypes.c_char_p()
        _check(lib.tilertPackageSelect(self._live_handle(), device, values,
                                       len(dims), ctypes.byref(kernel),
                                       ctypes.byref(name)))
        with self._lock:
            variant = self._variants.get(kernel.value)
            if variant is None:
                variant = Kernel._borrow(kernel.value, name.value.decode())
                self._variants[kernel.value] = variant
        return variant

    def __call__(self, *args, stream=None):
        """Launches the variant selected for the tensors' device and shapes
        with the tensors then the scalars, as ``Kernel.__call__`` does."""
        try:
            kernel = self._dispatch[self._key(args)]
        except KeyError:
            kernel = self._miss(args)
        except (AttributeError, IndexError, TypeError):
            # Shapes the key cannot read (a missing tensor, one without
            # ``shape`` or of another rank): the default variant's launch
            # reports the problem.
            kernel = self._default_kernel(args)
        kernel(*args, stream=stream)

    def _miss(self, args):
        key = self._key(args)
        kernel = self._select(key[0], key[1:])
        self._dispatch[key] = kernel
        return kernel

    def _default_kernel(self, args):
        self._live_handle()
        if len(args) != self._num_args:
            raise _wrong_arity(self.kernel_name, self.tensors, self.scalars,
                               len(args))
        return self._select(0, (1,) * len(self.dims))

    def close(self):
        """Releases the package and its variants (also done when it is
        garbage-collected): the Kernels select() returned are closed."""
        handle, self._handle = getattr(self, "_handle", None), None
        for variant in getattr(self, "_variants", {}).values():
            variant._release()
        if getattr(self, "_dispatch", None) is not None:
            self._dispatch.clear()
        if handle and _lib is not None:
            _lib.tilertPackageDestroy(handle)

    def _what(self):
        return f"package {self.path}"

    def __repr__(self):
        tuned = (f"tuned for {self.num_tuned_shapes} shapes" if self.tuned
                 else "not tuned")
        return (f"<tilert.Package {self.kernel_name} {self.path}: "
                f"{self.num_variants} variants, default {self.default}, "
                f"{tuned}>")
