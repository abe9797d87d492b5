//===- Driver.cpp - The CUDA driver API, loaded at run time -----*- C++ -*-===//

#include "Driver.h"

#include <mutex>

#include <dlfcn.h>

namespace tilert::detail {

namespace {

/// The library name the NVIDIA driver installs (the link stub is libcuda.so).
constexpr const char *DriverLibrary = "libcuda.so.1";

using GetProcAddressFn = CUresult (*)(const char *, void **, int, cuuint64_t,
                                      CUdriverProcAddressQueryResult *);

Status loadDriver(DriverApi &api) {
  void *Library = ::dlopen(DriverLibrary, RTLD_NOW | RTLD_LOCAL);
  if (!Library) {
    const char *Reason = ::dlerror();
    return makeError(TILERT_ERROR_NO_DEVICE, "cannot load the CUDA driver (",
                     Reason ? Reason : DriverLibrary,
                     "); is the NVIDIA driver installed?");
  }
  // The library stays loaded for the life of the process.
  auto GetProcAddress = reinterpret_cast<GetProcAddressFn>(
      ::dlsym(Library, "cuGetProcAddress_v2"));
  if (!GetProcAddress)
    return makeError(TILERT_ERROR_NO_DEVICE, "the CUDA driver in ",
                     DriverLibrary,
                     " is too old: tilert needs a CUDA 12.4 or newer driver");
#define TILERT_DRIVER_RESOLVE(Name, Version)                                   \
  {                                                                            \
    void *Function = nullptr;                                                  \
    CUdriverProcAddressQueryResult Found =                                     \
        CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;                                  \
    CUresult Result = GetProcAddress(#Name, &Function, Version,                \
                                     CU_GET_PROC_ADDRESS_DEFAULT, &Found);     \
    if (Result != CUDA_SUCCESS || Found != CU_GET_PROC_ADDRESS_SUCCESS ||      \
        !Function)                                                             \
      return makeError(TILERT_ERROR_NO_DEVICE, "the CUDA driver in ",          \
                       DriverLibrary, " lacks " #Name " (CUDA ", Version,      \
                       " ABI); update the NVIDIA driver");                     \
    api.Name = reinterpret_cast<PFN_##Name##_v##Version>(Function);            \
  }
  TILERT_DRIVER_FUNCTIONS(TILERT_DRIVER_RESOLVE)
#undef TILERT_DRIVER_RESOLVE
  CUresult Init = api.cuInit(0);
  if (Init != CUDA_SUCCESS)
    return makeError(TILERT_ERROR_NO_DEVICE,
                     "cuInit failed: ", describeCuResult(api, Init));
  return Status::success();
}

} // namespace

Status getDriver(const DriverApi *&out) {
  static DriverApi Api;
  static Status Loaded;
  static std::once_flag Once;
  std::call_once(Once, [] { Loaded = loadDriver(Api); });
  if (!Loaded.ok())
    return Loaded;
  out = &Api;
  return Status::success();
}

std::string describeCuResult(const DriverApi &api, CUresult result) {
  const char *Name = nullptr;
  const char *Description = nullptr;
  if (api.cuGetErrorName)
    api.cuGetErrorName(result, &Name);
  if (api.cuGetErrorString)
    api.cuGetErrorString(result, &Description);
  return strCat(Name ? std::string(Name) : strCat("CUresult ", int(result)),
                " (", Description ? Description : "unknown error", ")");
}

Status checkCu(const DriverApi &api, CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return Status::success();
  return makeError(TILERT_ERROR_CUDA, call,
                   " failed: ", describeCuResult(api, result));
}

} // namespace tilert::detail
