//===- DeviceMemory.h - Device 0 through the CUDA driver --------*- C++ -*-===//
//
// What the consumer test needs from the CUDA driver besides libtilert:
// device 0's primary context, buffers, copies and a synchronization. The
// driver is opened at run time, as libtilert does, so the test programs
// start on machines without one and report that they skip.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_PACKAGE_DEVICEMEMORY_H
#define TILEC_TEST_PACKAGE_DEVICEMEMORY_H

#include <cuda.h>

#include <cstddef>
#include <string>

namespace consumer {

/// Device 0 of the CUDA driver, with its primary context current.
class Device {
public:
  /// Opens the driver and makes device 0's primary context current. Returns
  /// false, with `Reason` set, when there is no driver or no device.
  bool open(std::string &Reason);

  /// Allocates `Bytes` on the device; returns 0 on failure.
  CUdeviceptr allocate(std::size_t Bytes);
  /// Copies `Bytes` from the host to the device; returns false on failure.
  bool copyToDevice(CUdeviceptr Dst, const void *Src, std::size_t Bytes);
  /// Copies `Bytes` from the device to the host; returns false on failure.
  bool copyToHost(void *Dst, CUdeviceptr Src, std::size_t Bytes);
  /// Waits for all work of the context; returns false on failure.
  bool synchronize();

private:
  CUresult (*Init)(unsigned) = nullptr;
  CUresult (*DeviceGet)(CUdevice *, int) = nullptr;
  CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
  CUresult (*CtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*MemAlloc)(CUdeviceptr *, std::size_t) = nullptr;
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, std::size_t) = nullptr;
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, std::size_t) = nullptr;
  CUresult (*CtxSynchronize)() = nullptr;
};

} // namespace consumer

#endif // TILEC_TEST_PACKAGE_DEVICEMEMORY_H
