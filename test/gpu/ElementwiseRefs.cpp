//===- ElementwiseRefs.cpp - Host references of elementwise specs ---------===//

#include "ElementwiseRefs.h"

#include "DType.h"

#include <cmath>

namespace tilert::gputest {

namespace {

double vectorAdd(const double *in, const double *, double &magnitude) {
  magnitude = std::fabs(in[0]) + std::fabs(in[1]);
  return in[0] + in[1];
}

double scaleAdd(const double *in, const double *scalars, double &magnitude) {
  double Scaled = scalars[0] * in[0];
  magnitude = std::fabs(Scaled) + std::fabs(in[1]);
  return Scaled + in[1];
}

double gelu(const double *in, const double *, double &magnitude) {
  double X = in[0];
  magnitude = std::fabs(X);
  return 0.5 * X * (1.0 + std::erf(X / std::sqrt(2.0)));
}

const std::vector<ElementwiseRef> &refs() {
  static const std::vector<ElementwiseRef> Table = {
      // C = A + B
      {"vector_add", 2, {}, -4, 4, 0, 0, vectorAdd},
      // C = alpha * A + B, math in f32
      {"scale_add", 2, {"alpha"}, -4, 4, -2, 2, scaleAdd},
      // Y = 0.5 * X * (1 + erf(X / sqrt(2))); specs/gelu.tile names its
      // kernel gelu_forward.
      {"gelu", 1, {}, -6, 6, 0, 0, gelu},
      {"gelu_forward", 1, {}, -6, 6, 0, 0, gelu},
  };
  return Table;
}

} // namespace

const ElementwiseRef *findElementwiseRef(std::string_view name) {
  for (const ElementwiseRef &Ref : refs())
    if (name == Ref.Name)
      return &Ref;
  return nullptr;
}

tilertDType elementwiseDType(const detail::KernelMetadata &metadata) {
  auto It = metadata.Constants.find("dtype");
  if (It == metadata.Constants.end() || !It->is_string())
    return TILERT_DTYPE_INVALID;
  tilertDType DType = detail::parseDType(It->get<std::string>());
  bool Supported = DType == TILERT_DTYPE_F32 || DType == TILERT_DTYPE_F16 ||
                   DType == TILERT_DTYPE_BF16;
  return Supported ? DType : TILERT_DTYPE_INVALID;
}

std::string checkSignature(const detail::KernelMetadata &metadata,
                           const ElementwiseRef &ref) {
  tilertDType DType = elementwiseDType(metadata);
  if (DType == TILERT_DTYPE_INVALID)
    return "constants.dtype is missing or not f32, f16 or bf16";
  if (metadata.Tensors.size() != ref.NumInputs + 1)
    return detail::strCat("expected ", ref.NumInputs + 1, " tensors, found ",
                          metadata.Tensors.size());
  if (metadata.Dims.size() != 1)
    return detail::strCat("expected one dim, found ", metadata.Dims.size());
  for (const detail::TensorParam &Tensor : metadata.Tensors)
    if (Tensor.DType != DType || Tensor.Shape.size() != 1 ||
        Tensor.Shape[0].Dim != 0)
      return detail::strCat("tensor '", Tensor.Name, "' is not ",
                            detail::dtypeName(DType), "[", metadata.Dims[0],
                            "]");
  if (metadata.Scalars.size() != ref.Scalars.size())
    return detail::strCat("expected ", ref.Scalars.size(), " scalars, found ",
                          metadata.Scalars.size());
  for (size_t I = 0; I < ref.Scalars.size(); ++I)
    if (metadata.Scalars[I].Name != ref.Scalars[I] ||
        metadata.Scalars[I].DType != TILERT_DTYPE_F32)
      return detail::strCat("scalar ", I, " is not '", ref.Scalars[I],
                            ": f32'");
  return "";
}

Tolerance toleranceFor(tilertDType dtype) {
  switch (dtype) {
  case TILERT_DTYPE_F16:
    return {std::ldexp(1.0, -9), 1e-7, 2e-2};
  case TILERT_DTYPE_BF16:
    return {std::ldexp(1.0, -6), 1e-30, 2e-2};
  default:
    return {1e-6, 1e-30, 1e-5};
  }
}

} // namespace tilert::gputest
