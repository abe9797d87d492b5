//===- Timing.cpp - Timing launches with CUDA events ----------------------===//

#include "Timing.h"

#include "Workload.h"

#include <algorithm>

namespace tilebench {

namespace {

void check(const tilert::detail::DriverApi &api, CUresult result,
           const char *call) {
  tilebench::check(tilert::detail::checkCu(api, result, call));
}

/// CUDA events for every repetition, destroyed with the object.
class EventPairs {
public:
  EventPairs(const tilert::detail::DriverApi &api, int count) : Api(api) {
    for (int I = 0; I < 2 * count; ++I) {
      CUevent Event;
      check(Api, Api.cuEventCreate(&Event, CU_EVENT_DEFAULT), "cuEventCreate");
      Events.push_back(Event);
    }
  }
  EventPairs(const EventPairs &) = delete;
  EventPairs &operator=(const EventPairs &) = delete;
  ~EventPairs() {
    for (CUevent Event : Events)
      Api.cuEventDestroy(Event);
  }
  CUevent start(int rep) const { return Events[2 * rep]; }
  CUevent stop(int rep) const { return Events[2 * rep + 1]; }

private:
  const tilert::detail::DriverApi &Api;
  std::vector<CUevent> Events;
};

} // namespace

Timings timeLaunches(const tilert::detail::DriverApi &api, CUstream stream,
                     int warmup, int reps,
                     const std::function<void()> &launch) {
  for (int I = 0; I < warmup; ++I)
    launch();
  check(api, api.cuStreamSynchronize(stream), "cuStreamSynchronize (warmup)");
  EventPairs Events(api, reps);
  for (int I = 0; I < reps; ++I) {
    check(api, api.cuEventRecord(Events.start(I), stream), "cuEventRecord");
    launch();
    check(api, api.cuEventRecord(Events.stop(I), stream), "cuEventRecord");
  }
  check(api, api.cuStreamSynchronize(stream), "cuStreamSynchronize");
  Timings Result;
  for (int I = 0; I < reps; ++I) {
    float Ms = 0;
    check(api, api.cuEventElapsedTime(&Ms, Events.start(I), Events.stop(I)),
          "cuEventElapsedTime");
    Result.Milliseconds.push_back(Ms);
  }
  std::vector<double> Sorted = Result.Milliseconds;
  std::sort(Sorted.begin(), Sorted.end());
  size_t Mid = Sorted.size() / 2;
  Result.Median =
      Sorted.size() % 2 ? Sorted[Mid] : (Sorted[Mid - 1] + Sorted[Mid]) / 2;
  Result.Min = Sorted.front();
  Result.Max = Sorted.back();
  return Result;
}

} // namespace tilebench
