//===- KernelParams.h - The kernel's .param list ----------------*- C++ -*-===//
//
// Builds the argument array cuLaunchKernelEx takes, in the ABI order of
// docs/abi.md: tensor addresses (u64), dims (i64), scalars by dtype, then
// tensor maps (128-byte CUtensorMaps passed by value).
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_KERNELPARAMS_H
#define TILERT_LIB_KERNELPARAMS_H

#include "ArgBinding.h"

#include <cuda.h>

#include <cstdint>
#include <vector>

namespace tilert::detail {

/// Storage for one launch's parameter values and the pointers to them.
/// assign() reuses the storage, so an object kept per thread allocates
/// nothing once it has held the kernel's parameters, and takes the pointers
/// again only when the number of parameters or tensor maps changes.
class KernelParams {
public:
  KernelParams() = default;
  KernelParams(const KernelParams &) = delete;
  KernelParams &operator=(const KernelParams &) = delete;

  /// Packs `args` (validated against `metadata`) and `scalars` (one per
  /// metadata scalar, already checked to have the right dtypes), and makes
  /// room for one tensor map per metadata tensor map (zero-filled; set them
  /// with tensorMap() before launching). Replaces what was packed before.
  void assign(const KernelMetadata &metadata, const BoundArgs &args,
              const tilertScalar *scalars);

  /// One pointer per parameter, as `kernelParams` of cuLaunchKernelEx.
  void **pointers() { return Pointers.data(); }

  /// The number of parameters.
  size_t size() const { return Pointers.size(); }

  /// The storage of tensor map `index` (KernelMetadata::TensorMaps order),
  /// which the parameter array points to.
  CUtensorMap &tensorMap(size_t index) { return TensorMaps[index]; }

private:
  /// One 8-byte slot per tensor, dim and scalar; a smaller scalar sits in
  /// its low bytes.
  std::vector<uint64_t> Slots;
  /// One CUtensorMap per tensor map (128 bytes, aligned to 128 bytes, more
  /// than the 64 the driver requires).
  std::vector<CUtensorMap> TensorMaps;
  std::vector<void *> Pointers;
};

} // namespace tilert::detail

#endif // TILERT_LIB_KERNELPARAMS_H
