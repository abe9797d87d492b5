//===- ElementwiseRun.h - One checked elementwise launch --------*- C++ -*-===//

#ifndef TILERT_TEST_GPU_ELEMENTWISERUN_H
#define TILERT_TEST_GPU_ELEMENTWISERUN_H

#include "DeviceBuffer.h"
#include "ElementwiseRefs.h"

#include "tilert/tilert.hpp"

#include <string>
#include <vector>

namespace tilert::gputest {

/// What every GPU test uses: the driver, device 0's primary context (current
/// on the threads that run tests) and a stream in it.
struct GpuContext {
  const detail::DriverApi *Api = nullptr;
  int Device = 0;
  CUcontext Context = nullptr;
  CUstream Stream = nullptr;
  int CcMajor = 0;
  int CcMinor = 0;
  std::string Name;
};

/// The outcome of checking an output against its reference.
struct ElementwiseResult {
  bool Passed = false;
  /// Statistics, or why the run failed.
  std::string Detail;
  size_t Mismatches = 0;
  double MaxAbsError = 0;
  /// ||out - ref|| / ||magnitude|| (see Tolerance).
  double RelFrobenius = 0;
};

/// The tensors of one elementwise launch: inputs with fresh random values,
/// the output poisoned with NaN so that unwritten elements cannot pass.
class ElementwiseRun {
public:
  /// Describes a run of `ref` on `n` elements of `dtype`; seeds the inputs
  /// and scalars from `seed`.
  ElementwiseRun(const GpuContext &gpu, const ElementwiseRef &ref,
                 tilertDType dtype, int64_t n, uint64_t seed);

  /// Generates the inputs, allocates and uploads them and poisons the
  /// output. Must precede everything else.
  detail::Status prepare();

  /// DLTensors for the inputs then the output (copies the caller may alter).
  std::vector<DLTensor> tensors() const;

  /// The scalar arguments.
  const std::vector<tilert::Scalar> &scalars() const { return Scalars; }

  /// Downloads the output and compares every element with the reference.
  ElementwiseResult verify() const;

  /// Downloads the output; sets `poisoned` if every element is still NaN.
  detail::Status outputPoisoned(bool &poisoned) const;

private:
  detail::Status download(std::vector<char> &host) const;

  const GpuContext &Gpu;
  const ElementwiseRef &Ref;
  tilertDType DType;
  int64_t Count;
  uint64_t Seed;
  size_t ElementSize;
  std::vector<int64_t> Shape;
  std::vector<std::vector<char>> HostInputs;
  std::vector<double> ScalarValues;
  std::vector<tilert::Scalar> Scalars;
  /// The inputs, then the output.
  std::vector<support::DeviceBuffer> Buffers;
};

/// Runs `kernel` on `n` elements through ElementwiseRun on `gpu.Stream` and
/// checks the output.
ElementwiseResult runElementwise(const GpuContext &gpu,
                                 const tilert::Kernel &kernel,
                                 const ElementwiseRef &ref, tilertDType dtype,
                                 int64_t n, uint64_t seed);

} // namespace tilert::gputest

#endif // TILERT_TEST_GPU_ELEMENTWISERUN_H
