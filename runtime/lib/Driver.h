//===- Driver.h - The CUDA driver API, loaded at run time -------*- C++ -*-===//
//
// libtilert (and the tools and tests built with it) reach the CUDA driver
// through this table instead of linking libcuda: libcuda.so.1 is opened on
// first use and every entry point is resolved with cuGetProcAddress at the
// ABI version its signature here comes from. A machine without the NVIDIA
// driver can therefore load the library, validate metadata and arguments,
// and get TILERT_ERROR_NO_DEVICE (not a loader failure) when it tries to
// reach a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_DRIVER_H
#define TILERT_LIB_DRIVER_H

#include "Status.h"

#include <cuda.h>
#include <cudaTypedefs.h>

#include <string>

namespace tilert::detail {

/// X(name, version) for every driver entry point used: `version` is the CUDA
/// version whose ABI the PFN_<name>_v<version> typedef describes.
#define TILERT_DRIVER_FUNCTIONS(X)                                             \
  X(cuInit, 2000)                                                              \
  X(cuDriverGetVersion, 2020)                                                  \
  X(cuGetErrorName, 6000)                                                      \
  X(cuGetErrorString, 6000)                                                    \
  X(cuDeviceGetCount, 2000)                                                    \
  X(cuDeviceGet, 2000)                                                         \
  X(cuDeviceGetAttribute, 2000)                                                \
  X(cuDeviceGetName, 2000)                                                     \
  X(cuDevicePrimaryCtxRetain, 7000)                                            \
  X(cuDevicePrimaryCtxRelease, 11000)                                          \
  X(cuCtxPushCurrent, 4000)                                                    \
  X(cuCtxPopCurrent, 4000)                                                     \
  X(cuCtxGetCurrent, 4000)                                                     \
  X(cuCtxSetCurrent, 4000)                                                     \
  X(cuLibraryLoadData, 12000)                                                  \
  X(cuLibraryUnload, 12000)                                                    \
  X(cuLibraryGetKernel, 12000)                                                 \
  X(cuKernelGetFunction, 12000)                                                \
  X(cuFuncSetAttribute, 9000)                                                  \
  X(cuFuncLoad, 12040)                                                         \
  X(cuLaunchKernelEx, 11060)                                                   \
  X(cuOccupancyMaxActiveClusters, 11070)                                       \
  X(cuTensorMapEncodeTiled, 12000)                                             \
  X(cuStreamGetCtx, 9020)                                                      \
  X(cuStreamCreate, 2000)                                                      \
  X(cuStreamDestroy, 4000)                                                     \
  X(cuStreamSynchronize, 2000)                                                 \
  X(cuEventCreate, 2000)                                                       \
  X(cuEventRecord, 2000)                                                       \
  X(cuEventSynchronize, 2000)                                                  \
  X(cuEventElapsedTime, 2000)                                                  \
  X(cuEventQuery, 2000)                                                        \
  X(cuEventDestroy, 4000)                                                      \
  X(cuMemAlloc, 3020)                                                          \
  X(cuMemFree, 3020)                                                           \
  X(cuMemcpyHtoD, 3020)                                                        \
  X(cuMemcpyDtoH, 3020)                                                        \
  X(cuMemcpyDtoD, 3020)                                                        \
  X(cuMemsetD8, 3020)                                                          \
  X(cuMemsetD16, 3020)                                                         \
  X(cuMemsetD32, 3020)

/// Resolved driver entry points. Members are named like the cuda.h functions
/// (cuda.h's macros map some names to their _v2 spellings; they map the
/// member names the same way, so `Api.cuMemAlloc(...)` reads naturally).
struct DriverApi {
#define TILERT_DRIVER_MEMBER(Name, Version)                                    \
  PFN_##Name##_v##Version Name = nullptr;
  TILERT_DRIVER_FUNCTIONS(TILERT_DRIVER_MEMBER)
#undef TILERT_DRIVER_MEMBER
};

/// Loads libcuda.so.1, resolves every entry point and calls cuInit(0), once
/// per process; later calls return the first outcome. Failure is
/// TILERT_ERROR_NO_DEVICE with the reason (no driver library, a driver too
/// old for the library API, or cuInit's error such as "no CUDA-capable
/// device").
Status getDriver(const DriverApi *&out);

/// Returns "NAME (description)" for `result`, e.g.
/// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
std::string describeCuResult(const DriverApi &api, CUresult result);

/// Returns TILERT_ERROR_CUDA naming the failed `call` and `result`, or
/// success for CUDA_SUCCESS.
Status checkCu(const DriverApi &api, CUresult result, const char *call);

/// Makes a context current on the calling thread for the scope's lifetime,
/// leaving the caller's own current context as it was: pushed on
/// construction and popped on destruction, unless it is current already
/// (then only cuCtxGetCurrent is called).
class ScopedContext {
public:
  /// Makes `context` current; check status() before relying on it.
  ScopedContext(const DriverApi &api, CUcontext context) : Api(api) {
    CUcontext Current = nullptr;
    if (Api.cuCtxGetCurrent(&Current) == CUDA_SUCCESS && Current == context)
      return;
    Result = Api.cuCtxPushCurrent(context);
    Pushed = Result == CUDA_SUCCESS;
  }
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;
  ~ScopedContext() {
    CUcontext Popped;
    if (Pushed)
      Api.cuCtxPopCurrent(&Popped);
  }

  /// Whether the context is current.
  Status status() const { return checkCu(Api, Result, "cuCtxPushCurrent"); }

private:
  const DriverApi &Api;
  CUresult Result = CUDA_SUCCESS;
  bool Pushed = false;
};

} // namespace tilert::detail

#endif // TILERT_LIB_DRIVER_H
