//===- KernelRun.h - One checked launch of a test kernel --------*- C++ -*-===//

#ifndef TILERT_TEST_GPU_KERNELRUN_H
#define TILERT_TEST_GPU_KERNELRUN_H

#include "DeviceBuffer.h"
#include "GpuContext.h"
#include "KernelDirectory.h"

#include "tilert/tilert.hpp"

#include <string>
#include <vector>

namespace tilert::gputest {

/// The outcome of a launch: every output against the reference, the guard
/// regions and the inputs.
struct RunResult {
  bool Passed = false;
  /// Statistics per output, or everything that went wrong.
  std::string Detail;
  /// Over all outputs.
  size_t Mismatches = 0;
  double MaxAbsError = 0;
  double RelFrobenius = 0;
};

/// The tensors of one launch of a kernel with a reference: every tensor sits
/// between two guard regions of GuardBytes filled with GuardFill, inputs hold
/// fresh random values, outputs are poisoned (poisonBits) so that unwritten
/// elements cannot pass.
class KernelRun {
public:
  /// Describes a launch of `kernel` (which must have a reference and its
  /// signature) with `dims` (in the reference's order); seeds the inputs and
  /// scalars from `seed`.
  KernelRun(const GpuContext &gpu, const KernelFile &kernel,
            std::vector<int64_t> dims, uint64_t seed);

  /// Generates the inputs and scalars, allocates and fills every tensor and
  /// its guards. Must precede everything else.
  detail::Status prepare();

  /// DLTensors in parameter order (copies the caller may alter).
  std::vector<DLTensor> tensors() const;

  /// The scalar arguments.
  const std::vector<tilert::Scalar> &scalars() const { return Scalars; }

  /// Downloads everything and checks the guards, that the inputs are
  /// unchanged and every output element against the reference.
  RunResult verify() const;

  /// Sets `untouched` if every guard is intact and every output element
  /// still holds the poison (nothing was launched); `why` says what changed.
  detail::Status untouched(bool &untouched, std::string &why) const;

private:
  detail::Status download(size_t tensor, size_t offset, size_t bytes,
                          std::vector<char> &host) const;
  /// Checks both guards of every tensor; appends problems to `problems`.
  detail::Status checkGuards(std::vector<std::string> &problems) const;

  const GpuContext &Gpu;
  const KernelFile &Kernel;
  std::vector<int64_t> Dims;
  uint64_t Seed;
  std::vector<std::vector<int64_t>> Shapes;
  std::vector<size_t> Bytes;
  /// The input elements (empty for outputs).
  std::vector<std::vector<char>> HostInputs;
  std::vector<double> ScalarValues;
  std::vector<tilert::Scalar> Scalars;
  /// Per tensor: guard, elements, guard.
  std::vector<support::DeviceBuffer> Buffers;
};

/// `dims` of `metadata` as text ("M=7 N=13").
std::string formatDims(const detail::KernelMetadata &metadata,
                       const std::vector<int64_t> &dims);

/// Runs `kernel` (loaded from `file`) with `dims` through KernelRun on
/// `gpu.Stream` and checks the result.
RunResult runKernel(const GpuContext &gpu, const tilert::KernelView &kernel,
                    const KernelFile &file, const std::vector<int64_t> &dims,
                    uint64_t seed);

/// Runs `package` (whose variants have `file`'s signature) with `dims`
/// through KernelRun on `gpu.Stream`, dispatching as tilertPackageLaunch
/// does, and checks the result against `file`'s reference.
RunResult runPackage(const GpuContext &gpu, const tilert::Package &package,
                     const KernelFile &file, const std::vector<int64_t> &dims,
                     uint64_t seed);

} // namespace tilert::gputest

#endif // TILERT_TEST_GPU_KERNELRUN_H
