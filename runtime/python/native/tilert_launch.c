/*===- tilert_launch.c - The attribute path of tilert launches in C -------===*\
|*                                                                            *|
|* An optional CPython extension of the tilert Python module                  *|
|* (tilert/_launch_plan.py): Launcher objects do what the module's generated  *|
|* attribute path does, without the interpreter and without ctypes. For       *|
|* PyTorch CUDA tensors on the current stream, a call reads each tensor's     *|
|* attributes once, writes the stream, the DLTensors and the tilertScalars    *|
|* into the thread's launch buffer and calls tilertKernelLaunchArgs (with     *|
|* the GIL released); anything it does not describe goes to the generic path  *|
|* it was given. The runtime checks every argument, as for any caller.        *|
|*                                                                            *|
|* It needs only the Python headers: libtilert's entry point comes as an      *|
|* address from ctypes, so nothing links against the library.                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "tilert/tilert.h"

#include <float.h>
#include <math.h>
#include <string.h>

#if PY_VERSION_HEX < 0x03090000
#error "tilert_launch needs Python 3.9 or newer"
#endif

typedef tilertStatus (*LaunchFn)(const tilertLaunchArgs *);

/* A new reference to `object` (Py_NewRef is Python 3.10+). */
static PyObject *newRef(PyObject *object) {
  Py_INCREF(object);
  return object;
}

/* The attribute names read from each tensor, interned once. */
static PyObject *IsCuda, *GetDevice, *DType, *Shape, *Stride, *DataPtr;

/* One tensor parameter's place in the buffer. */
typedef struct {
  DLTensor *tensor;
  int64_t *shape;
  int64_t *strides;
  int32_t rank;
} TensorSlot;

typedef struct {
  PyObject ob_base;
  vectorcallfunc vectorcall;
  LaunchFn launch;
  /* The ctypes array that holds the buffer (kept alive). */
  PyObject *buffer;
  tilertLaunchArgs *args;
  int32_t num_tensors;
  int32_t num_scalars;
  TensorSlot *tensors;
  tilertDType *scalar_dtypes;
  /* Per scalar, the Python converter of its value (raises the errors). */
  PyObject *converters;
  PyObject *tensor_type;
  PyObject *current_stream;
  PyObject *stream_handle;
  PyObject *dtypes;
  PyObject *generic;
} Launcher;

/* Reads `object` as an unsigned 64-bit integer; -1 with an exception. */
static int toU64(PyObject *object, uint64_t *out) {
  unsigned long long Value = PyLong_AsUnsignedLongLong(object);
  if (Value == (unsigned long long)-1 && PyErr_Occurred())
    return -1;
  *out = Value;
  return 0;
}

/* Calls `name` on `object` without arguments and reads an int64 from the
   result; -1 with an exception. */
static int callForI64(PyObject *object, PyObject *name, int64_t *out) {
  PyObject *Result = PyObject_CallMethodNoArgs(object, name);
  if (!Result)
    return -1;
  long long Value = PyLong_AsLongLong(Result);
  Py_DECREF(Result);
  if (Value == -1 && PyErr_Occurred())
    return -1;
  *out = Value;
  return 0;
}

/* The same for an unsigned 64-bit result. */
static int callForU64(PyObject *object, PyObject *name, uint64_t *out) {
  PyObject *Result = PyObject_CallMethodNoArgs(object, name);
  if (!Result)
    return -1;
  int Read = toU64(Result, out);
  Py_DECREF(Result);
  return Read;
}

/* Copies `rank` integers of the tuple `tuple` into `out`; 0 if `tuple` is
   not a tuple of `rank` items, -1 with an exception, 1 when copied. */
static int copyExtents(PyObject *tuple, int32_t rank, int64_t *out) {
  if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != rank)
    return 0;
  for (int32_t D = 0; D < rank; ++D) {
    long long Value = PyLong_AsLongLong(PyTuple_GET_ITEM(tuple, D));
    if (Value == -1 && PyErr_Occurred())
      return -1;
    out[D] = Value;
  }
  return 1;
}

/* Describes tensor `index` (`object`, on device `device`) in its slot:
   1 when written, 0 when the generic path must describe it, -1 with an
   exception. */
static int fillTensor(Launcher *self, int32_t index, PyObject *object,
                      int64_t device) {
  TensorSlot *Slot = &self->tensors[index];
  PyObject *Type = PyObject_GetAttr(object, DType);
  if (!Type)
    return -1;
  PyObject *Word = PyDict_GetItemWithError(self->dtypes, Type);
  Py_DECREF(Type);
  if (!Word)
    return PyErr_Occurred() ? -1 : 0;
  uint64_t Bits;
  if (toU64(Word, &Bits) < 0)
    return -1;
  uint32_t Bits32 = (uint32_t)Bits;

  PyObject *Extents = PyObject_GetAttr(object, Shape);
  if (!Extents)
    return -1;
  int Copied = copyExtents(Extents, Slot->rank, Slot->shape);
  Py_DECREF(Extents);
  if (Copied <= 0)
    return Copied;
  PyObject *Strides = PyObject_CallMethodNoArgs(object, Stride);
  if (!Strides)
    return -1;
  Copied = copyExtents(Strides, Slot->rank, Slot->strides);
  Py_DECREF(Strides);
  if (Copied <= 0)
    return Copied;
  uint64_t Data;
  if (callForU64(object, DataPtr, &Data) < 0)
    return -1;

  DLTensor *Tensor = Slot->tensor;
  Tensor->data = (void *)(uintptr_t)Data;
  Tensor->device.device_type = kDLCUDA;
  Tensor->device.device_id = (int32_t)device;
  Tensor->ndim = Slot->rank;
  memcpy(&Tensor->dtype, &Bits32, sizeof Bits32);
  Tensor->shape = Slot->shape;
  Tensor->strides = Slot->strides;
  Tensor->byte_offset = 0;
  return 1;
}

/* Whether `value` is an exact int within [low, high], read into `*out`. */
static int exactIntIn(PyObject *value, long long low, long long high,
                      long long *out) {
  if (!PyLong_CheckExact(value))
    return 0;
  int Overflow = 0;
  long long Read = PyLong_AsLongLongAndOverflow(value, &Overflow);
  if (Overflow || (Read == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return 0;
  }
  *out = Read;
  return low <= Read && Read <= high;
}

/* Writes scalar `index` from `value`: exact floats and ints in range
   directly, anything else through its converter. 0, or -1 with an
   exception (the converter's TypeError or ValueError). */
static int fillScalar(Launcher *self, int32_t index, PyObject *value) {
  tilertScalar *Scalar = (tilertScalar *)&self->args->scalars[index];
  tilertDType Type = self->scalar_dtypes[index];
  long long Low = 0, High = 0;
  switch (Type) {
  case TILERT_DTYPE_I8:
    Low = -128, High = 127;
    break;
  case TILERT_DTYPE_I16:
    Low = -32768, High = 32767;
    break;
  case TILERT_DTYPE_I32:
    Low = -2147483647LL - 1, High = 2147483647LL;
    break;
  case TILERT_DTYPE_I64:
    Low = -9223372036854775807LL - 1, High = 9223372036854775807LL;
    break;
  case TILERT_DTYPE_U8:
    High = 255;
    break;
  case TILERT_DTYPE_U32:
    High = 4294967295LL;
    break;
  default:
    break;
  }
  double Real = 0;
  long long Integer = 0;
  int Direct = 0;
  if (Type == TILERT_DTYPE_F64 || Type == TILERT_DTYPE_F32) {
    if (PyFloat_CheckExact(value)) {
      Real = PyFloat_AS_DOUBLE(value);
      Direct = Type == TILERT_DTYPE_F64 || fabs(Real) <= FLT_MAX;
    }
  } else if (High != 0) {
    Direct = exactIntIn(value, Low, High, &Integer);
  }
  if (!Direct) {
    PyObject *Converted =
        PyObject_CallOneArg(PyTuple_GET_ITEM(self->converters, index), value);
    if (!Converted)
      return -1;
    if (Type == TILERT_DTYPE_F64 || Type == TILERT_DTYPE_F32)
      Real = PyFloat_AsDouble(Converted);
    else
      Integer = PyLong_AsLongLong(Converted);
    Py_DECREF(Converted);
    if (PyErr_Occurred())
      return -1;
  }
  Scalar->dtype = Type;
  memset(&Scalar->value, 0, sizeof Scalar->value);
  switch (Type) {
  case TILERT_DTYPE_F64:
    Scalar->value.f64 = Real;
    break;
  case TILERT_DTYPE_F32:
    Scalar->value.f32 = (float)Real;
    break;
  case TILERT_DTYPE_F16:
    Scalar->value.f16 = (uint16_t)Integer;
    break;
  case TILERT_DTYPE_BF16:
    Scalar->value.bf16 = (uint16_t)Integer;
    break;
  case TILERT_DTYPE_I8:
    Scalar->value.i8 = (int8_t)Integer;
    break;
  case TILERT_DTYPE_I16:
    Scalar->value.i16 = (int16_t)Integer;
    break;
  case TILERT_DTYPE_I32:
    Scalar->value.i32 = (int32_t)Integer;
    break;
  case TILERT_DTYPE_I64:
    Scalar->value.i64 = Integer;
    break;
  case TILERT_DTYPE_U8:
    Scalar->value.u8 = (uint8_t)Integer;
    break;
  case TILERT_DTYPE_U32:
    Scalar->value.u32 = (uint32_t)Integer;
    break;
  case TILERT_DTYPE_BOOL:
    Scalar->value.boolean = (uint8_t)Integer;
    break;
  default:
    PyErr_SetString(PyExc_SystemError, "tilert_launch: unknown scalar dtype");
    return -1;
  }
  return 0;
}

/* Fills the buffer from `args` launched on `stream`: 1 when done, 0 when
   the generic path must launch, -1 with an exception. */
static int fill(Launcher *self, PyObject *args, PyObject *stream) {
  int32_t Tensors = self->num_tensors;
  for (int32_t I = 0; I < Tensors; ++I)
    if ((PyObject *)Py_TYPE(PyTuple_GET_ITEM(args, I)) != self->tensor_type)
      return 0;
  for (int32_t I = 0; I < Tensors; ++I) {
    PyObject *Cuda = PyObject_GetAttr(PyTuple_GET_ITEM(args, I), IsCuda);
    if (!Cuda)
      return -1;
    int IsTrue = Cuda == Py_True;
    Py_DECREF(Cuda);
    if (!IsTrue)
      return 0;
  }
  PyObject *First = PyTuple_GET_ITEM(args, 0);
  int64_t Device;
  if (callForI64(First, GetDevice, &Device) < 0)
    return -1;
  PyObject *DeviceObject = PyLong_FromLongLong(Device);
  if (!DeviceObject)
    return -1;
  PyObject *Current = PyObject_CallOneArg(self->current_stream, DeviceObject);
  Py_DECREF(DeviceObject);
  if (!Current)
    return -1;
  uint64_t Handle;
  int Read = toU64(Current, &Handle);
  if (Read == 0 && stream != Py_None) {
    /* An explicit stream other than the current one: DLPack with it. */
    PyObject *Empty = PyTuple_New(0);
    PyObject *Given = Empty ? PyObject_CallFunctionObjArgs(self->stream_handle,
                                                           stream, Empty, NULL)
                            : NULL;
    Py_XDECREF(Empty);
    int Same = Given ? PyObject_RichCompareBool(Given, Current, Py_EQ) : -1;
    Py_XDECREF(Given);
    Read = Same < 0 ? -1 : Same ? 0 : 1;
  }
  Py_DECREF(Current);
  if (Read != 0)
    return Read < 0 ? -1 : 0;

  for (int32_t I = 0; I < Tensors; ++I) {
    int64_t TensorDevice = Device;
    PyObject *Tensor = PyTuple_GET_ITEM(args, I);
    if (I > 0 && callForI64(Tensor, GetDevice, &TensorDevice) < 0)
      return -1;
    int Filled = fillTensor(self, I, Tensor, TensorDevice);
    if (Filled <= 0)
      return Filled;
  }
  for (int32_t I = 0; I < self->num_scalars; ++I)
    if (fillScalar(self, I, PyTuple_GET_ITEM(args, Tensors + I)) < 0)
      return -1;
  self->args->stream = (CUstream)(uintptr_t)Handle;
  return 1;
}

static PyObject *launcherCall(PyObject *object, PyObject *const *argv,
                              size_t nargsf, PyObject *kwnames) {
  Launcher *self = (Launcher *)object;
  if (PyVectorcall_NARGS(nargsf) != 2 || kwnames) {
    PyErr_SetString(PyExc_TypeError, "a launcher takes (args, stream)");
    return NULL;
  }
  PyObject *Args = argv[0];
  if (!PyTuple_Check(Args) ||
      PyTuple_GET_SIZE(Args) != self->num_tensors + self->num_scalars) {
    PyErr_SetString(PyExc_TypeError,
                    "a launcher takes the tuple of every argument");
    return NULL;
  }
  int Filled = fill(self, Args, argv[1]);
  if (Filled < 0)
    return NULL;
  if (Filled == 0)
    return PyObject_Vectorcall(self->generic, argv, 2, NULL);
  PyThreadState *Saved = PyEval_SaveThread();
  tilertStatus Status = self->launch(self->args);
  PyEval_RestoreThread(Saved);
  return PyLong_FromLong((long)Status);
}

static int launcherTraverse(PyObject *object, visitproc visit, void *arg) {
  Launcher *self = (Launcher *)object;
  Py_VISIT(self->buffer);
  Py_VISIT(self->converters);
  Py_VISIT(self->tensor_type);
  Py_VISIT(self->current_stream);
  Py_VISIT(self->stream_handle);
  Py_VISIT(self->dtypes);
  Py_VISIT(self->generic);
  return 0;
}

static int launcherClear(PyObject *object) {
  Launcher *self = (Launcher *)object;
  Py_CLEAR(self->buffer);
  Py_CLEAR(self->converters);
  Py_CLEAR(self->tensor_type);
  Py_CLEAR(self->current_stream);
  Py_CLEAR(self->stream_handle);
  Py_CLEAR(self->dtypes);
  Py_CLEAR(self->generic);
  return 0;
}

static void launcherDealloc(PyObject *object) {
  Launcher *self = (Launcher *)object;
  PyObject_GC_UnTrack(object);
  launcherClear(object);
  PyMem_Free(self->tensors);
  PyMem_Free(self->scalar_dtypes);
  Py_TYPE(object)->tp_free(object);
}

/* Not formatted: PyVarObject_HEAD_INIT ends in a comma. */
/* clang-format off */
static PyTypeObject LauncherType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tilert._tilert_launch.Launcher",
    .tp_basicsize = sizeof(Launcher),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC |
                Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "The attribute path of one thread's launches of one kernel.",
    .tp_vectorcall_offset = offsetof(Launcher, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_traverse = launcherTraverse,
    .tp_clear = launcherClear,
    .tp_dealloc = launcherDealloc,
};
/* clang-format on */

/* Reads item `index` of the tuple `tuple` as an unsigned 64-bit integer. */
static int tupleU64(PyObject *tuple, Py_ssize_t index, uint64_t *out) {
  return toU64(PyTuple_GET_ITEM(tuple, index), out);
}

static PyObject *makeLauncher(PyObject *module, PyObject *args) {
  (void)module;
  unsigned long long LaunchAddress, BufferAddress;
  PyObject *Buffer, *Tensors, *ScalarDTypes, *Converters, *TensorType,
      *CurrentStream, *StreamHandle, *DTypes, *Generic;
  if (!PyArg_ParseTuple(args, "KOKO!O!O!OOOO!O:launcher", &LaunchAddress,
                        &Buffer, &BufferAddress, &PyTuple_Type, &Tensors,
                        &PyTuple_Type, &ScalarDTypes, &PyTuple_Type,
                        &Converters, &TensorType, &CurrentStream, &StreamHandle,
                        &PyDict_Type, &DTypes, &Generic))
    return NULL;
  Py_ssize_t NumTensors = PyTuple_GET_SIZE(Tensors);
  Py_ssize_t NumScalars = PyTuple_GET_SIZE(ScalarDTypes);
  if (NumTensors < 1 || PyTuple_GET_SIZE(Converters) != NumScalars) {
    PyErr_SetString(PyExc_ValueError,
                    "launcher: no tensors, or a converter per scalar missing");
    return NULL;
  }
  Launcher *self = PyObject_GC_New(Launcher, &LauncherType);
  if (!self)
    return NULL;
  self->vectorcall = launcherCall;
  self->launch = (LaunchFn)(uintptr_t)LaunchAddress;
  self->args = (tilertLaunchArgs *)(uintptr_t)BufferAddress;
  self->num_tensors = (int32_t)NumTensors;
  self->num_scalars = (int32_t)NumScalars;
  self->tensors = PyMem_Calloc((size_t)NumTensors, sizeof(TensorSlot));
  self->scalar_dtypes =
      PyMem_Calloc((size_t)NumScalars + 1, sizeof(tilertDType));
  self->buffer = newRef(Buffer);
  self->converters = newRef(Converters);
  self->tensor_type = newRef(TensorType);
  self->current_stream = newRef(CurrentStream);
  self->stream_handle = newRef(StreamHandle);
  self->dtypes = newRef(DTypes);
  self->generic = newRef(Generic);
  PyObject_GC_Track((PyObject *)self);
  if (!self->tensors || !self->scalar_dtypes) {
    Py_DECREF(self);
    return PyErr_NoMemory();
  }
  /* Per tensor: (DLTensor address, shape address, strides address, rank). */
  for (Py_ssize_t I = 0; I < NumTensors; ++I) {
    PyObject *Entry = PyTuple_GET_ITEM(Tensors, I);
    uint64_t Tensor, Shape, Strides, Rank;
    if (!PyTuple_Check(Entry) || PyTuple_GET_SIZE(Entry) != 4) {
      PyErr_SetString(PyExc_TypeError, "launcher: bad tensor entry");
      Py_DECREF(self);
      return NULL;
    }
    if (tupleU64(Entry, 0, &Tensor) < 0 || tupleU64(Entry, 1, &Shape) < 0 ||
        tupleU64(Entry, 2, &Strides) < 0 || tupleU64(Entry, 3, &Rank) < 0) {
      Py_DECREF(self);
      return NULL;
    }
    self->tensors[I].tensor = (DLTensor *)(uintptr_t)Tensor;
    self->tensors[I].shape = (int64_t *)(uintptr_t)Shape;
    self->tensors[I].strides = (int64_t *)(uintptr_t)Strides;
    self->tensors[I].rank = (int32_t)Rank;
  }
  for (Py_ssize_t I = 0; I < NumScalars; ++I) {
    long Type = PyLong_AsLong(PyTuple_GET_ITEM(ScalarDTypes, I));
    if (Type == -1 && PyErr_Occurred()) {
      Py_DECREF(self);
      return NULL;
    }
    self->scalar_dtypes[I] = (tilertDType)Type;
  }
  return (PyObject *)self;
}

static PyMethodDef Methods[] = {
    {"launcher", makeLauncher, METH_VARARGS,
     "launcher(launch_address, buffer, buffer_address, tensors, "
     "scalar_dtypes, converters, tensor_type, current_stream, "
     "stream_handle, dtypes, generic) -> a Launcher for one thread's "
     "buffer (tilert/_launch_plan.py)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef Module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_tilert_launch",
    .m_doc = "The attribute path of tilert launches in C (optional).",
    .m_size = -1,
    .m_methods = Methods,
};

PyMODINIT_FUNC PyInit__tilert_launch(void) {
  if (PyType_Ready(&LauncherType) < 0)
    return NULL;
  IsCuda = PyUnicode_InternFromString("is_cuda");
  GetDevice = PyUnicode_InternFromString("get_device");
  DType = PyUnicode_InternFromString("dtype");
  Shape = PyUnicode_InternFromString("shape");
  Stride = PyUnicode_InternFromString("stride");
  DataPtr = PyUnicode_InternFromString("data_ptr");
  if (!IsCuda || !GetDevice || !DType || !Shape || !Stride || !DataPtr)
    return NULL;
  return PyModule_Create(&Module);
}
