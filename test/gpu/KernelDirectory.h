//===- KernelDirectory.h - The compiled kernels under test ------*- C++ -*-===//

#ifndef TILERT_TEST_GPU_KERNELDIRECTORY_H
#define TILERT_TEST_GPU_KERNELDIRECTORY_H

#include "KernelRef.h"
#include "TestReport.h"

#include <string>
#include <vector>

namespace tilert::gputest {

/// The record of what the kernels were compiled from, at the top of the
/// kernel directory (tools/gpu/gpu_kernels.py); not kernel metadata.
inline constexpr const char *ProvenanceFile = "provenance.json";

/// A kernel metadata file found in the kernel directory.
struct KernelFile {
  /// The JSON's path.
  std::string Path;
  /// Its path relative to the kernel directory, without ".json"
  /// ("vector_add-f16/vector_add.sm_90a").
  std::string Label;
  detail::KernelMetadata Metadata;
  /// Its reference, or nullptr when none is registered.
  const KernelRef *Ref = nullptr;
  /// Why it cannot be checked (no reference, a different signature), or "".
  std::string Problem;
  /// The dtypes of its tensors (when Problem is empty).
  std::vector<tilertDType> DTypes;
  /// Its constants.dtype, or TILERT_DTYPE_INVALID.
  tilertDType DType = TILERT_DTYPE_INVALID;
};

/// Parses every *.json under `directory` (but the ProvenanceFile),
/// recursively, sorted by path, and matches each with its reference. A file
/// that does not parse is a failed test in `report`. Returns false if the
/// directory cannot be listed or holds no kernel metadata.
bool findKernels(const std::string &directory, TestReport &report,
                 std::vector<KernelFile> &out);

/// Returns the kernel named `name` of `dtype` (or of any dtype if none has
/// it) that has a reference, or nullptr. Among equal candidates, one whose
/// machine code runs natively on compute capability ccMajor.ccMinor comes
/// first.
const KernelFile *findKernel(const std::vector<KernelFile> &kernels,
                             const std::string &name, tilertDType dtype,
                             int ccMajor, int ccMinor);

} // namespace tilert::gputest

#endif // TILERT_TEST_GPU_KERNELDIRECTORY_H
