//===- TensorMap.h - TMA tensor map arguments -------------------*- C++ -*-===//
//
// A kernel's tensor_map parameters (docs/metadata.md) are 128-byte
// CUtensorMaps that the runtime encodes at launch from the tensors passed.
// This file holds the part that needs no driver: the checks of a tensor
// against TMA's rules and the arguments of cuTensorMapEncodeTiled, reversed
// to the driver's innermost-first order.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_TENSORMAP_H
#define TILERT_LIB_TENSORMAP_H

#include "ArgBinding.h"
#include "Metadata.h"
#include "Status.h"

#include <cuda.h>

#include <array>
#include <cstdint>
#include <vector>

namespace tilert::detail {

/// The arguments of one cuTensorMapEncodeTiled call. Arrays are innermost
/// dimension first (the reverse of the metadata's order); entries past
/// `Rank` (past `Rank - 1` for GlobalStrides) are zero, so two equal
/// encodings compare equal member by member.
struct TensorMapArgs {
  CUtensorMapDataType DataType = CU_TENSOR_MAP_DATA_TYPE_UINT8;
  uint32_t Rank = 0;
  /// The tensor's address (data + byte_offset).
  uint64_t Address = 0;
  /// Extent of each dimension, in elements.
  std::array<cuuint64_t, MaxTensorMapRank> GlobalDim{};
  /// Stride of dimensions 1 to Rank - 1 in bytes (dimension 0 is
  /// contiguous).
  std::array<cuuint64_t, MaxTensorMapRank - 1> GlobalStrides{};
  /// Box extent of each dimension, in elements.
  std::array<cuuint32_t, MaxTensorMapRank> BoxDim{};
  /// Traversal step of each dimension (always 1).
  std::array<cuuint32_t, MaxTensorMapRank> ElementStrides{};
  CUtensorMapInterleave Interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle Swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapL2promotion L2Promotion = CU_TENSOR_MAP_L2_PROMOTION_NONE;
  CUtensorMapFloatOOBfill OobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;

  /// True if no map is encoded: the map is optional and the tensor breaks
  /// TMA's rules, so the launch passes 128 zero bytes.
  bool Skipped = false;

  /// Whether every argument is equal (the encoded maps are then equal).
  bool operator==(const TensorMapArgs &other) const;
  bool operator!=(const TensorMapArgs &other) const {
    return !(*this == other);
  }
};

/// Returns the tensor map element type of `dtype`: its float type for
/// f16, bf16, f32 and f64, else the integer type of its width (i8 and bool
/// as UINT8: TMA copies bits and fills out-of-bounds elements with zeros).
CUtensorMapDataType tensorMapDataType(tilertDType dtype);

/// Checks the tensor of tensor map `mapIndex` of `metadata` against TMA's
/// rules and fills `out` with the encoder's arguments. `address` is the
/// tensor's address, `shape` and `strides` (in elements) its layout,
/// outermost first, with the tensor's rank. The rules: address 16-byte
/// aligned; every extent in [1, 2^32]; innermost stride 1; every other
/// stride positive, a multiple of 16 bytes and below 2^40 bytes. A violation
/// is TILERT_ERROR_INVALID_ARGUMENT naming the kernel, the tensor, the rule
/// and the tensor map.
Status makeTensorMapArgs(const KernelMetadata &metadata, size_t mapIndex,
                         uint64_t address, const int64_t *shape,
                         const int64_t *strides, TensorMapArgs &out);

/// Makes the arguments of every tensor map of a launch whose arguments
/// `args` bound (compact row-major tensors: the strides follow from the
/// shapes), one per KernelMetadata::TensorMaps entry, with
/// makeTensorMapArgs.
Status prepareTensorMaps(const KernelMetadata &metadata, const BoundArgs &args,
                         std::vector<TensorMapArgs> &out);

} // namespace tilert::detail

#endif // TILERT_LIB_TENSORMAP_H
