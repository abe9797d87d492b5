//===- RuntimeTests.h - libtilert's behaviour on a GPU ----------*- C++ -*-===//
//
// The runtime checks that need a device: every rejected launch returns its
// specific status and leaves the output untouched; broken, tampered or
// mismatched artifacts are refused; tensor maps are encoded and reused; PTX
// runs through the driver JIT; and a fresh kernel launched from many threads
// at once loads once and computes correctly.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_TEST_GPU_RUNTIMETESTS_H
#define TILERT_TEST_GPU_RUNTIMETESTS_H

#include "GpuContext.h"
#include "KernelDirectory.h"
#include "TestReport.h"

namespace tilert::gputest {

/// Launches `vectorAdd` with bad arguments (wrong dtype, inconsistent N,
/// misaligned or NULL pointers, ...) and `scaleAdd` (if any) with bad
/// scalars; each must fail with its status and launch nothing.
void runArgumentTests(const GpuContext &gpu, const KernelFile &vectorAdd,
                      const KernelFile *scaleAdd, uint64_t seed,
                      TestReport &report);

/// Loads edited copies of `vectorAdd`'s artifacts: corrupt, truncated or
/// mismatched metadata, missing or tampered binaries, tensor maps (encoded,
/// reused, refused for a misaligned tensor; compute capability 9.0 and up),
/// PTX only, invalid PTX.
void runArtifactTests(const GpuContext &gpu, const KernelFile &vectorAdd,
                      uint64_t seed, TestReport &report);

/// Launches a freshly loaded `kernel` from several threads at once, each on
/// its own stream and buffers, and checks every output.
void runConcurrentLaunchTest(const GpuContext &gpu, const KernelFile &kernel,
                             uint64_t seed, TestReport &report);

} // namespace tilert::gputest

#endif // TILERT_TEST_GPU_RUNTIMETESTS_H
