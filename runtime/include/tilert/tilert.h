/*===- tilert.h - C ABI of the tilec runtime ----------------------*- C -*-===*\
|*                                                                            *|
|* libtilert loads kernels compiled by tilec (JSON metadata, docs/metadata.md,*|
|* plus a cubin or PTX) and launches them through the CUDA driver API after   *|
|* checking every argument against the metadata. Tensors are DLPack          *|
|* DLTensors, so PyTorch, CuPy and JAX buffers can be passed directly.        *|
|*                                                                            *|
|* Every function that can fail returns a tilertStatus; the message of the    *|
|* most recent call on the calling thread is tilertGetLastErrorMessage(). The *|
|* library never prints, exits or aborts. See docs/runtime.md.                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILERT_TILERT_H
#define TILERT_TILERT_H

#include <cuda.h>
#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define TILERT_API __declspec(dllexport)
#else
#define TILERT_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Result of every fallible tilert call. The numeric values are stable.
typedef enum tilertStatus {
  /// The call succeeded.
  TILERT_SUCCESS = 0,
  /// A launch argument or API parameter does not match what the kernel or the
  /// call expects (count, dtype, rank, dims, contiguity, alignment, NULL, ...).
  TILERT_ERROR_INVALID_ARGUMENT = 1,
  /// The metadata JSON is corrupt, truncated, of an unknown schema version, or
  /// has a missing or mistyped field.
  TILERT_ERROR_METADATA = 2,
  /// A file (the JSON or a binary it names) cannot be opened or read.
  TILERT_ERROR_IO = 3,
  /// A binary's sha256 differs from the digest recorded in the metadata.
  TILERT_ERROR_CHECKSUM = 4,
  /// No CUDA driver could be loaded or initialized, or there is no device.
  TILERT_ERROR_NO_DEVICE = 5,
  /// None of the kernel's binaries can run on the device.
  TILERT_ERROR_ARCH_MISMATCH = 6,
  /// The driver failed to JIT-compile the kernel's PTX; the message holds the
  /// JIT error log.
  TILERT_ERROR_JIT = 7,
  /// The kernel needs something the device does not offer (shared memory,
  /// thread-block clusters, block size).
  TILERT_ERROR_UNSUPPORTED = 8,
  /// A CUDA driver call failed; the message names the call and the CUresult.
  TILERT_ERROR_CUDA = 9,
  /// A host allocation failed.
  TILERT_ERROR_OUT_OF_MEMORY = 10,
  /// An internal invariant was violated (a bug in libtilert).
  TILERT_ERROR_INTERNAL = 11,
  /// Not a status: makes the enum 32 bits wide, so any value is safe to pass.
  TILERT_STATUS_MAX_ENUM = 0x7fffffff
} tilertStatus;

/// Element types of tensor and scalar parameters (metadata `dtype` strings).
typedef enum tilertDType {
  TILERT_DTYPE_INVALID = 0,
  TILERT_DTYPE_F16 = 1,
  TILERT_DTYPE_BF16 = 2,
  TILERT_DTYPE_F32 = 3,
  TILERT_DTYPE_F64 = 4,
  TILERT_DTYPE_I8 = 5,
  TILERT_DTYPE_I16 = 6,
  TILERT_DTYPE_I32 = 7,
  TILERT_DTYPE_I64 = 8,
  TILERT_DTYPE_U8 = 9,
  TILERT_DTYPE_U32 = 10,
  TILERT_DTYPE_BOOL = 11,
  /// Not a dtype: makes the enum 32 bits wide, so any value is safe to pass.
  TILERT_DTYPE_MAX_ENUM = 0x7fffffff
} tilertDType;

/// A runtime scalar argument: `dtype` selects the member of `value` that is
/// read. f16 and bf16 scalars are given as their raw 16-bit patterns; a bool
/// is 0 or 1.
typedef struct tilertScalar {
  /// Element type; must equal the kernel's scalar dtype exactly.
  tilertDType dtype;
  /// The value, in the member named after `dtype`.
  union {
    double f64;
    float f32;
    int64_t i64;
    int32_t i32;
    int16_t i16;
    int8_t i8;
    uint32_t u32;
    uint8_t u8;
    uint8_t boolean;
    uint16_t f16;
    uint16_t bf16;
  } value;
} tilertScalar;

/// Opaque handle to a loaded kernel. Thread-safe: any number of threads may
/// launch the same kernel concurrently.
typedef struct tilertKernel_st *tilertKernel;

/// Summary of a loaded kernel. Strings are owned by the kernel and valid until
/// tilertKernelDestroy.
typedef struct tilertKernelInfo {
  /// Kernel name in the .tile source.
  const char *name;
  /// Entry symbol in the binary.
  const char *entry;
  /// Target architecture, e.g. "sm_90a".
  const char *arch;
  /// Path of the metadata JSON as given to tilertKernelLoad.
  const char *json_path;
  /// Grid extents as integer expressions over the dims.
  const char *grid[3];
  /// Number of tensor, dim and scalar parameters.
  int32_t num_tensors;
  int32_t num_dims;
  int32_t num_scalars;
  /// Threads per block.
  uint32_t block[3];
  /// Thread-block cluster dims ({1, 1, 1} without clusters).
  uint32_t cluster[3];
  /// Dynamic shared memory per block, bytes.
  uint32_t dynamic_smem;
} tilertKernelInfo;

/// A tensor parameter. Arrays hold `rank` entries and are owned by the kernel.
typedef struct tilertTensorParam {
  /// Parameter name.
  const char *name;
  /// Element type the tensor must have.
  tilertDType dtype;
  /// Number of dimensions the tensor must have.
  int32_t rank;
  /// Per dimension: the dim name, or NULL where the extent is a constant.
  const char *const *dim_names;
  /// Per dimension: the constant extent, or -1 where it is a named dim.
  const int64_t *dim_values;
  /// Byte alignment the kernel assumes for the tensor's address.
  int64_t alignment;
} tilertTensorParam;

/// A runtime scalar parameter. `name` is owned by the kernel.
typedef struct tilertScalarParam {
  /// Parameter name.
  const char *name;
  /// Element type the scalar must have.
  tilertDType dtype;
} tilertScalarParam;

/// Returns the library version, "MAJOR.MINOR.PATCH".
TILERT_API const char *tilertGetVersion(void);

/// Returns the enumerator name of `status` ("TILERT_ERROR_METADATA"), or
/// "TILERT_ERROR_UNKNOWN" for a value outside the enum.
TILERT_API const char *tilertGetErrorName(tilertStatus status);

/// Returns the message of the most recent status-returning tilert call made on
/// the calling thread: "" after a success. Valid until the next such call on
/// this thread.
TILERT_API const char *tilertGetLastErrorMessage(void);

/// Returns the metadata spelling of `dtype` ("f32"), or NULL if invalid.
TILERT_API const char *tilertDTypeName(tilertDType dtype);

/// Returns the size in bytes of one element of `dtype`, or 0 if invalid.
TILERT_API size_t tilertDTypeSize(tilertDType dtype);

/// Loads the metadata JSON at `json_path`, validates it completely, reads every
/// binary it names and verifies their sha256. Nothing is loaded on a GPU yet:
/// that happens on the first launch (or tilertKernelPrepare) per device.
/// On success `*kernel` receives a handle to release with tilertKernelDestroy.
TILERT_API tilertStatus tilertKernelLoad(const char *json_path,
                                         tilertKernel *kernel);

/// One binary of a kernel given in memory (tilertKernelLoadFromMemory).
typedef struct tilertBinary {
  /// The binary's bytes (a cubin, a fatbin, or PTX text with or without a
  /// terminating NUL).
  const void *data;
  /// The number of bytes at `data`.
  size_t size;
} tilertBinary;

/// Loads a kernel from memory: `json` (`json_size` bytes) is its metadata
/// and `binaries` (`num_binaries` entries) the bytes of the binaries it
/// names, in the order of its `binaries` array; the metadata is validated
/// completely and every binary's sha256 verified, as by tilertKernelLoad,
/// and no file is read. `name` stands for the JSON's path in messages and
/// in tilertKernelInfo::json_path (e.g. "vector_add.sm_90a.json"). The
/// kernel keeps copies: the buffers may be released after the call.
TILERT_API tilertStatus tilertKernelLoadFromMemory(
    const char *json, size_t json_size, const char *name,
    const tilertBinary *binaries, int32_t num_binaries, tilertKernel *kernel);

/// Releases `kernel` and everything it loaded on any device. NULL is a no-op.
/// Must not race with launches of the same kernel.
TILERT_API tilertStatus tilertKernelDestroy(tilertKernel kernel);

/// Fills `*info` with the kernel's summary.
TILERT_API tilertStatus tilertKernelGetInfo(tilertKernel kernel,
                                            tilertKernelInfo *info);

/// Fills `*param` with tensor parameter `index` (ABI order).
TILERT_API tilertStatus tilertKernelGetTensorParam(tilertKernel kernel,
                                                   int32_t index,
                                                   tilertTensorParam *param);

/// Sets `*name` to the name of dim parameter `index` (ABI order).
TILERT_API tilertStatus tilertKernelGetDimName(tilertKernel kernel,
                                               int32_t index,
                                               const char **name);

/// Fills `*param` with scalar parameter `index` (ABI order).
TILERT_API tilertStatus tilertKernelGetScalarParam(tilertKernel kernel,
                                                   int32_t index,
                                                   tilertScalarParam *param);

/// Loads the kernel on CUDA device ordinal `device` now (checking the device's
/// compute capability against the binaries, JIT-compiling PTX if needed)
/// instead of on its first launch there.
TILERT_API tilertStatus tilertKernelPrepare(tilertKernel kernel,
                                            int32_t device);

/// Validates the arguments against the metadata and launches the kernel on
/// `stream` (NULL: the legacy default stream) of the device that holds the
/// tensors. `tensors` are the tensor parameters in ABI order, `scalars` the
/// scalar parameters; dims are taken from the tensor shapes. On any error
/// nothing is launched. A grid with a zero extent launches nothing and
/// succeeds. `stream` must belong to the device's primary context.
TILERT_API tilertStatus tilertKernelLaunch(
    tilertKernel kernel, const DLTensor *const *tensors, int32_t num_tensors,
    const tilertScalar *scalars, int32_t num_scalars, CUstream stream);

/// The arguments of tilertKernelLaunch in one struct (tilertKernelLaunchArgs),
/// for callers that marshal each argument of a foreign call at a cost (such
/// as Python's ctypes): they fill it once and change only what changes.
typedef struct tilertLaunchArgs {
  tilertKernel kernel;
  const DLTensor *const *tensors;
  int32_t num_tensors;
  int32_t num_scalars;
  const tilertScalar *scalars;
  CUstream stream;
} tilertLaunchArgs;

/// tilertKernelLaunch(args->kernel, args->tensors, args->num_tensors,
/// args->scalars, args->num_scalars, args->stream): the same checks, launch
/// and errors. `args` NULL is TILERT_ERROR_INVALID_ARGUMENT.
TILERT_API tilertStatus tilertKernelLaunchArgs(const tilertLaunchArgs *args);

/*===------------------------------------------------------------------===*\
|* Kernel packages and dispatch                                           *|
|*                                                                        *|
|* A kernel package is a directory `tilec-tune compile` writes: index.json *|
|* (schema tilec.package/1) and every variant's metadata and cubin, plus   *|
|* tuning.json (schema tilec.tuning/1) once it has been benchmarked. A     *|
|* package launches like one kernel: each launch dispatches to the variant *|
|* selected for the tensors' device and dims. See docs/runtime.md.         *|
\*===------------------------------------------------------------------===*/

/// Opaque handle to an open kernel package. Thread-safe like a kernel: any
/// number of threads may select and launch concurrently.
typedef struct tilertPackage_st *tilertPackage;

/// Summary of an open package. Strings are owned by the package and valid
/// until tilertPackageDestroy.
typedef struct tilertPackageInfo {
  /// Kernel name (index.json `kernel`).
  const char *kernel;
  /// The package's directory as given to tilertPackageOpen.
  const char *directory;
  /// Name of the default variant (index.json `default`).
  const char *default_variant;
  /// Number of variants (one per name and architecture).
  int32_t num_variants;
  /// 1 if the package has a tuning database (tuning.json), else 0.
  int32_t tuned;
  /// Number of tuned shapes over all devices of the tuning database.
  int32_t num_tuned_shapes;
  /// Number of tensor, dim and scalar parameters of the launch signature
  /// every variant shares.
  int32_t num_tensors;
  int32_t num_dims;
  int32_t num_scalars;
} tilertPackageInfo;

/// Opens the kernel package in directory `dir`: reads and validates
/// index.json and every variant's metadata JSON, which must all share the
/// kernel's launch signature (tensors: name, dtype, shape; dims in order;
/// scalars: name, dtype), and tuning.json if it is there. A variant's
/// binaries are read and verified at its first selection. Errors name the
/// file, the field and the variant at fault. On success `*package`
/// receives a handle to release with tilertPackageDestroy.
TILERT_API tilertStatus tilertPackageOpen(const char *dir,
                                          tilertPackage *package);

/// Releases `package` with every variant kernel it loaded (and every
/// handle tilertPackageSelect returned). NULL is a no-op. Must not race
/// with selections or launches of the same package.
TILERT_API tilertStatus tilertPackageDestroy(tilertPackage package);

/// Fills `*info` with the package's summary.
TILERT_API tilertStatus tilertPackageGetInfo(tilertPackage package,
                                             tilertPackageInfo *info);

/// Fills `*param` with tensor parameter `index` (ABI order) of the
/// package's launch signature (the alignment is the smallest over the
/// variants).
TILERT_API tilertStatus tilertPackageGetTensorParam(tilertPackage package,
                                                    int32_t index,
                                                    tilertTensorParam *param);

/// Sets `*name` to the name of dim parameter `index` of the package's launch
/// signature: the order of the dims tilertPackageSelect takes.
TILERT_API tilertStatus tilertPackageGetDimName(tilertPackage package,
                                                int32_t index,
                                                const char **name);

/// Fills `*param` with scalar parameter `index` of the package's launch
/// signature.
TILERT_API tilertStatus tilertPackageGetScalarParam(tilertPackage package,
                                                    int32_t index,
                                                    tilertScalarParam *param);

/// Selects the variant for CUDA device ordinal `device` and `dims`
/// (`num_dims` values >= 0 in the order of tilertPackageGetDimName). On a
/// device whose name (cuDeviceGetName) has an entry in the tuning database:
/// the tuned shape whose dims equal `dims`, else the nearest one by the sum
/// over dims of |log2(d) - log2(t)| (the first in file order among equals),
/// and that shape's best variant if it can run on the device. Otherwise
/// (no tuning database, no entry for the name, a best variant that cannot
/// run there) the first variant in index order named `default` whose
/// binary can run on the device; none is TILERT_ERROR_ARCH_MISMATCH. The
/// selection is cached per (device, dims). `*kernel` receives the variant's
/// kernel, owned by the package (valid until tilertPackageDestroy; do not
/// destroy it), and `*variant_name`, unless `variant_name` is NULL, its
/// name (owned by the package).
TILERT_API tilertStatus tilertPackageSelect(tilertPackage package,
                                            int32_t device, const int64_t *dims,
                                            int32_t num_dims,
                                            tilertKernel *kernel,
                                            const char **variant_name);

/// Launches the package: binds the arguments as tilertKernelLaunch does
/// (the same checks and messages, against the launch signature), selects
/// the variant for the tensors' device and dims as tilertPackageSelect
/// does, and launches it with tilertKernelLaunch's checks of that variant.
/// A repeated (device, dims) costs one cache lookup over
/// tilertKernelLaunch. On any error nothing is launched.
TILERT_API tilertStatus tilertPackageLaunch(
    tilertPackage package, const DLTensor *const *tensors, int32_t num_tensors,
    const tilertScalar *scalars, int32_t num_scalars, CUstream stream);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TILERT_TILERT_H */
