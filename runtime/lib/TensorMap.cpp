//===- TensorMap.cpp - TMA tensor map arguments -----------------*- C++ -*-===//

#include "TensorMap.h"

#include "DType.h"

#include <limits>

namespace tilert::detail {

namespace {

/// TMA's bound on byte strides (exclusive) and on extents (inclusive).
constexpr uint64_t MaxStrideBytes = uint64_t(1) << 40;
constexpr int64_t MaxExtent = int64_t(1) << 32;

CUtensorMapSwizzle swizzleFor(uint32_t bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

CUtensorMapL2promotion l2PromotionFor(uint32_t bytes) {
  switch (bytes) {
  case 64:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_64B;
  case 128:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
  case 256:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  default:
    return CU_TENSOR_MAP_L2_PROMOTION_NONE;
  }
}

} // namespace

bool TensorMapArgs::operator==(const TensorMapArgs &other) const {
  return Skipped == other.Skipped && DataType == other.DataType &&
         Rank == other.Rank && Address == other.Address &&
         GlobalDim == other.GlobalDim && GlobalStrides == other.GlobalStrides &&
         BoxDim == other.BoxDim && ElementStrides == other.ElementStrides &&
         Interleave == other.Interleave && Swizzle == other.Swizzle &&
         L2Promotion == other.L2Promotion && OobFill == other.OobFill;
}

CUtensorMapDataType tensorMapDataType(tilertDType dtype) {
  switch (dtype) {
  case TILERT_DTYPE_F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case TILERT_DTYPE_BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case TILERT_DTYPE_F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case TILERT_DTYPE_F64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case TILERT_DTYPE_I16:
    return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case TILERT_DTYPE_I32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case TILERT_DTYPE_U32:
    return CU_TENSOR_MAP_DATA_TYPE_UINT32;
  case TILERT_DTYPE_I64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  default:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  }
}

Status makeTensorMapArgs(const KernelMetadata &metadata, size_t mapIndex,
                         uint64_t address, const int64_t *shape,
                         const int64_t *strides, TensorMapArgs &out) {
  const TensorMapParam &Map = metadata.TensorMaps[mapIndex];
  const TensorParam &Tensor = metadata.Tensors[Map.Tensor];
  auto Fail = [&](const auto &...Parts) {
    return makeError(TILERT_ERROR_INVALID_ARGUMENT, metadata.Name, ": tensor '",
                     Tensor.Name, "' (index ", Map.Tensor, "): ", Parts...,
                     " as TMA requires (tensor map '", Map.Name, "')");
  };
  const uint32_t Rank = static_cast<uint32_t>(Tensor.Shape.size());
  const uint64_t ElementSize = dtypeSize(Tensor.DType);
  if (address % 16 != 0)
    return Fail("the address 0x", std::hex, address, std::dec,
                " is not aligned to 16 bytes");
  for (uint32_t D = 0; D < Rank; ++D)
    if (shape[D] < 1 || shape[D] > MaxExtent)
      return Fail("dimension ", D, " has extent ", shape[D],
                  ", not in [1, 2^32]");
  // The stride of an extent-1 dimension never affects an address.
  if (strides[Rank - 1] != 1 && shape[Rank - 1] != 1)
    return Fail("the innermost dimension (", Rank - 1, ") has stride ",
                strides[Rank - 1], " elements, not 1 (contiguous)");

  TensorMapArgs Args;
  Args.DataType = tensorMapDataType(Tensor.DType);
  Args.Rank = Rank;
  Args.Address = address;
  for (uint32_t I = 0; I < Rank; ++I) {
    // Entry I of the driver's arrays is dimension Rank - 1 - I of ours.
    uint32_t D = Rank - 1 - I;
    Args.GlobalDim[I] = static_cast<cuuint64_t>(shape[D]);
    Args.BoxDim[I] = Map.Box[D];
    Args.ElementStrides[I] = 1;
    if (I == 0)
      continue;
    if (strides[D] < 1)
      return Fail("the stride of dimension ", D, " is ", strides[D],
                  " elements, not positive");
    uint64_t Bytes = 0;
    bool Overflow = __builtin_mul_overflow(static_cast<uint64_t>(strides[D]),
                                           ElementSize, &Bytes);
    // Only coordinate 0 of an extent-1 dimension is in bounds, so its stride
    // may be padded to what TMA accepts.
    if (shape[D] == 1 && Bytes < MaxStrideBytes)
      Bytes = (Bytes + 15) / 16 * 16;
    if (Overflow || Bytes >= MaxStrideBytes)
      return Fail("the stride of dimension ", D, " is ", strides[D],
                  " elements of ", ElementSize, " bytes, not below 2^40 bytes");
    if (Bytes % 16 != 0)
      return Fail("the stride of dimension ", D, " is ", Bytes,
                  " bytes, not a multiple of 16");
    Args.GlobalStrides[I - 1] = Bytes;
  }
  Args.Interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  Args.Swizzle = swizzleFor(Map.Swizzle);
  Args.L2Promotion = l2PromotionFor(Map.L2Promotion);
  Args.OobFill = Map.Fill == OobFill::Nan
                     ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                     : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  out = Args;
  return Status::success();
}

Status prepareTensorMaps(const KernelMetadata &metadata, const BoundArgs &args,
                         std::vector<TensorMapArgs> &out) {
  out.resize(metadata.TensorMaps.size());
  for (size_t M = 0; M < metadata.TensorMaps.size(); ++M) {
    size_t T = metadata.TensorMaps[M].Tensor;
    const std::vector<ShapeEntry> &Shape = metadata.Tensors[T].Shape;
    std::array<int64_t, MaxTensorMapRank> Extents{}, Strides{};
    int64_t Stride = 1;
    for (size_t D = Shape.size(); D-- > 0;) {
      Extents[D] = Shape[D].Dim >= 0 ? args.Dims[Shape[D].Dim] : Shape[D].Value;
      Strides[D] = Stride;
      // An overflow implies an extent of 0 (the element count fits in 64
      // bits otherwise), which makeTensorMapArgs reports first.
      if (__builtin_mul_overflow(Stride, Extents[D], &Stride))
        Stride = std::numeric_limits<int64_t>::max();
    }
    Status Made = makeTensorMapArgs(metadata, M, args.Addresses[T],
                                    Extents.data(), Strides.data(), out[M]);
    // The kernel checks the rules of an optional map itself and does not
    // read it where they fail (docs/metadata.md).
    if (!Made.ok() && metadata.TensorMaps[M].Optional) {
      out[M] = TensorMapArgs();
      out[M].Skipped = true;
      continue;
    }
    TILERT_TRY(std::move(Made));
  }
  return Status::success();
}

} // namespace tilert::detail
