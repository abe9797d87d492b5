//===- HostOverhead.cpp - The host time of a launch -----------------------===//

#include "HostOverhead.h"

#include "Workload.h"

#include <algorithm>
#include <chrono>

namespace tilebench {

HostOverhead measureHostOverhead(const tilert::detail::DriverApi &api,
                                 CUstream stream, int warmup, int rounds,
                                 int launches,
                                 const std::function<void()> &launch) {
  auto Synchronize = [&] {
    check(tilert::detail::checkCu(api, api.cuStreamSynchronize(stream),
                                  "cuStreamSynchronize"));
  };
  for (int I = 0; I < warmup; ++I)
    launch();
  Synchronize();
  HostOverhead Result;
  for (int Round = 0; Round < rounds; ++Round) {
    auto Start = std::chrono::steady_clock::now();
    for (int I = 0; I < launches; ++I)
      launch();
    auto Stop = std::chrono::steady_clock::now();
    Synchronize();
    double Micros =
        std::chrono::duration<double, std::micro>(Stop - Start).count();
    Result.MicrosPerLaunch.push_back(Micros / launches);
  }
  std::vector<double> Sorted = Result.MicrosPerLaunch;
  std::sort(Sorted.begin(), Sorted.end());
  Result.Median = Sorted[Sorted.size() / 2];
  Result.Min = Sorted.front();
  Result.Max = Sorted.back();

  std::vector<double> Single(static_cast<size_t>(launches));
  for (double &Micros : Single) {
    auto Start = std::chrono::steady_clock::now();
    launch();
    auto Stop = std::chrono::steady_clock::now();
    Micros = std::chrono::duration<double, std::micro>(Stop - Start).count();
  }
  Synchronize();
  std::sort(Single.begin(), Single.end());
  Result.SingleMedian = Single[Single.size() / 2];
  return Result;
}

} // namespace tilebench
