//===- PackageTests.h - Kernel packages on a GPU ----------------*- C++ -*-===//
//
// A package of two real compiled variants of one kernel, written by the
// test: launches through the package run the variant the selection rule
// picks (the default without tuning.json; the tuned best of the exact or
// nearest shape on a device of the tuned name) and give the same result as
// launching that variant directly.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_TEST_GPU_PACKAGETESTS_H
#define TILERT_TEST_GPU_PACKAGETESTS_H

#include "GpuContext.h"
#include "KernelDirectory.h"
#include "TestReport.h"

#include <vector>

namespace tilert::gputest {

/// Builds a package of the gelu-f16 and gelu-f16-b2048 kernels of
/// `kernels` for this device and checks its dispatch and results.
void runPackageTests(const GpuContext &gpu,
                     const std::vector<KernelFile> &kernels, uint64_t seed,
                     TestReport &report);

} // namespace tilert::gputest

#endif // TILERT_TEST_GPU_PACKAGETESTS_H
