//===- OutputCheck.h - Validating a variant against a reference -*- C++ -*-===//
//
// The benchmark phase validates every variant before timing it: the tensors
// a kernel writes are filled with NaN (those it only writes) or restored to
// their random initial contents (those it reads and writes) before each
// validation run, copied back afterwards, and compared with the reference
// variant's, element type by element type, with the tutorial's relative
// Frobenius norm ||out - ref|| / ||ref||. A NaN in one and not the other
// (an element left unwritten, say) is a mismatch of its own.
//
//===----------------------------------------------------------------------===//

#ifndef TILEBENCH_OUTPUTCHECK_H
#define TILEBENCH_OUTPUTCHECK_H

#include "DeviceTensors.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilebench {

/// What a kernel does to a tensor parameter (metadata `access`).
enum class TensorAccess { Read, Write, ReadWrite };

/// The access of each of the `count` tensor parameters the metadata JSON at
/// `metadataPath` lists, in order: ReadWrite where the key is missing (older
/// metadata). Throws BenchError if the file cannot be read or parsed.
std::vector<TensorAccess> readTensorAccess(const std::string &metadataPath,
                                           size_t count);

/// The host copies of the tensors a kernel wrote, one per written tensor
/// parameter (empty for those it only reads).
using TensorContents = std::vector<std::vector<char>>;

/// Prepares a set of device tensors for validation runs and reads back what
/// a run wrote.
class ValidationTensors {
public:
  /// Keeps a device copy of each read-write tensor of `tensors` (which must
  /// outlive this object). Throws BenchError on a driver error.
  ValidationTensors(const tilert::detail::DriverApi &api,
                    const DeviceTensors &tensors,
                    std::vector<TensorAccess> access);

  /// Fills the write-only tensors with NaN (all bits set: a NaN in every
  /// floating-point type, -1 in integers) and restores the read-write ones,
  /// then waits for the device.
  void reset() const;

  /// Copies every written tensor to the host (after a run has finished)
  /// into `contents`, reusing its buffers.
  void read(TensorContents &contents) const;

  /// Checks that a run (of the reference) wrote every element of each
  /// floating-point tensor it only writes: returns "" if so, else a message
  /// naming the first tensor of `contents` (from read()) that still holds the
  /// all-bits-set fill of reset(), which no arithmetic produces (NVIDIA
  /// GPUs write the canonical NaN, sign bit clear).
  std::string findUnwritten(const std::vector<tilert::TensorParam> &params,
                            const TensorContents &contents) const;

private:
  const tilert::detail::DriverApi &Api;
  const DeviceTensors &Tensors;
  std::vector<TensorAccess> Access;
  std::vector<tilert::support::DeviceBuffer> Initial;
};

/// Compares what a run wrote with the reference's. Returns "" if every
/// written tensor matches (relative Frobenius error <= `tolerance` for
/// floating-point tensors, equality for integers and booleans, NaNs in the
/// same places), else a message naming the first tensor that does not.
std::string compareOutputs(const std::vector<tilert::TensorParam> &params,
                           const TensorContents &reference,
                           const TensorContents &output, double tolerance);

} // namespace tilebench

#endif // TILEBENCH_OUTPUTCHECK_H
