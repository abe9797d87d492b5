//===- TileBench.cpp - Run and time a compiled kernel ---------------------===//
//
// tile-bench out/vector_add.sm_90a.json --dim N=268435456 [--scalar a=1.5]
//            [--warmup 10] [--reps 50] [--flops EXPR] [--json FILE]
//            [--launch-overhead [--launches 2000]]
// tile-bench tune PACKAGE [...]            (Tune.h: the benchmark phase)
//
// Allocates every tensor the metadata describes (random contents), launches
// the kernel through libtilert, times it with CUDA events and prints the
// median time, the bandwidth over the sum of the tensor sizes and, with
// --flops, the TFLOP/s of the given FLOP model. With --launch-overhead it
// measures the host time of a launch instead (HostOverhead.h): --reps rounds
// of --launches back-to-back launches, and the median of --launches launches
// timed one by one.
//
//===----------------------------------------------------------------------===//

#include "DeviceContext.h"
#include "DeviceTensors.h"
#include "DriverFloor.h"
#include "HostOverhead.h"
#include "Timing.h"
#include "Tune.h"
#include "Workload.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>

using namespace tilebench;
using tilert::detail::DriverApi;

namespace {

struct Options {
  std::string JsonPath;
  std::vector<std::string> Dims;
  std::vector<std::string> Scalars;
  int Warmup = 10;
  int Reps = 50;
  int Device = 0;
  bool LaunchOverhead = false;
  int Launches = 2000;
  std::string Flops;
  std::string Output;
  uint64_t Seed = 0;
};

std::string describeGrid(const tilertKernelInfo &info) {
  return std::string(info.grid[0]) + " x " + info.grid[1] + " x " +
         info.grid[2];
}

/// Prints the dims and scalars a run used.
void printWorkload(const Workload &work) {
  std::string Dims;
  for (size_t I = 0; I < work.DimNames.size(); ++I)
    Dims += (I ? " " : "") + work.DimNames[I] + "=" +
            std::to_string(work.DimValues[I]);
  std::printf("  dims: %s\n", Dims.empty() ? "none" : Dims.c_str());
  for (size_t I = 0; I < work.ScalarNames.size(); ++I)
    std::printf("  scalar %s = %s\n", work.ScalarNames[I].c_str(),
                work.ScalarText[I].c_str());
}

/// Writes `result` to `path` (--json).
void writeJson(const std::string &path, const nlohmann::json &result) {
  std::ofstream Out(path);
  Out << result.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
      << "\n";
  if (!Out)
    throw BenchError("cannot write --json " + path);
}

/// --launch-overhead: the host time per launch of tilert::Kernel::launch,
/// and the driver's own (DriverFloor.h) beside it.
int runLaunchOverhead(const Options &options, const tilert::Kernel &kernel,
                      const Workload &work, const std::string &deviceName,
                      const DriverApi &api, CUstream stream,
                      const std::vector<const DLTensor *> &arguments) {
  HostOverhead Overhead = measureHostOverhead(
      api, stream, options.Warmup, options.Reps, options.Launches,
      [&] { kernel.launch(arguments, work.Scalars, stream); });
  tilertKernelInfo Info = kernel.info();
  std::printf("%s (%s, %s) on CUDA device %d (%s)\n", Info.name,
              options.JsonPath.c_str(), Info.arch, options.Device,
              deviceName.c_str());
  printWorkload(work);
  std::printf("  host time per launch: median %.3f us (min %.3f, max %.3f) "
              "over %d rounds of %d launches after %d warmup\n",
              Overhead.Median, Overhead.Min, Overhead.Max, options.Reps,
              options.Launches, options.Warmup);
  std::printf("  median of %d launches timed one by one: %.3f us\n",
              options.Launches, Overhead.SingleMedian);
  HostOverhead Floor = measureDriverFloor(api, stream, options.Warmup,
                                          options.Reps, options.Launches);
  std::printf("  the driver alone (cuLaunchKernelEx of an empty kernel): "
              "median %.3f us, one by one %.3f us\n",
              Floor.Median, Floor.SingleMedian);
  if (!options.Output.empty()) {
    nlohmann::json Result = {
        {"kernel", Info.name},
        {"json", options.JsonPath},
        {"arch", Info.arch},
        {"device", deviceName},
        {"dims", nlohmann::json::object()},
        {"warmup", options.Warmup},
        {"rounds", options.Reps},
        {"launches_per_round", options.Launches},
        {"host_us_per_launch", Overhead.MicrosPerLaunch},
        {"median_us", Overhead.Median},
        {"min_us", Overhead.Min},
        {"max_us", Overhead.Max},
        {"single_launch_median_us", Overhead.SingleMedian},
        {"driver_median_us", Floor.Median},
        {"driver_single_launch_median_us", Floor.SingleMedian},
    };
    for (size_t I = 0; I < work.DimNames.size(); ++I)
      Result["dims"][work.DimNames[I]] = work.DimValues[I];
    writeJson(options.Output, Result);
  }
  return 0;
}

int run(const Options &options) {
  tilert::Kernel Kernel(options.JsonPath);
  tilertKernelInfo Info = Kernel.info();
  std::vector<tilert::TensorParam> Params = Kernel.tensors();
  Workload Work = resolveWorkload(Kernel, options.Dims, options.Scalars);
  std::optional<int64_t> Flops;
  if (!options.Flops.empty())
    Flops = evaluateFlops(options.Flops, Work);

  const DriverApi *Api = nullptr;
  check(tilert::detail::getDriver(Api));
  PrimaryContext Context(*Api, options.Device);
  Kernel.prepare(options.Device);
  uint64_t Seed =
      options.Seed
          ? options.Seed
          : static_cast<uint64_t>(
                std::chrono::steady_clock::now().time_since_epoch().count());
  DeviceTensors Tensors(*Api, Params, Work, options.Device, Seed);
  Stream Launches(*Api);
  std::vector<const DLTensor *> Arguments = Tensors.arguments();
  if (options.LaunchOverhead)
    return runLaunchOverhead(options, Kernel, Work, Context.name(), *Api,
                             Launches.get(), Arguments);
  Timings Times =
      timeLaunches(*Api, Launches.get(), options.Warmup, options.Reps, [&] {
        Kernel.launch(Arguments, Work.Scalars, Launches.get());
      });

  double Seconds = Times.Median * 1e-3;
  double GBps = Seconds > 0 ? double(Work.Bytes) / Seconds * 1e-9 : 0;
  std::printf("%s (%s, %s) on CUDA device %d (%s)\n", Info.name,
              options.JsonPath.c_str(), Info.arch, options.Device,
              Context.name().c_str());
  printWorkload(Work);
  std::printf("  grid: %s   block: %ux%ux%u\n", describeGrid(Info).c_str(),
              Info.block[0], Info.block[1], Info.block[2]);
  std::printf("  median %.4f ms (min %.4f, max %.4f) over %d reps after %d "
              "warmup\n",
              Times.Median, Times.Min, Times.Max, options.Reps, options.Warmup);
  std::printf("  %.1f GB/s (%llu bytes: the sum of the tensor sizes)\n", GBps,
              static_cast<unsigned long long>(Work.Bytes));
  double TFlops = 0;
  if (Flops) {
    TFlops = Seconds > 0 ? double(*Flops) / Seconds * 1e-12 : 0;
    std::printf("  %.2f TFLOP/s (FLOP model %s = %lld)\n", TFlops,
                options.Flops.c_str(), static_cast<long long>(*Flops));
  }

  if (!options.Output.empty()) {
    nlohmann::json Result = {
        {"kernel", Info.name},
        {"json", options.JsonPath},
        {"arch", Info.arch},
        {"device", Context.name()},
        {"dims", nlohmann::json::object()},
        {"scalars", nlohmann::json::object()},
        {"warmup", options.Warmup},
        {"reps", options.Reps},
        {"times_ms", Times.Milliseconds},
        {"median_ms", Times.Median},
        {"min_ms", Times.Min},
        {"max_ms", Times.Max},
        {"bytes", Work.Bytes},
        {"gbps", GBps},
    };
    for (size_t I = 0; I < Work.DimNames.size(); ++I)
      Result["dims"][Work.DimNames[I]] = Work.DimValues[I];
    for (size_t I = 0; I < Work.ScalarNames.size(); ++I)
      Result["scalars"][Work.ScalarNames[I]] = Work.ScalarText[I];
    if (Flops) {
      Result["flops_model"] = options.Flops;
      Result["flops"] = *Flops;
      Result["tflops"] = TFlops;
    }
    writeJson(options.Output, Result);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && std::string(argv[1]) == "tune")
    return runTune(argc, argv);
  Options Opts;
  CLI::App App{"Run and time a kernel compiled by tilec, through libtilert."};
  App.add_option("kernel", Opts.JsonPath, "The kernel's metadata JSON")
      ->required();
  App.add_option("--dim", Opts.Dims,
                 "NAME=VALUE for each dim (VALUE: an integer expression)");
  App.add_option("--scalar", Opts.Scalars, "NAME=VALUE for each scalar");
  App.add_option("--warmup", Opts.Warmup, "Untimed launches first (10)")
      ->check(CLI::Range(0, 1000000));
  App.add_option("--reps", Opts.Reps, "Timed launches (50)")
      ->check(CLI::Range(1, 1000000));
  App.add_option("--device", Opts.Device, "CUDA device ordinal (0)")
      ->check(CLI::Range(0, 1023));
  App.add_option("--flops", Opts.Flops,
                 "FLOP model, an integer expression over the dims (2*M*N*K)");
  App.add_option("--json", Opts.Output, "Write the results as JSON to FILE");
  App.add_option("--seed", Opts.Seed, "Seed of the random inputs (0: time)");
  App.add_flag("--launch-overhead", Opts.LaunchOverhead,
               "Measure the host time per launch instead: --reps rounds of "
               "--launches back-to-back launches, wall clock, then the "
               "median of --launches launches timed one by one");
  App.add_option("--launches", Opts.Launches,
                 "Launches per round of --launch-overhead (2000)")
      ->check(CLI::Range(1, 100000000));
  CLI11_PARSE(App, argc, argv);
  try {
    return run(Opts);
  } catch (const std::exception &Error) { // BenchError, tilert::Error, ...
    std::fprintf(stderr, "tile-bench: error: %s\n", Error.what());
    return 1;
  }
}
