//===- KernelDirectory.h - The compiled kernels under test ------*- C++ -*-===//

#ifndef TILERT_TEST_GPU_KERNELDIRECTORY_H
#define TILERT_TEST_GPU_KERNELDIRECTORY_H

#include "ElementwiseRefs.h"
#include "TestReport.h"

#include <string>
#include <vector>

namespace tilert::gputest {

/// A kernel metadata file found in the kernel directory.
struct KernelFile {
  /// The JSON's path.
  std::string Path;
  detail::KernelMetadata Metadata;
  /// Its reference, or nullptr when none is known.
  const ElementwiseRef *Ref = nullptr;
  /// Its constants.dtype (TILERT_DTYPE_INVALID if unsupported).
  tilertDType DType = TILERT_DTYPE_INVALID;
};

/// Parses every *.json under `directory`, recursively (sorted by path). A file that does not
/// parse is a failed test in `report`. Returns false if the directory cannot
/// be listed or holds no kernel metadata.
bool findKernels(const std::string &directory, TestReport &report,
                 std::vector<KernelFile> &out);

/// Returns the kernel named `name` of `dtype` (or of any dtype if none has
/// it), or nullptr. Among equal candidates, one whose machine code runs
/// natively on compute capability ccMajor.ccMinor comes first.
const KernelFile *findKernel(const std::vector<KernelFile> &kernels,
                             const std::string &name, tilertDType dtype,
                             int ccMajor, int ccMinor);

} // namespace tilert::gputest

#endif // TILERT_TEST_GPU_KERNELDIRECTORY_H
