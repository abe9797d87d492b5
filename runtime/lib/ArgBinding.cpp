//===- ArgBinding.cpp - Launch argument validation --------------*- C++ -*-===//

#include "ArgBinding.h"

#include "DType.h"

#include <algorithm>

namespace tilert::detail {

namespace {

Status invalid(const std::string &message) {
  return Status(TILERT_ERROR_INVALID_ARGUMENT, message);
}

std::string describeShape(const KernelMetadata &metadata,
                          const TensorParam &param) {
  std::string Result = "[";
  for (size_t D = 0; D < param.Shape.size(); ++D) {
    const ShapeEntry &Entry = param.Shape[D];
    Result += D ? ", " : "";
    Result +=
        Entry.Dim >= 0 ? metadata.Dims[Entry.Dim] : std::to_string(Entry.Value);
  }
  return Result + "]";
}

/// The error for `given` arguments where the kernel takes `params`.
template <typename Param>
Status countMismatch(const KernelMetadata &metadata,
                     const std::vector<Param> &params, const char *kind,
                     int32_t given) {
  std::vector<std::string> Names;
  for (const Param &Each : params)
    Names.push_back(Each.Name);
  return invalid(strCat(metadata.Name, " takes ", params.size(), " ", kind,
                        " (", joinNames(Names), ") but ", given,
                        " were given"));
}

/// Validates tensors one at a time, binding the dims they name. Messages are
/// only built on failure: the checks run on every launch.
class Binder {
public:
  Binder(const KernelMetadata &metadata, BoundArgs &out)
      : Metadata(metadata), Out(out) {
    Out.Device = -1;
    Out.Dims.assign(metadata.Dims.size(), -1);
    Out.Addresses.resize(metadata.Tensors.size());
    Out.Sources.resize(metadata.Dims.size());
  }

  Status bindTensor(size_t index, const DLTensor *tensor) {
    const TensorParam &Param = Metadata.Tensors[index];
    if (!tensor)
      return fail(index, " is NULL");
    if (tensor->device.device_type != kDLCUDA)
      return fail(index, " is on DLPack device type ",
                  int(tensor->device.device_type), ", not kDLCUDA (",
                  int(kDLCUDA), ")");
    if (tensor->device.device_id < 0)
      return fail(index, " has a negative device id ",
                  tensor->device.device_id);
    if (index == 0)
      Out.Device = tensor->device.device_id;
    else if (tensor->device.device_id != Out.Device)
      return fail(index, " is on CUDA device ", tensor->device.device_id,
                  " but tensor '", Metadata.Tensors[0].Name, "' is on device ",
                  Out.Device);
    DLDataType Want = toDLDataType(Param.DType);
    if (tensor->dtype.code != Want.code || tensor->dtype.bits != Want.bits ||
        tensor->dtype.lanes != Want.lanes)
      return fail(index, " has dtype ", describeDLDataType(tensor->dtype),
                  " but the kernel expects ", dtypeName(Param.DType));
    size_t Rank = Param.Shape.size();
    if (tensor->ndim != static_cast<int>(Rank))
      return fail(index, " has rank ", tensor->ndim,
                  " but the kernel expects rank ", Rank, " ",
                  describeShape(Metadata, Param));
    if (Rank > 0 && !tensor->shape)
      return fail(index, " has a NULL shape");

    int64_t Elements = 1;
    for (size_t D = 0; D < Rank; ++D) {
      int64_t Extent = tensor->shape[D];
      if (!bindExtent(index, D, Extent))
        return extentError(index, D, Extent);
      if (__builtin_mul_overflow(Elements, Extent, &Elements))
        return fail(index, " has more elements than fit in 64 bits");
    }
    // Equal to Want.bits / 8: every dtype is a whole number of bytes.
    int64_t ElementSize = Want.bits / 8;
    int64_t Bytes;
    if (__builtin_mul_overflow(Elements, ElementSize, &Bytes))
      return fail(index, " has more bytes than fit in 64 bits");
    if (Elements > 0 && tensor->strides)
      TILERT_TRY(checkContiguous(index, *tensor));

    uint64_t Address =
        reinterpret_cast<uintptr_t>(tensor->data) + tensor->byte_offset;
    if (Elements > 0) {
      if (!tensor->data)
        return fail(index, " has a NULL data pointer");
      // Both are powers of two, so is the larger.
      uint64_t Alignment =
          std::max<uint64_t>(Param.Alignment, uint64_t(ElementSize));
      if ((Address & (Alignment - 1)) != 0)
        return fail(index, " address 0x", std::hex, Address, std::dec,
                    " (data + byte_offset ", tensor->byte_offset,
                    ") is not aligned to ", Alignment,
                    " bytes as the kernel requires");
    }
    Out.Addresses[index] = Address;
    return Status::success();
  }

  Status checkScalar(size_t index, const tilertScalar &scalar) const {
    const ScalarParam &Param = Metadata.Scalars[index];
    auto Fail = [&](const auto &...Parts) {
      return invalid(strCat(Metadata.Name, ": scalar '", Param.Name,
                            "' (index ", index, ")", Parts...));
    };
    const char *Given = dtypeName(scalar.dtype);
    if (!Given)
      return Fail(" has an invalid dtype value ", int(scalar.dtype));
    if (scalar.dtype != Param.DType)
      return Fail(" has dtype ", Given, " but the kernel expects ",
                  dtypeName(Param.DType));
    if (scalar.dtype == TILERT_DTYPE_BOOL && scalar.value.boolean > 1)
      return Fail(" is a bool but holds ", int(scalar.value.boolean),
                  " (expected 0 or 1)");
    return Status::success();
  }

private:
  /// An error about tensor `index`: its description followed by `parts`.
  template <typename... Ts>
  [[gnu::cold]] Status fail(size_t index, const Ts &...parts) const {
    return invalid(strCat(Metadata.Name, ": tensor '",
                          Metadata.Tensors[index].Name, "' (index ", index, ")",
                          parts...));
  }

  /// Binds axis `axis` of tensor `tensorIndex` to `extent`; false if the
  /// extent is negative, differs from the constant the kernel was compiled
  /// for or from the value an earlier tensor bound (extentError says which).
  bool bindExtent(size_t tensorIndex, size_t axis, int64_t extent) {
    const ShapeEntry &Entry = Metadata.Tensors[tensorIndex].Shape[axis];
    if (extent < 0)
      return false;
    if (Entry.Dim < 0)
      return extent == Entry.Value;
    int64_t &Bound = Out.Dims[Entry.Dim];
    if (Bound < 0) {
      Bound = extent;
      Out.Sources[Entry.Dim] = {tensorIndex, axis};
      return true;
    }
    return Bound == extent;
  }

  /// The error of an extent bindExtent refused.
  [[gnu::cold]] Status extentError(size_t tensorIndex, size_t axis,
                                   int64_t extent) const {
    const ShapeEntry &Entry = Metadata.Tensors[tensorIndex].Shape[axis];
    if (extent < 0)
      return fail(tensorIndex, " dim ", axis, " is negative (", extent, ")");
    if (Entry.Dim < 0)
      return fail(tensorIndex, " dim ", axis, " is ", extent,
                  " but the kernel was compiled for ", Entry.Value);
    const DimSource &Source = Out.Sources[Entry.Dim];
    return invalid(strCat(
        Metadata.Name, ": dim '", Metadata.Dims[Entry.Dim],
        "' is inconsistent: tensor '", Metadata.Tensors[Source.Tensor].Name,
        "' dim ", Source.Axis, " has ", Out.Dims[Entry.Dim], " but tensor '",
        Metadata.Tensors[tensorIndex].Name, "' dim ", axis, " has ", extent));
  }

  Status checkContiguous(size_t index, const DLTensor &tensor) const {
    int64_t Expected = 1;
    for (int D = tensor.ndim - 1; D >= 0; --D) {
      // The stride of an extent-1 dim never affects an address.
      if (tensor.shape[D] != 1 && tensor.strides[D] != Expected)
        return fail(index, " is not contiguous: dim ", D, " has stride ",
                    tensor.strides[D], " but a row-major compact layout has ",
                    Expected);
      Expected *= tensor.shape[D];
    }
    return Status::success();
  }

  const KernelMetadata &Metadata;
  BoundArgs &Out;
};

} // namespace

Status bindArguments(const KernelMetadata &metadata,
                     const DLTensor *const *tensors, int32_t numTensors,
                     const tilertScalar *scalars, int32_t numScalars,
                     BoundArgs &out) {
  if (numTensors != static_cast<int32_t>(metadata.Tensors.size()))
    return countMismatch(metadata, metadata.Tensors, "tensors", numTensors);
  if (numScalars != static_cast<int32_t>(metadata.Scalars.size()))
    return countMismatch(metadata, metadata.Scalars, "scalars", numScalars);
  if (numTensors > 0 && !tensors)
    return invalid(metadata.Name + ": the tensor array is NULL");
  if (numScalars > 0 && !scalars)
    return invalid(metadata.Name + ": the scalar array is NULL");

  Binder Bind(metadata, out);
  for (int32_t I = 0; I < numTensors; ++I)
    TILERT_TRY(Bind.bindTensor(static_cast<size_t>(I), tensors[I]));
  for (int32_t I = 0; I < numScalars; ++I)
    TILERT_TRY(Bind.checkScalar(static_cast<size_t>(I), scalars[I]));
  return Status::success();
}

} // namespace tilert::detail
