//===- HostOverhead.h - The host time of a launch ---------------*- C++ -*-===//
//
// What a launch costs the calling thread, measured as the tutorial does for
// PyTorch: rounds of back-to-back launches, wall clock around each round with
// no synchronization inside it, the stream synchronized between rounds; then
// one more round with a clock read around each launch, whose median is the
// median launch.
//
//===----------------------------------------------------------------------===//

#ifndef TILEBENCH_HOSTOVERHEAD_H
#define TILEBENCH_HOSTOVERHEAD_H

#include "Driver.h"

#include <functional>
#include <vector>

namespace tilebench {

/// Host microseconds per launch, per round.
struct HostOverhead {
  /// Each round's wall-clock time divided by its launches, in run order.
  std::vector<double> MicrosPerLaunch;
  double Median = 0;
  double Min = 0;
  double Max = 0;
  /// The median of the individually timed launches of the last round (each
  /// time includes one read of the clock).
  double SingleMedian = 0;
};

/// Runs `launch` (which enqueues on `stream`) `warmup` times, then `rounds`
/// rounds of `launches` calls each, timing each round with a steady clock,
/// then one round of `launches` calls timed one by one; `stream` is
/// synchronized after the warmup and after each round, outside the timed
/// part. Throws BenchError on a CUDA error.
HostOverhead measureHostOverhead(const tilert::detail::DriverApi &api,
                                 CUstream stream, int warmup, int rounds,
                                 int launches,
                                 const std::function<void()> &launch);

} // namespace tilebench

#endif // TILEBENCH_HOSTOVERHEAD_H
