//===- KernelRef.h - The host reference of a test kernel --------*- C++ -*-===//
//
// What the GPU tests know about a kernel they check: its expected signature,
// how to generate its inputs and scalars, the shapes to run it at, and a
// formula for every output element, evaluated on the host in double. The
// references themselves are in KernelRefs.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_TEST_GPU_KERNELREF_H
#define TILERT_TEST_GPU_KERNELREF_H

#include "Metadata.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace tilert::gputest {

/// A tensor parameter of a reference's signature.
struct RefTensor {
  /// The parameter's name.
  const char *Name;
  /// Its dtype ("f32"), or the name of the compile-time constant that holds
  /// it ("dtype").
  const char *DType;
  /// The names of its dims, outermost first.
  std::vector<const char *> Shape;
  /// Whether the kernel writes it (otherwise it is a random input).
  bool Output;
};

/// A scalar parameter of a reference's signature, drawn at random.
struct RefScalar {
  /// The parameter's name.
  const char *Name;
  /// f32, or i32 (then a whole number).
  tilertDType DType;
  /// The range the value is drawn from.
  double Low, High;
};

/// How outputs are compared with the reference.
enum class Accuracy {
  /// Equal to the reference, which gives the value as stored in the output
  /// dtype.
  Exact,
  /// Within the rounding tolerance of the output dtype (toleranceFor).
  Rounded,
};

/// The inputs of one launch, as a reference reads them: every tensor's
/// elements exactly as stored, the scalars and the dims.
class RefInputs {
public:
  /// A view of tensors of `dtypes` and `shapes` whose elements are at
  /// `data` (nullptr for outputs), with `scalars` and `dims` (in the
  /// reference's order). Keeps references to all of them.
  RefInputs(const std::vector<tilertDType> &dtypes,
            const std::vector<std::vector<int64_t>> &shapes,
            const std::vector<const char *> &data,
            const std::vector<double> &scalars,
            const std::vector<int64_t> &dims);

  /// The element of input tensor `tensor` at `coords` (one per dim); NaN
  /// (which never matches) for an output or coordinates out of bounds.
  double at(size_t tensor, std::initializer_list<int64_t> coords) const;

  /// The value of scalar `index`.
  double scalar(size_t index) const { return Scalars[index]; }

  /// The value of dim `index`.
  int64_t dim(size_t index) const { return Dims[index]; }

  /// The dtype of tensor `tensor`.
  tilertDType dtype(size_t tensor) const { return DTypes[tensor]; }

private:
  const std::vector<tilertDType> &DTypes;
  const std::vector<std::vector<int64_t>> &Shapes;
  const std::vector<const char *> &Data;
  const std::vector<double> &Scalars;
  const std::vector<int64_t> &Dims;
};

/// The reference of one kernel, matched by its metadata `name`.
struct KernelRef {
  /// The kernel's name.
  const char *Name;
  /// Its tensor parameters, in order.
  std::vector<RefTensor> Tensors;
  /// Its symbolic dims, in ABI order (first appearance).
  std::vector<const char *> Dims;
  /// Its scalar parameters, in order.
  std::vector<RefScalar> Scalars;
  /// The range random input elements are drawn from (whole numbers for
  /// integer tensors).
  double InputLow, InputHigh;
  /// The values of `Dims` the kernel is run at, one vector per launch.
  std::vector<std::vector<int64_t>> Shapes;
  /// How outputs are compared.
  Accuracy Compare;
  /// The element at `coords` of output tensor `output` (an index into
  /// Tensors). Exact: the value as stored in the output's dtype. Rounded: the
  /// exact result, and `magnitude` the scale its rounding errors are
  /// relative to (the sum of the terms' magnitudes, so that a result that
  /// cancels to nearly 0 is not held to a relative bound).
  double (*Compute)(const RefInputs &in, size_t output, const int64_t *coords,
                    double &magnitude);
};

/// Error bounds for Rounded outputs stored as a dtype.
struct Tolerance {
  /// Per element: |out - ref| <= Atol + Rtol * magnitude.
  double Rtol;
  double Atol;
  /// Over the tensor: ||out - ref|| / ||magnitude|| <= Frobenius.
  double Frobenius;
};

/// Returns the tolerance for Rounded outputs stored as `dtype`.
Tolerance toleranceFor(tilertDType dtype);

/// Returns the reference of the kernel named `name`, or nullptr.
const KernelRef *findKernelRef(std::string_view name);

/// Every reference (to find those no compiled kernel uses).
const std::vector<KernelRef> &allKernelRefs();

/// Checks that `metadata` has `ref`'s signature: tensor names, dtypes (a
/// constant's dtype resolved from metadata.constants) and dims, the dims in
/// order, the scalars' names and dtypes, and that every dtype is one the
/// tests support. Sets `dtypes` to the tensors' dtypes. Returns "" or what
/// differs.
std::string checkSignature(const detail::KernelMetadata &metadata,
                           const KernelRef &ref,
                           std::vector<tilertDType> &dtypes);

} // namespace tilert::gputest

#endif // TILERT_TEST_GPU_KERNELREF_H
