//===- ElementwiseRefs.h - Host references of elementwise specs -*- C++ -*-===//
//
// The table that maps an elementwise kernel (metadata `name`) to its host
// reference. To cover a new spec, add one entry to the table in
// ElementwiseRefs.cpp: its tensor counts, f32 scalars, input range and the
// per-element formula.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_TEST_GPU_ELEMENTWISEREFS_H
#define TILERT_TEST_GPU_ELEMENTWISEREFS_H

#include "Metadata.h"

#include <string>
#include <string_view>
#include <vector>

namespace tilert::gputest {

/// The reference of one elementwise spec: `NumInputs` input tensors, then one
/// output tensor, all `dtype[N]`, then f32 scalars named `Scalars`.
struct ElementwiseRef {
  /// The kernel's name in its metadata.
  const char *Name;
  /// Input tensors, which come first among the tensor parameters.
  size_t NumInputs;
  /// The f32 scalar parameters, in order.
  std::vector<std::string> Scalars;
  /// Range of the random inputs and scalars.
  float InputLow, InputHigh;
  float ScalarLow, ScalarHigh;
  /// The output for upcast `inputs` and `scalars`, computed in double. Sets
  /// `magnitude` to the scale that rounding errors are relative to.
  double (*Compute)(const double *inputs, const double *scalars,
                    double &magnitude);
};

/// Returns the reference for the kernel named `name`, or nullptr.
const ElementwiseRef *findElementwiseRef(std::string_view name);

/// The element type a kernel computes in: its `constants.dtype` (which must
/// be f32, f16 or bf16). Returns TILERT_DTYPE_INVALID otherwise.
tilertDType elementwiseDType(const detail::KernelMetadata &metadata);

/// Checks that `metadata` has `ref`'s signature (tensors `dtype[N]` of the
/// kernel's dtype, then f32 scalars with the reference's names). Returns ""
/// or what differs.
std::string checkSignature(const detail::KernelMetadata &metadata,
                           const ElementwiseRef &ref);

/// Error bounds for outputs stored as `dtype`. Errors are measured against
/// the magnitude of the terms (ElementwiseRef::Compute), not the result:
/// a result that cancels to nearly 0 (scale_add) or a gelu tail legitimately
/// carries the rounding error of its larger terms.
struct Tolerance {
  /// Per element: |out - ref| <= Atol + Rtol * magnitude.
  double Rtol;
  double Atol;
  /// Over the tensor: ||out - ref|| / ||magnitude|| <= Frobenius.
  double Frobenius;
};

/// Returns the tolerance for outputs stored as `dtype`.
Tolerance toleranceFor(tilertDType dtype);

} // namespace tilert::gputest

#endif // TILERT_TEST_GPU_ELEMENTWISEREFS_H
