//===- ArgBinding.h - Launch argument validation ----------------*- C++ -*-===//
//
// Checks a launch's DLPack tensors and scalars against the kernel's metadata
// (count, device, dtype, rank, dims, contiguity, alignment, NULL pointers,
// sizes) and binds the symbolic dims to their values. Pure host logic: no
// CUDA call is made, so a rejected launch touches no device.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_ARGBINDING_H
#define TILERT_LIB_ARGBINDING_H

#include "Metadata.h"
#include "Status.h"

#include <cstdint>
#include <vector>

namespace tilert::detail {

/// Where a symbolic dim got its value: tensor index and axis.
struct DimSource {
  size_t Tensor = 0;
  size_t Axis = 0;
};

/// The values a valid set of arguments binds. Binding again into the same
/// object reuses its storage, so a launch that keeps one per thread
/// allocates nothing once the vectors have grown to the kernel's sizes.
struct BoundArgs {
  /// CUDA device ordinal that holds every tensor (-1 if there are none).
  int32_t Device = -1;
  /// The value of each KernelMetadata::Dims entry.
  std::vector<int64_t> Dims;
  /// Each tensor's address: data + byte_offset.
  std::vector<uint64_t> Addresses;
  /// Per dim, the tensor and axis that bound it (for the message naming
  /// both tensors when a later tensor disagrees).
  std::vector<DimSource> Sources;
};

/// Validates `tensors` (`numTensors` entries) and `scalars` (`numScalars`)
/// against `metadata` and fills `out`, reusing its storage; after an error
/// `out`'s contents are unspecified. Every mismatch is
/// TILERT_ERROR_INVALID_ARGUMENT naming the kernel, the parameter and, for
/// inconsistent dims, both tensors that disagree. Nothing is allocated on
/// success once `out`'s vectors have the kernel's sizes.
Status bindArguments(const KernelMetadata &metadata,
                     const DLTensor *const *tensors, int32_t numTensors,
                     const tilertScalar *scalars, int32_t numScalars,
                     BoundArgs &out);

} // namespace tilert::detail

#endif // TILERT_LIB_ARGBINDING_H
