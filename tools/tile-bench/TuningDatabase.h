//===- TuningDatabase.h - Writing a package's tuning.json -------*- C++ -*-===//
//
// The benchmark phase's result, `tilec.tuning/1` (docs/tuning.md): per
// device name, the best variant of the package for each tuned shape, with
// its time, the runner-up and the default's time. The runtime's dispatch
// reads it (docs/runtime.md).
//
//===----------------------------------------------------------------------===//

#ifndef TILEBENCH_TUNINGDATABASE_H
#define TILEBENCH_TUNINGDATABASE_H

#include "TunablePackage.h"

#include <optional>
#include <string>
#include <vector>

namespace tilebench {

/// A variant's time at one shape.
struct TimedVariant {
  std::string Name;
  std::string Arch;
  double MedianMs = 0;
};

/// An excluded variant and why.
struct ExcludedVariant {
  std::string Name;
  std::string Arch;
  std::string Reason;
};

/// The outcome of tuning one shape on one kind of device.
struct TunedShape {
  DimValues Dims;
  /// The fastest and second fastest valid variants, and the default.
  std::optional<TimedVariant> Best;
  std::optional<TimedVariant> RunnerUp;
  std::optional<TimedVariant> Default;
  /// The final round's finalists at their final medians, fastest first
  /// (empty without one).
  std::vector<TimedVariant> FinalRound;
  /// Variants tried, and validated and timed.
  size_t Candidates = 0;
  size_t Measured = 0;
  std::vector<ExcludedVariant> Excluded;
};

/// The outcome of tuning on every device of one name.
struct TunedDevice {
  /// cuDeviceGetName, and the compute capability as `sm_XY`.
  std::string Device;
  std::string Arch;
  /// The ordinals that measured.
  std::vector<int> Ordinals;
  int Warmup = 0;
  int Reps = 0;
  /// The final round: how many variants per shape, how many rounds.
  int Finalists = 0;
  int FinalRounds = 0;
  double Tolerance = 0;
  std::vector<TunedShape> Shapes;
};

/// Writes the database of `devices` to `path` (atomically), keeping the
/// entries of other device names of a database already there that was
/// measured for the same index.json. Returns a warning when an existing
/// file is replaced rather than merged, else "". Throws BenchError when the
/// file cannot be written.
std::string writeTuningDatabase(const std::string &path,
                                const TunablePackage &index,
                                const std::vector<TunedDevice> &devices);

} // namespace tilebench

#endif // TILEBENCH_TUNINGDATABASE_H
