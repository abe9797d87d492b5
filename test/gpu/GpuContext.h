//===- GpuContext.h - The device the GPU tests run on -----------*- C++ -*-===//

#ifndef TILERT_TEST_GPU_GPUCONTEXT_H
#define TILERT_TEST_GPU_GPUCONTEXT_H

#include "Driver.h"

#include <string>

namespace tilert::gputest {

/// What every GPU test uses: the driver, device 0's primary context (current
/// on the threads that run tests) and a stream in it.
struct GpuContext {
  const detail::DriverApi *Api = nullptr;
  int Device = 0;
  CUcontext Context = nullptr;
  CUstream Stream = nullptr;
  int CcMajor = 0;
  int CcMinor = 0;
  std::string Name;
};

} // namespace tilert::gputest

#endif // TILERT_TEST_GPU_GPUCONTEXT_H
