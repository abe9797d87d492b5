/*===- FakeCuda.h - Control API of the fake CUDA driver -----------*- C -*-===*\
|*                                                                            *|
|* libcuda.so.1 built from FakeCuda.cpp stands in for the NVIDIA driver in    *|
|* tests and host-overhead measurements on machines without a GPU: put its    *|
|* directory first in LD_LIBRARY_PATH and libtilert loads it. It has one      *|
|* device, or FAKE_CUDA_DEVICES (up to 8) of one name sharing one context    *|
|* (compute capability from FAKE_CUDA_CC, default "9.0"), "device            *|
|* memory" in host memory, accepts any binary, and runs no kernel: a launch   *|
|* is recorded, and an event is complete once recorded (its times are host   *|
|* times). These functions, looked up with dlsym or ctypes, read what it      *|
|* recorded.                                                                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILERT_TEST_FAKECUDA_H
#define TILERT_TEST_FAKECUDA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The most parameters of one launch fakeCudaLastLaunch reports.
#define FAKE_CUDA_MAX_PARAMS 32

/// The last cuLaunchKernelEx call.
typedef struct FakeCudaLaunch {
  /// Launches since the last fakeCudaReset.
  uint64_t count;
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t shared_bytes;
  /// The number of launch attributes.
  uint32_t num_attributes;
  /// The stream, as an integer.
  uint64_t stream;
  /// The first 8 bytes each of the first fakeCudaSetParamCount parameters.
  uint64_t params[FAKE_CUDA_MAX_PARAMS];
} FakeCudaLaunch;

/// Zeroes every call count and the launch record.
void fakeCudaReset(void);

/// Sets how many parameters of each launch are recorded (at most
/// FAKE_CUDA_MAX_PARAMS); the fake cannot know a kernel's parameter count.
void fakeCudaSetParamCount(int32_t count);

/// Returns how often the driver entry point `name` (as libtilert resolves it,
/// e.g. "cuLaunchKernelEx") was called since the last fakeCudaReset.
uint64_t fakeCudaCallCount(const char *name);

/// Returns the number of calls to any entry point since the last reset.
uint64_t fakeCudaTotalCalls(void);

/// Copies the record of the last launch into `*out`.
void fakeCudaLastLaunch(FakeCudaLaunch *out);

/// The stream value cuStreamGetCtx rejects as invalid (a test's bad stream).
#define FAKE_CUDA_INVALID_STREAM ((uint64_t)0xbad0)

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TILERT_TEST_FAKECUDA_H */
