//===- Timing.h - Timing launches with CUDA events --------------*- C++ -*-===//

#ifndef TILEBENCH_TIMING_H
#define TILEBENCH_TIMING_H

#include "Driver.h"

#include <functional>
#include <vector>

namespace tilebench {

/// Per-repetition times of a timed run.
struct Timings {
  /// Each repetition's time, in milliseconds, in run order.
  std::vector<double> Milliseconds;
  double Median = 0;
  double Min = 0;
  double Max = 0;
};

/// Runs `launch` (which enqueues on `stream`) `warmup` times, then `reps`
/// times each between two CUDA events, and returns the event times. Throws
/// BenchError on a CUDA error, including one a launch causes on the device.
Timings timeLaunches(const tilert::detail::DriverApi &api, CUstream stream,
                     int warmup, int reps, const std::function<void()> &launch);

} // namespace tilebench

#endif // TILEBENCH_TIMING_H
