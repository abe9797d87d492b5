//===- CApi.cpp - The C ABI of tilert.h -------------------------*- C++ -*-===//
//
// Entry points of libtilert. Each one runs its work through guarded(), which
// turns the internal Status (or any escaping C++ exception) into the returned
// tilertStatus and the calling thread's last-error message, so no exception
// crosses the C boundary.
//
//===----------------------------------------------------------------------===//

#include "DType.h"
#include "KernelObject.h"
#include "Launch.h"
#include "PackageLaunch.h"
#include "PackageObject.h"
#include "Status.h"

#include <new>

using namespace tilert::detail;

namespace {

/// The calling thread's last-error message. Out of line, so a call computes
/// the thread-local address once (inlined, GCC computes it again at every
/// use).
[[gnu::noinline]] std::string &lastErrorMessage() {
  thread_local std::string Message;
  return Message;
}

void setLastError(const Status &status) noexcept {
  std::string &Message = lastErrorMessage();
  if (status.ok()) {
    Message.clear();
    return;
  }
  try {
    Message = status.message();
  } catch (...) {
    Message.clear();
  }
}

template <typename Fn> tilertStatus guarded(Fn &&work) noexcept {
  Status Result;
  try {
    Result = work();
  } catch (const std::bad_alloc &) {
    Result = Status(TILERT_ERROR_OUT_OF_MEMORY, "out of host memory");
  } catch (const std::exception &Error) {
    Result = makeError(TILERT_ERROR_INTERNAL,
                       "unexpected exception: ", Error.what());
  } catch (...) {
    Result = Status(TILERT_ERROR_INTERNAL, "unexpected exception");
  }
  setLastError(Result);
  return Result.code();
}

Status checkKernel(tilertKernel kernel) {
  if (!kernel)
    return Status(TILERT_ERROR_INVALID_ARGUMENT, "the kernel handle is NULL");
  return Status::success();
}

Status checkOut(const void *pointer, const char *name) {
  if (!pointer)
    return makeError(TILERT_ERROR_INVALID_ARGUMENT, "the output pointer '",
                     name, "' is NULL");
  return Status::success();
}

Status checkPackage(tilertPackage package) {
  if (!package)
    return Status(TILERT_ERROR_INVALID_ARGUMENT, "the package handle is NULL");
  return Status::success();
}

Status checkIndex(int32_t index, size_t count, const char *what) {
  if (index < 0 || static_cast<size_t>(index) >= count)
    return makeError(TILERT_ERROR_INVALID_ARGUMENT, what, " index ", index,
                     " is out of range [0, ", count, ")");
  return Status::success();
}

/// Fills `*param` with tensor parameter `index` of `metadata`, whose shape
/// tables are `names` and `values` (describeShapes).
Status getTensorParam(const KernelMetadata &metadata,
                      const std::vector<std::vector<const char *>> &names,
                      const std::vector<std::vector<int64_t>> &values,
                      int32_t index, tilertTensorParam *param) {
  TILERT_TRY(checkOut(param, "param"));
  TILERT_TRY(checkIndex(index, metadata.Tensors.size(), "tensor"));
  const TensorParam &Tensor = metadata.Tensors[index];
  param->name = Tensor.Name.c_str();
  param->dtype = Tensor.DType;
  param->rank = static_cast<int32_t>(Tensor.Shape.size());
  param->dim_names = names[index].data();
  param->dim_values = values[index].data();
  param->alignment = Tensor.Alignment;
  return Status::success();
}

/// Sets `*name` to dim parameter `index` of `metadata`.
Status getDimName(const KernelMetadata &metadata, int32_t index,
                  const char **name) {
  TILERT_TRY(checkOut(name, "name"));
  TILERT_TRY(checkIndex(index, metadata.Dims.size(), "dim"));
  *name = metadata.Dims[index].c_str();
  return Status::success();
}

/// Fills `*param` with scalar parameter `index` of `metadata`.
Status getScalarParam(const KernelMetadata &metadata, int32_t index,
                      tilertScalarParam *param) {
  TILERT_TRY(checkOut(param, "param"));
  TILERT_TRY(checkIndex(index, metadata.Scalars.size(), "scalar"));
  const ScalarParam &Scalar = metadata.Scalars[index];
  param->name = Scalar.Name.c_str();
  param->dtype = Scalar.DType;
  return Status::success();
}

} // namespace

extern "C" {

const char *tilertGetVersion(void) { return TILERT_VERSION; }

const char *tilertGetErrorName(tilertStatus status) {
  return statusName(status);
}

const char *tilertGetLastErrorMessage(void) {
  return lastErrorMessage().c_str();
}

const char *tilertDTypeName(tilertDType dtype) { return dtypeName(dtype); }

size_t tilertDTypeSize(tilertDType dtype) { return dtypeSize(dtype); }

tilertStatus tilertKernelLoad(const char *json_path, tilertKernel *kernel) {
  return guarded([&] {
    TILERT_TRY(checkOut(kernel, "kernel"));
    *kernel = nullptr;
    if (!json_path)
      return Status(TILERT_ERROR_INVALID_ARGUMENT, "the JSON path is NULL");
    std::unique_ptr<tilertKernel_st> Loaded;
    TILERT_TRY(loadKernel(json_path, Loaded));
    *kernel = Loaded.release();
    return Status::success();
  });
}

tilertStatus tilertKernelLoadFromMemory(const char *json, size_t json_size,
                                        const char *name,
                                        const tilertBinary *binaries,
                                        int32_t num_binaries,
                                        tilertKernel *kernel) {
  return guarded([&] {
    TILERT_TRY(checkOut(kernel, "kernel"));
    *kernel = nullptr;
    if (!json)
      return Status(TILERT_ERROR_INVALID_ARGUMENT, "the JSON is NULL");
    if (!name)
      return Status(TILERT_ERROR_INVALID_ARGUMENT, "the kernel's name is NULL");
    std::unique_ptr<tilertKernel_st> Loaded;
    TILERT_TRY(loadKernelFromMemory(std::string_view(json, json_size), name,
                                    binaries, num_binaries, Loaded));
    *kernel = Loaded.release();
    return Status::success();
  });
}

tilertStatus tilertKernelDestroy(tilertKernel kernel) {
  return guarded([&] {
    delete kernel;
    return Status::success();
  });
}

tilertStatus tilertKernelGetInfo(tilertKernel kernel, tilertKernelInfo *info) {
  return guarded([&] {
    TILERT_TRY(checkKernel(kernel));
    TILERT_TRY(checkOut(info, "info"));
    const KernelMetadata &Metadata = kernel->Metadata;
    tilertKernelInfo Info = {};
    Info.name = Metadata.Name.c_str();
    Info.entry = Metadata.Entry.c_str();
    Info.arch = Metadata.Target.Name.c_str();
    Info.json_path = Metadata.Path.c_str();
    for (size_t I = 0; I < 3; ++I) {
      Info.grid[I] = Metadata.Launch.Grid[I].text().c_str();
      Info.block[I] = Metadata.Launch.Block[I];
      Info.cluster[I] = Metadata.Launch.Cluster[I];
    }
    Info.num_tensors = static_cast<int32_t>(Metadata.Tensors.size());
    Info.num_dims = static_cast<int32_t>(Metadata.Dims.size());
    Info.num_scalars = static_cast<int32_t>(Metadata.Scalars.size());
    Info.dynamic_smem = Metadata.Launch.DynamicSmem;
    *info = Info;
    return Status::success();
  });
}

tilertStatus tilertKernelGetTensorParam(tilertKernel kernel, int32_t index,
                                        tilertTensorParam *param) {
  return guarded([&] {
    TILERT_TRY(checkKernel(kernel));
    return getTensorParam(kernel->Metadata, kernel->ShapeNames,
                          kernel->ShapeValues, index, param);
  });
}

tilertStatus tilertKernelGetDimName(tilertKernel kernel, int32_t index,
                                    const char **name) {
  return guarded([&] {
    TILERT_TRY(checkKernel(kernel));
    return getDimName(kernel->Metadata, index, name);
  });
}

tilertStatus tilertKernelGetScalarParam(tilertKernel kernel, int32_t index,
                                        tilertScalarParam *param) {
  return guarded([&] {
    TILERT_TRY(checkKernel(kernel));
    return getScalarParam(kernel->Metadata, index, param);
  });
}

tilertStatus tilertKernelPrepare(tilertKernel kernel, int32_t device) {
  return guarded([&] {
    TILERT_TRY(checkKernel(kernel));
    return prepareKernel(*kernel, device);
  });
}

tilertStatus tilertKernelLaunch(tilertKernel kernel,
                                const DLTensor *const *tensors,
                                int32_t num_tensors,
                                const tilertScalar *scalars,
                                int32_t num_scalars, CUstream stream) {
  return guarded([&] {
    TILERT_TRY(checkKernel(kernel));
    return launchKernel(*kernel, tensors, num_tensors, scalars, num_scalars,
                        stream);
  });
}

tilertStatus tilertKernelLaunchArgs(const tilertLaunchArgs *args) {
  return guarded([&] {
    if (!args)
      return Status(TILERT_ERROR_INVALID_ARGUMENT,
                    "the launch arguments are NULL");
    TILERT_TRY(checkKernel(args->kernel));
    return launchKernel(*args->kernel, args->tensors, args->num_tensors,
                        args->scalars, args->num_scalars, args->stream);
  });
}

tilertStatus tilertPackageOpen(const char *dir, tilertPackage *package) {
  return guarded([&] {
    TILERT_TRY(checkOut(package, "package"));
    *package = nullptr;
    if (!dir)
      return Status(TILERT_ERROR_INVALID_ARGUMENT,
                    "the package directory is NULL");
    std::unique_ptr<tilertPackage_st> Opened;
    TILERT_TRY(openPackage(dir, Opened));
    *package = Opened.release();
    return Status::success();
  });
}

tilertStatus tilertPackageDestroy(tilertPackage package) {
  return guarded([&] {
    delete package;
    return Status::success();
  });
}

tilertStatus tilertPackageGetInfo(tilertPackage package,
                                  tilertPackageInfo *info) {
  return guarded([&] {
    TILERT_TRY(checkPackage(package));
    TILERT_TRY(checkOut(info, "info"));
    const KernelMetadata &Signature = package->Signature;
    tilertPackageInfo Info = {};
    Info.kernel = package->Index.Kernel.c_str();
    Info.directory = package->Directory.c_str();
    Info.default_variant = package->Index.Default.c_str();
    Info.num_variants = static_cast<int32_t>(package->Variants.size());
    Info.tuned = package->Tuned ? 1 : 0;
    Info.num_tuned_shapes = static_cast<int32_t>(package->Tuning.numShapes());
    Info.num_tensors = static_cast<int32_t>(Signature.Tensors.size());
    Info.num_dims = static_cast<int32_t>(Signature.Dims.size());
    Info.num_scalars = static_cast<int32_t>(Signature.Scalars.size());
    *info = Info;
    return Status::success();
  });
}

tilertStatus tilertPackageGetTensorParam(tilertPackage package, int32_t index,
                                         tilertTensorParam *param) {
  return guarded([&] {
    TILERT_TRY(checkPackage(package));
    return getTensorParam(package->Signature, package->ShapeNames,
                          package->ShapeValues, index, param);
  });
}

tilertStatus tilertPackageGetDimName(tilertPackage package, int32_t index,
                                     const char **name) {
  return guarded([&] {
    TILERT_TRY(checkPackage(package));
    return getDimName(package->Signature, index, name);
  });
}

tilertStatus tilertPackageGetScalarParam(tilertPackage package, int32_t index,
                                         tilertScalarParam *param) {
  return guarded([&] {
    TILERT_TRY(checkPackage(package));
    return getScalarParam(package->Signature, index, param);
  });
}

tilertStatus tilertPackageSelect(tilertPackage package, int32_t device,
                                 const int64_t *dims, int32_t num_dims,
                                 tilertKernel *kernel,
                                 const char **variant_name) {
  return guarded([&] {
    TILERT_TRY(checkPackage(package));
    TILERT_TRY(checkOut(kernel, "kernel"));
    *kernel = nullptr;
    const std::vector<std::string> &Dims = package->Signature.Dims;
    if (num_dims != static_cast<int32_t>(Dims.size()))
      return makeError(TILERT_ERROR_INVALID_ARGUMENT, package->Index.Kernel,
                       " has ", Dims.size(), " dims (", joinNames(Dims),
                       ") but ", num_dims, " were given");
    if (num_dims > 0 && !dims)
      return makeError(TILERT_ERROR_INVALID_ARGUMENT, package->Index.Kernel,
                       ": the dims array is NULL");
    for (int32_t I = 0; I < num_dims; ++I)
      if (dims[I] < 0)
        return makeError(TILERT_ERROR_INVALID_ARGUMENT, package->Index.Kernel,
                         ": dim '", Dims[I], "' is negative (", dims[I], ")");
    size_t Index = 0;
    TILERT_TRY(selectVariant(*package, device, dims,
                             static_cast<size_t>(num_dims), Index));
    const PackageVariant &Variant = package->Variants[Index];
    *kernel = Variant.Kernel.get();
    if (variant_name)
      *variant_name = Variant.Info.Name.c_str();
    return Status::success();
  });
}

tilertStatus tilertPackageLaunch(tilertPackage package,
                                 const DLTensor *const *tensors,
                                 int32_t num_tensors,
                                 const tilertScalar *scalars,
                                 int32_t num_scalars, CUstream stream) {
  return guarded([&] {
    TILERT_TRY(checkPackage(package));
    return launchPackage(*package, tensors, num_tensors, scalars, num_scalars,
                         stream);
  });
}

} // extern "C"
