//===- KernelRef.cpp - The host reference of a test kernel ----------------===//

#include "KernelRef.h"

#include "DType.h"
#include "HostValues.h"

#include <cmath>

namespace tilert::gputest {

RefInputs::RefInputs(const std::vector<tilertDType> &dtypes,
                     const std::vector<std::vector<int64_t>> &shapes,
                     const std::vector<const char *> &data,
                     const std::vector<double> &scalars,
                     const std::vector<int64_t> &dims)
    : DTypes(dtypes), Shapes(shapes), Data(data), Scalars(scalars), Dims(dims) {
}

double RefInputs::at(size_t tensor,
                     std::initializer_list<int64_t> coords) const {
  const std::vector<int64_t> &Shape = Shapes[tensor];
  if (coords.size() != Shape.size() || !Data[tensor])
    return std::nan("");
  int64_t Flat = 0;
  size_t Axis = 0;
  for (int64_t Coord : coords) {
    if (Coord < 0 || Coord >= Shape[Axis])
      return std::nan("");
    Flat = Flat * Shape[Axis++] + Coord;
  }
  tilertDType DType = DTypes[tensor];
  return decodeValue(DType, Data[tensor] + Flat * detail::dtypeSize(DType));
}

Tolerance toleranceFor(tilertDType dtype) {
  switch (dtype) {
  case TILERT_DTYPE_F16:
    return {std::ldexp(1.0, -9), 1e-7, 2e-2};
  case TILERT_DTYPE_BF16:
    return {std::ldexp(1.0, -6), 1e-30, 2e-2};
  case TILERT_DTYPE_F32:
    return {1e-6, 1e-30, 1e-5};
  default:
    return {0, 0, 0};
  }
}

namespace {

/// Resolves a RefTensor::DType: a dtype name or a constant holding one.
tilertDType resolveDType(const detail::KernelMetadata &metadata,
                         const char *spelled) {
  tilertDType DType = detail::parseDType(spelled);
  if (DType != TILERT_DTYPE_INVALID)
    return DType;
  auto It = metadata.Constants.find(spelled);
  if (It == metadata.Constants.end() || !It->is_string())
    return TILERT_DTYPE_INVALID;
  return detail::parseDType(It->get<std::string>());
}

} // namespace

std::string checkSignature(const detail::KernelMetadata &metadata,
                           const KernelRef &ref,
                           std::vector<tilertDType> &dtypes) {
  dtypes.clear();
  if (metadata.Dims.size() != ref.Dims.size())
    return detail::strCat("expected ", ref.Dims.size(), " dims, found ",
                          metadata.Dims.size());
  for (size_t I = 0; I < ref.Dims.size(); ++I)
    if (metadata.Dims[I] != ref.Dims[I])
      return detail::strCat("dim ", I, " is '", metadata.Dims[I],
                            "', expected '", ref.Dims[I], "'");
  if (metadata.Tensors.size() != ref.Tensors.size())
    return detail::strCat("expected ", ref.Tensors.size(), " tensors, found ",
                          metadata.Tensors.size());
  for (size_t I = 0; I < ref.Tensors.size(); ++I) {
    const RefTensor &Want = ref.Tensors[I];
    const detail::TensorParam &Got = metadata.Tensors[I];
    tilertDType DType = resolveDType(metadata, Want.DType);
    if (!isHostSupported(DType))
      return detail::strCat("tensor '", Want.Name, "': dtype '", Want.DType,
                            "' is not one of f32, f16, bf16, i32");
    std::string Shape;
    bool SameShape = Got.Shape.size() == Want.Shape.size();
    for (size_t Axis = 0; Axis < Want.Shape.size(); ++Axis) {
      Shape += detail::strCat(Axis ? ", " : "", Want.Shape[Axis]);
      SameShape = SameShape && Got.Shape[Axis].Dim >= 0 &&
                  metadata.Dims[Got.Shape[Axis].Dim] == Want.Shape[Axis];
    }
    if (Got.Name != Want.Name || Got.DType != DType || !SameShape)
      return detail::strCat("tensor ", I, " is not '", Want.Name, ": ",
                            detail::dtypeName(DType), "[", Shape, "]'");
    dtypes.push_back(DType);
  }
  if (metadata.Scalars.size() != ref.Scalars.size())
    return detail::strCat("expected ", ref.Scalars.size(), " scalars, found ",
                          metadata.Scalars.size());
  for (size_t I = 0; I < ref.Scalars.size(); ++I)
    if (metadata.Scalars[I].Name != ref.Scalars[I].Name ||
        metadata.Scalars[I].DType != ref.Scalars[I].DType)
      return detail::strCat("scalar ", I, " is not '", ref.Scalars[I].Name,
                            ": ", detail::dtypeName(ref.Scalars[I].DType), "'");
  return "";
}

} // namespace tilert::gputest
