//===- KernelParams.h - The kernel's .param list ----------------*- C++ -*-===//
//
// Builds the argument array cuLaunchKernelEx takes, in the ABI order of
// docs/abi.md: tensor addresses (u64), dims (i64), then scalars by dtype.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_KERNELPARAMS_H
#define TILERT_LIB_KERNELPARAMS_H

#include "ArgBinding.h"

#include <cstdint>
#include <vector>

namespace tilert::detail {

/// Storage for one launch's parameter values and the pointers to them.
class KernelParams {
public:
  /// Packs `args` (validated against `metadata`) and `scalars` (one per
  /// metadata scalar, already checked to have the right dtypes).
  KernelParams(const KernelMetadata &metadata, const BoundArgs &args,
               const tilertScalar *scalars);
  KernelParams(const KernelParams &) = delete;
  KernelParams &operator=(const KernelParams &) = delete;

  /// One pointer per parameter, as `kernelParams` of cuLaunchKernelEx.
  void **pointers() { return Pointers.data(); }

  /// The number of parameters.
  size_t size() const { return Pointers.size(); }

private:
  /// One 8-byte slot per parameter; a smaller scalar sits in its low bytes.
  std::vector<uint64_t> Slots;
  std::vector<void *> Pointers;
};

} // namespace tilert::detail

#endif // TILERT_LIB_KERNELPARAMS_H
