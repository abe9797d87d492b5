//===- DeviceMemory.cpp - Device 0 through the CUDA driver ----------------===//

#include "DeviceMemory.h"

#include <dlfcn.h>

using namespace consumer;

namespace {
/// Sets `Fn` to the driver's symbol `Name`; returns false if it is missing.
template <typename Fn> bool resolve(void *Library, const char *Name, Fn &Out) {
  Out = reinterpret_cast<Fn>(dlsym(Library, Name));
  return Out != nullptr;
}
} // namespace

bool Device::open(std::string &Reason) {
  void *Library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Library) {
    Reason = "cannot load libcuda.so.1";
    return false;
  }
  if (!resolve(Library, "cuInit", Init) ||
      !resolve(Library, "cuDeviceGet", DeviceGet) ||
      !resolve(Library, "cuDevicePrimaryCtxRetain", PrimaryCtxRetain) ||
      !resolve(Library, "cuCtxSetCurrent", CtxSetCurrent) ||
      !resolve(Library, "cuMemAlloc_v2", MemAlloc) ||
      !resolve(Library, "cuMemcpyHtoD_v2", MemcpyHtoD) ||
      !resolve(Library, "cuMemcpyDtoH_v2", MemcpyDtoH) ||
      !resolve(Library, "cuCtxSynchronize", CtxSynchronize)) {
    Reason = "libcuda.so.1 lacks a driver API function";
    return false;
  }
  CUdevice Handle;
  CUcontext Context;
  if (Init(0) != CUDA_SUCCESS || DeviceGet(&Handle, 0) != CUDA_SUCCESS) {
    Reason = "cuInit or cuDeviceGet failed: no usable device";
    return false;
  }
  if (PrimaryCtxRetain(&Context, Handle) != CUDA_SUCCESS ||
      CtxSetCurrent(Context) != CUDA_SUCCESS) {
    Reason = "cannot make device 0's primary context current";
    return false;
  }
  return true;
}

CUdeviceptr Device::allocate(std::size_t Bytes) {
  CUdeviceptr Pointer = 0;
  return MemAlloc(&Pointer, Bytes) == CUDA_SUCCESS ? Pointer : 0;
}

bool Device::copyToDevice(CUdeviceptr Dst, const void *Src, std::size_t Bytes) {
  return MemcpyHtoD(Dst, Src, Bytes) == CUDA_SUCCESS;
}

bool Device::copyToHost(void *Dst, CUdeviceptr Src, std::size_t Bytes) {
  return MemcpyDtoH(Dst, Src, Bytes) == CUDA_SUCCESS;
}

bool Device::synchronize() { return CtxSynchronize() == CUDA_SUCCESS; }
