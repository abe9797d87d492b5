//===- Tune.cpp - The benchmark phase of tuning ---------------------------===//

#include "Tune.h"

#include "DeviceContext.h"
#include "DeviceTensors.h"
#include "MeasurementCache.h"
#include "OutputCheck.h"
#include "Progress.h"
#include "Timing.h"
#include "TunablePackage.h"
#include "TuningDatabase.h"
#include "Workload.h"

#include "FileIO.h"
#include "Sha256.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>

namespace tilebench {

namespace {

using tilec::formatDuration;
using tilec::Progress;
using tilert::detail::checkCu;
using tilert::detail::DriverApi;

struct TuneOptions {
  std::string PackageDir;
  std::string Output;
  std::vector<int> Devices;
  std::vector<std::string> Shapes;
  std::vector<std::string> Scalars;
  int Warmup = 10;
  int Reps = 50;
  double TimeLimit = 10;
  double Tolerance = 2e-2;
  uint64_t Seed = 1;
  bool NoCache = false;
  std::string Flops;
  /// How many of a shape's fastest variants the final round times again.
  /// Eight in ten rounds ranked the variants of an 8192x8192x1024 GEMM the
  /// same in two runs; four in three did not (docs/tuning.md).
  int Finalists = 8;
  /// Interleaved rounds of `Reps` launches each of the final round.
  int FinalRounds = 10;
};

/// A variant of the package, loaded (or not) by libtilert.
struct Candidate {
  const TunableVariant *Variant = nullptr;
  std::unique_ptr<tilert::Kernel> Kernel;
  /// Why it could not be loaded; empty when Kernel is set.
  std::string LoadError;
  /// The sha256 of its metadata JSON (which holds its binaries' digests).
  std::string MetadataSha256;
};

/// The devices of one name, which share a list of jobs.
struct DeviceGroup {
  std::string Name;
  std::string Arch;
  std::vector<int> Ordinals;
  std::atomic<size_t> NextJob{0};
  /// The next shape of the final round.
  std::atomic<size_t> NextFinal{0};
  /// Per shape, per candidate.
  std::vector<std::vector<std::optional<Measurement>>> Results;
  /// Per shape: the finalists (candidate indices) and their final medians.
  std::vector<std::vector<std::pair<size_t, double>>> Finals;
  /// Per shape: the candidate used as the reference, or why there is none.
  std::vector<std::optional<size_t>> References;
  std::vector<std::string> ReferenceErrors;
  std::mutex Lock;
};

/// An error that ends the whole run (a device in an unusable state).
class FatalError : public BenchError {
public:
  using BenchError::BenchError;
};

/// Parses `M=16,N=8192` (--shape).
DimValues parseShape(const std::string &text) {
  DimValues Dims;
  size_t Begin = 0;
  while (Begin <= text.size()) {
    size_t End = text.find(',', Begin);
    if (End == std::string::npos)
      End = text.size();
    std::string Item = text.substr(Begin, End - Begin);
    size_t Equals = Item.find('=');
    char *Rest = nullptr;
    long long Value = Equals == std::string::npos
                          ? 0
                          : std::strtoll(Item.c_str() + Equals + 1, &Rest, 10);
    if (Equals == std::string::npos || Equals == 0 || !Rest || *Rest ||
        Value < 1)
      throw BenchError("--shape '" + text +
                       "': expected NAME=VALUE[,NAME=VALUE...] with values "
                       ">= 1");
    Dims.emplace_back(Item.substr(0, Equals), Value);
    Begin = End + 1;
  }
  return Dims;
}

/// The `--dim` arguments of `dims`.
std::vector<std::string> dimArguments(const DimValues &dims) {
  std::vector<std::string> Arguments;
  for (const auto &[Name, Value] : dims)
    Arguments.push_back(Name + "=" + std::to_string(Value));
  return Arguments;
}

std::string sha256OfFile(const std::string &path) {
  std::string Bytes;
  if (!tilert::detail::readFile(path, Bytes).ok())
    return "";
  return tilert::detail::sha256Hex(Bytes);
}

std::string formatMs(double ms) {
  char Text[32];
  std::snprintf(Text, sizeof(Text), "%.4f ms", ms);
  return Text;
}

/// Everything a measurement depends on, as text (MeasurementCache::keyOf).
std::string describeMeasurement(const TuneOptions &options,
                                const Candidate &candidate,
                                const Candidate &reference,
                                const DeviceGroup &group,
                                const DimValues &dims) {
  std::string Text = std::string("tile-bench ") + tilertGetVersion() + "\n";
  Text += "variant " + candidate.Variant->Name + " " + candidate.Variant->Arch +
          " " + candidate.MetadataSha256 + "\n";
  Text += "reference " + reference.MetadataSha256 + "\n";
  Text += "device " + group.Name + " " + group.Arch + "\n";
  Text += "dims " + describeDims(dims) + "\n";
  Text += "inputs normal(0, 1)\n";
  for (const std::string &Scalar : options.Scalars)
    Text += "scalar " + Scalar + "\n";
  char Method[160];
  std::snprintf(Method, sizeof(Method),
                "warmup %d reps %d tolerance %.17g seed %llu limit %.17g\n",
                options.Warmup, options.Reps, options.Tolerance,
                static_cast<unsigned long long>(options.Seed),
                options.TimeLimit);
  return Text + Method;
}

/// The tensors of one shape on one device, with the reference's output.
struct ShapeState {
  Workload Work;
  std::unique_ptr<DeviceTensors> Tensors;
  std::unique_ptr<ValidationTensors> Validation;
  std::vector<const DLTensor *> Arguments;
  TensorContents Reference;
  /// What the variant being validated wrote (its buffers reused).
  TensorContents Output;
};

/// Measures the candidates of one device group on one device.
class DeviceWorker {
public:
  DeviceWorker(const DriverApi &api, const TuneOptions &options,
               const std::vector<Candidate> &candidates,
               const std::vector<DimValues> &shapes, DeviceGroup &group,
               int ordinal, const MeasurementCache &cache, Progress &display)
      : Api(api), Options(options), Candidates(candidates), Shapes(shapes),
        Group(group), Ordinal(ordinal), Cache(cache), Display(display) {}

  /// Takes jobs (shape-major) until there are none left.
  void run();
  /// Takes shapes until there are none left and times each shape's
  /// finalists again, interleaved (the final round).
  void runFinalRounds();

private:
  /// Prepares the tensors of `shape` and runs the reference there.
  void enterShape(size_t shape);
  /// Measures candidate `index` at the current shape.
  Measurement measure(size_t index, bool &cached);
  /// Validates and times a loaded candidate.
  Measurement validateAndTime(const Candidate &candidate);
  /// Times the finalists of the current shape in interleaved rounds.
  void timeFinalists(const std::vector<size_t> &finalists);
  /// Launches `kernel` once and waits for it within the time limit; returns
  /// its time in milliseconds.
  double launchOnce(const tilert::Kernel &kernel, const std::string &what);
  std::string where() const {
    return Group.Name + " #" + std::to_string(Ordinal) + " " +
           describeDims(Shapes[CurrentShape]);
  }

  const DriverApi &Api;
  const TuneOptions &Options;
  const std::vector<Candidate> &Candidates;
  const std::vector<DimValues> &Shapes;
  DeviceGroup &Group;
  const int Ordinal;
  const MeasurementCache &Cache;
  Progress &Display;
  std::optional<Stream> Launches;
  size_t CurrentShape = SIZE_MAX;
  std::unique_ptr<ShapeState> State;
};

double DeviceWorker::launchOnce(const tilert::Kernel &kernel,
                                const std::string &what) {
  CUevent Start = nullptr, Stop = nullptr;
  check(checkCu(Api, Api.cuEventCreate(&Start, CU_EVENT_DEFAULT),
                "cuEventCreate"));
  check(checkCu(Api, Api.cuEventCreate(&Stop, CU_EVENT_DEFAULT),
                "cuEventCreate"));
  struct Events {
    const DriverApi &Api;
    CUevent A, B;
    ~Events() {
      Api.cuEventDestroy(A);
      Api.cuEventDestroy(B);
    }
  } Owner{Api, Start, Stop};
  check(
      checkCu(Api, Api.cuEventRecord(Start, Launches->get()), "cuEventRecord"));
  kernel.launch(State->Arguments, State->Work.Scalars, Launches->get());
  check(
      checkCu(Api, Api.cuEventRecord(Stop, Launches->get()), "cuEventRecord"));
  auto Begin = std::chrono::steady_clock::now();
  for (;;) {
    CUresult Result = Api.cuEventQuery(Stop);
    if (Result == CUDA_SUCCESS)
      break;
    if (Result != CUDA_ERROR_NOT_READY)
      throw FatalError(what + " failed on " + where() + ": " +
                       checkCu(Api, Result, "the kernel").message());
    double Waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin)
            .count();
    if (Waited > Options.TimeLimit)
      throw FatalError(
          what + " has run for more than the time limit (" +
          std::to_string(Options.TimeLimit) + " s) on " + where() +
          " and cannot be stopped; the run ends here (the measurement cache "
          "keeps what was measured)");
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  float Ms = 0;
  check(checkCu(Api, Api.cuEventElapsedTime(&Ms, Start, Stop),
                "cuEventElapsedTime"));
  return Ms;
}

void DeviceWorker::enterShape(size_t shape) {
  State.reset();
  CurrentShape = shape;
  std::optional<size_t> Reference;
  {
    std::lock_guard<std::mutex> Guard(Group.Lock);
    Reference = Group.References[shape];
  }
  if (!Reference)
    return;
  const Candidate &Default = Candidates[*Reference];
  auto Next = std::make_unique<ShapeState>();
  Next->Work = resolveWorkload(*Default.Kernel, dimArguments(Shapes[shape]),
                               Options.Scalars);
  std::vector<tilert::TensorParam> Params = Default.Kernel->tensors();
  Next->Tensors = std::make_unique<DeviceTensors>(Api, Params, Next->Work,
                                                  Ordinal, Options.Seed);
  Next->Validation = std::make_unique<ValidationTensors>(
      Api, *Next->Tensors,
      readTensorAccess(Default.Variant->MetadataPath, Params.size()));
  Next->Arguments = Next->Tensors->arguments();
  State = std::move(Next);
  try {
    Default.Kernel->prepare(Ordinal);
    State->Validation->reset();
    launchOnce(*Default.Kernel, "the reference " + Default.Variant->Name);
    State->Validation->read(State->Reference);
    std::string Unwritten =
        State->Validation->findUnwritten(Params, State->Reference);
    if (!Unwritten.empty())
      throw BenchError(Unwritten + ", so the other variants cannot be "
                                   "validated against it");
  } catch (const FatalError &) {
    throw;
  } catch (const std::exception &Error) {
    std::lock_guard<std::mutex> Guard(Group.Lock);
    Group.References[shape].reset();
    Group.ReferenceErrors[shape] = "the reference (the default variant " +
                                   Default.Variant->Name +
                                   ") failed: " + Error.what();
    State.reset();
  }
}

Measurement DeviceWorker::validateAndTime(const Candidate &candidate) {
  Measurement Result;
  const tilert::Kernel &Kernel = *candidate.Kernel;
  const std::string Name = candidate.Variant->Name;
  try {
    Kernel.prepare(Ordinal);
  } catch (const tilert::Error &Error) {
    Result.Reason =
        std::string("cannot run on ") + Group.Name + ": " + Error.what();
    return Result;
  }
  double FirstMs = 0;
  try {
    State->Validation->reset();
    FirstMs = launchOnce(Kernel, Name);
  } catch (const tilert::Error &Error) {
    Result.Reason = std::string("cannot be launched: ") + Error.what();
    return Result;
  }
  State->Validation->read(State->Output);
  std::string Problem = compareOutputs(Kernel.tensors(), State->Reference,
                                       State->Output, Options.Tolerance);
  if (!Problem.empty()) {
    Result.Reason = "wrong result: " + Problem;
    return Result;
  }
  double Projected = FirstMs * (Options.Warmup + Options.Reps) * 1e-3;
  if (Projected > Options.TimeLimit) {
    char Text[200];
    std::snprintf(Text, sizeof(Text),
                  "over the time limit: one launch takes %.3f ms, %d launches "
                  "would take %.1f s > %.1f s",
                  FirstMs, Options.Warmup + Options.Reps, Projected,
                  Options.TimeLimit);
    Result.Reason = Text;
    return Result;
  }
  Timings Times =
      timeLaunches(Api, Launches->get(), Options.Warmup, Options.Reps, [&] {
        Kernel.launch(State->Arguments, State->Work.Scalars, Launches->get());
      });
  Result.Measured = true;
  Result.MedianMs = Times.Median;
  Result.MinMs = Times.Min;
  Result.MaxMs = Times.Max;
  return Result;
}

Measurement DeviceWorker::measure(size_t index, bool &cached) {
  cached = false;
  const Candidate &Variant = Candidates[index];
  Measurement Result;
  if (!Variant.Kernel) {
    Result.Reason = Variant.LoadError;
    return Result;
  }
  if (!State) {
    std::lock_guard<std::mutex> Guard(Group.Lock);
    Result.Reason = Group.ReferenceErrors[CurrentShape];
    return Result;
  }
  std::optional<size_t> Reference;
  {
    std::lock_guard<std::mutex> Guard(Group.Lock);
    Reference = Group.References[CurrentShape];
    if (!Reference) {
      Result.Reason = Group.ReferenceErrors[CurrentShape];
      return Result;
    }
  }
  std::string Key = MeasurementCache::keyOf(describeMeasurement(
      Options, Variant, Candidates[*Reference], Group, Shapes[CurrentShape]));
  std::string Warning;
  if (std::optional<Measurement> Hit = Cache.lookup(Key, Warning)) {
    cached = true;
    return *Hit;
  }
  if (!Warning.empty())
    Display.message(Warning);
  try {
    Result = validateAndTime(Variant);
  } catch (const FatalError &Error) {
    // Remembered, so that the next run skips the variant that broke the
    // device.
    Result.Reason = Error.what();
    Cache.store(Key, Result);
    throw;
  }
  Warning = Cache.store(Key, Result);
  if (!Warning.empty())
    Display.message(Warning);
  return Result;
}

void DeviceWorker::run() {
  PrimaryContext Context(Api, Ordinal);
  Launches.emplace(Api);
  size_t PerShape = Candidates.size();
  size_t Total = Shapes.size() * PerShape;
  for (size_t Job = Group.NextJob++; Job < Total; Job = Group.NextJob++) {
    size_t Shape = Job / PerShape, Index = Job % PerShape;
    if (Shape != CurrentShape)
      enterShape(Shape);
    bool Cached = false;
    Measurement Result = measure(Index, Cached);
    {
      std::lock_guard<std::mutex> Guard(Group.Lock);
      Group.Results[Shape][Index] = Result;
    }
    const TunableVariant &Variant = *Candidates[Index].Variant;
    std::string Line = where() + " " + Variant.Name + " " + Variant.Arch +
                       ": " +
                       (Result.Measured ? formatMs(Result.MedianMs)
                                        : "excluded: " + Result.Reason) +
                       (Cached ? " (cached)" : "");
    Display.jobFinished(Line, !Result.Measured);
  }
  State.reset();
  Launches.reset();
}

/// The `count` fastest measured candidates of `results`, fastest first.
std::vector<size_t>
fastestMeasured(const std::vector<std::optional<Measurement>> &results,
                size_t count) {
  std::vector<size_t> Measured;
  for (size_t I = 0; I < results.size(); ++I)
    if (results[I] && results[I]->Measured)
      Measured.push_back(I);
  std::stable_sort(Measured.begin(), Measured.end(), [&](size_t A, size_t B) {
    return results[A]->MedianMs < results[B]->MedianMs;
  });
  if (Measured.size() > count)
    Measured.resize(count);
  return Measured;
}

void DeviceWorker::timeFinalists(const std::vector<size_t> &finalists) {
  std::vector<std::vector<double>> Times(finalists.size());
  for (int Round = 0; Round < Options.FinalRounds; ++Round)
    for (size_t Step = 0; Step < finalists.size(); ++Step) {
      // A different finalist starts each round, so that none is always
      // timed first (or last) after the others.
      size_t F = (Step + Round) % finalists.size();
      const tilert::Kernel &Kernel = *Candidates[finalists[F]].Kernel;
      Kernel.prepare(Ordinal);
      Timings Result =
          timeLaunches(Api, Launches->get(), Options.Warmup, Options.Reps, [&] {
            Kernel.launch(State->Arguments, State->Work.Scalars,
                          Launches->get());
          });
      Times[F].insert(Times[F].end(), Result.Milliseconds.begin(),
                      Result.Milliseconds.end());
    }
  std::vector<std::pair<size_t, double>> Final;
  for (size_t F = 0; F < finalists.size(); ++F) {
    std::vector<double> &All = Times[F];
    std::sort(All.begin(), All.end());
    size_t Mid = All.size() / 2;
    double Median = All.size() % 2 ? All[Mid] : (All[Mid - 1] + All[Mid]) / 2;
    Final.emplace_back(finalists[F], Median);
  }
  std::lock_guard<std::mutex> Guard(Group.Lock);
  Group.Finals[CurrentShape] = std::move(Final);
}

void DeviceWorker::runFinalRounds() {
  PrimaryContext Context(Api, Ordinal);
  Launches.emplace(Api);
  for (size_t Shape = Group.NextFinal++; Shape < Shapes.size();
       Shape = Group.NextFinal++) {
    std::vector<size_t> Finalists;
    {
      std::lock_guard<std::mutex> Guard(Group.Lock);
      Finalists = fastestMeasured(Group.Results[Shape],
                                  static_cast<size_t>(Options.Finalists));
    }
    if (Finalists.size() < 2)
      continue;
    enterShape(Shape);
    if (!State)
      continue;
    timeFinalists(Finalists);
    Display.message(where() + ": final round of " +
                    std::to_string(Finalists.size()) + " variants done");
  }
  State.reset();
  Launches.reset();
}

/// The tuned outcome of one shape from the group's measurements: with a
/// final round, the best and the runner-up are its two fastest finalists
/// (at their final-round medians), since the first pass ranked the rest
/// behind them.
TunedShape summarize(const DeviceGroup &group, size_t shape,
                     const DimValues &dims,
                     const std::vector<Candidate> &candidates,
                     const std::string &defaultName) {
  TunedShape Tuned;
  Tuned.Dims = dims;
  const std::vector<std::pair<size_t, double>> &Finals = group.Finals[shape];
  std::vector<TimedVariant> Timed;
  for (size_t I = 0; I < candidates.size(); ++I) {
    const TunableVariant &Variant = *candidates[I].Variant;
    ++Tuned.Candidates;
    const std::optional<Measurement> &Result = group.Results[shape][I];
    if (!Result)
      continue;
    if (!Result->Measured) {
      Tuned.Excluded.push_back({Variant.Name, Variant.Arch, Result->Reason});
      continue;
    }
    ++Tuned.Measured;
    double Ms = Result->MedianMs;
    for (const auto &[Index, FinalMs] : Finals)
      if (Index == I) {
        Ms = FinalMs;
        Tuned.FinalRound.push_back({Variant.Name, Variant.Arch, FinalMs});
      }
    Timed.push_back({Variant.Name, Variant.Arch, Ms});
    if (Variant.Name == defaultName && !Tuned.Default)
      Tuned.Default = Timed.back();
  }
  auto Faster = [](const TimedVariant &A, const TimedVariant &B) {
    return A.MedianMs < B.MedianMs;
  };
  // Stable: of equal times, the first in index order wins.
  std::vector<TimedVariant> &Ranked = Finals.empty() ? Timed : Tuned.FinalRound;
  std::stable_sort(Ranked.begin(), Ranked.end(), Faster);
  if (!Ranked.empty())
    Tuned.Best = Ranked[0];
  if (Ranked.size() > 1)
    Tuned.RunnerUp = Ranked[1];
  return Tuned;
}

/// Loads every variant of `index` (its binaries verified) before any device
/// is touched; one that cannot be loaded is excluded, not fatal.
std::vector<Candidate> loadCandidates(const TunablePackage &index) {
  std::vector<Candidate> Candidates(index.Variants.size());
  for (size_t I = 0; I < index.Variants.size(); ++I) {
    Candidate &C = Candidates[I];
    C.Variant = &index.Variants[I];
    C.MetadataSha256 = sha256OfFile(C.Variant->MetadataPath);
    try {
      C.Kernel = std::make_unique<tilert::Kernel>(C.Variant->MetadataPath);
      if (C.Kernel->name() != index.Kernel)
        throw BenchError("is kernel '" + C.Kernel->name() + "', not '" +
                         index.Kernel + "'");
    } catch (const std::exception &Error) {
      C.Kernel.reset();
      C.LoadError = std::string("cannot be loaded: ") + Error.what();
      std::fprintf(stderr, "tile-bench: warning: %s (%s): %s\n",
                   C.Variant->Name.c_str(), C.Variant->Arch.c_str(),
                   C.LoadError.c_str());
    }
  }
  return Candidates;
}

/// The loaded default variants (one per architecture), in index order; at
/// least one, since the reference is one of them.
std::vector<size_t>
defaultCandidates(const TunablePackage &index,
                  const std::vector<Candidate> &candidates) {
  std::vector<size_t> Defaults;
  for (size_t I = 0; I < candidates.size(); ++I)
    if (candidates[I].Variant->Name == index.Default && candidates[I].Kernel)
      Defaults.push_back(I);
  if (Defaults.empty())
    throw BenchError("the default variant '" + index.Default + "' of " +
                     index.IndexPath +
                     " cannot be loaded; it is the reference, so nothing "
                     "can be validated");
  return Defaults;
}

/// The devices `devices` (all if empty), grouped by name.
std::vector<std::unique_ptr<DeviceGroup>>
groupDevices(const DriverApi &api, const std::vector<int> &devices) {
  int Count = deviceCount(api);
  std::vector<int> Ordinals = devices;
  if (Ordinals.empty())
    for (int I = 0; I < Count; ++I)
      Ordinals.push_back(I);
  if (Ordinals.empty())
    throw BenchError("there is no CUDA device");
  std::vector<std::unique_ptr<DeviceGroup>> Groups;
  for (int Ordinal : Ordinals) {
    if (Ordinal < 0 || Ordinal >= Count)
      throw BenchError("--device " + std::to_string(Ordinal) + ": there are " +
                       std::to_string(Count) + " CUDA device(s)");
    std::string Name, Arch;
    {
      PrimaryContext Context(api, Ordinal);
      Name = Context.name();
      Arch = Context.arch();
    }
    auto Same = std::find_if(Groups.begin(), Groups.end(),
                             [&](const auto &G) { return G->Name == Name; });
    if (Same == Groups.end()) {
      Groups.push_back(std::make_unique<DeviceGroup>());
      Groups.back()->Name = Name;
      Groups.back()->Arch = Arch;
      Same = Groups.end() - 1;
    }
    if (std::find((*Same)->Ordinals.begin(), (*Same)->Ordinals.end(),
                  Ordinal) != (*Same)->Ordinals.end())
      throw BenchError("--device " + std::to_string(Ordinal) +
                       " is given twice");
    (*Same)->Ordinals.push_back(Ordinal);
  }
  return Groups;
}

/// The number of devices of `groups`.
size_t deviceTotal(const std::vector<std::unique_ptr<DeviceGroup>> &groups) {
  size_t Total = 0;
  for (const auto &Group : groups)
    Total += Group->Ordinals.size();
  return Total;
}

/// Prints each tuned shape's best variant, how it compares with the
/// default and the runner-up (TFLOP/s with --flops, whose dims `kernel`
/// resolves).
void printSummary(const std::vector<TunedDevice> &Tuned,
                  const TuneOptions &options, const tilert::Kernel &kernel) {
  for (const TunedDevice &Device : Tuned) {
    std::printf("%s (%s):\n", Device.Device.c_str(), Device.Arch.c_str());
    for (const TunedShape &Shape : Device.Shapes) {
      std::printf("  %s: %zu measured, %zu excluded",
                  describeDims(Shape.Dims).c_str(), Shape.Measured,
                  Shape.Excluded.size());
      if (Shape.Best) {
        std::printf("; best %s (%s) %s", Shape.Best->Name.c_str(),
                    Shape.Best->Arch.c_str(),
                    formatMs(Shape.Best->MedianMs).c_str());
        if (!options.Flops.empty()) {
          Workload Work = resolveWorkload(kernel, dimArguments(Shape.Dims),
                                          options.Scalars);
          double Flops = double(evaluateFlops(options.Flops, Work));
          std::printf(" = %.1f TFLOP/s",
                      Flops / (Shape.Best->MedianMs * 1e-3) * 1e-12);
        }
        if (Shape.Default && Shape.Best->MedianMs > 0)
          std::printf(", %.2fx the default's %s",
                      Shape.Default->MedianMs / Shape.Best->MedianMs,
                      formatMs(Shape.Default->MedianMs).c_str());
        if (Shape.RunnerUp)
          std::printf("; runner-up %s %s", Shape.RunnerUp->Name.c_str(),
                      formatMs(Shape.RunnerUp->MedianMs).c_str());
        if (!Shape.FinalRound.empty())
          std::printf(" (final round of %zu)", Shape.FinalRound.size());
      }
      std::printf("\n");
    }
  }
}

int tune(const TuneOptions &options) {
  auto Start = std::chrono::steady_clock::now();
  TunablePackage Index = readTunablePackage(options.PackageDir);
  std::vector<DimValues> Shapes;
  for (const std::string &Text : options.Shapes)
    Shapes.push_back(parseShape(Text));
  if (Shapes.empty())
    Shapes = Index.Shapes;
  if (Shapes.empty())
    throw BenchError(Index.IndexPath +
                     " lists no shapes to tune for; give --shape");

  std::vector<Candidate> Candidates = loadCandidates(Index);
  std::vector<size_t> Defaults = defaultCandidates(Index, Candidates);
  // The shapes and scalars must suit the kernel: checked once, up front,
  // and each shape's dims put in the kernel's order.
  for (DimValues &Dims : Shapes) {
    Workload Work = resolveWorkload(*Candidates[Defaults[0]].Kernel,
                                    dimArguments(Dims), options.Scalars);
    Dims.clear();
    for (size_t I = 0; I < Work.DimNames.size(); ++I)
      Dims.emplace_back(Work.DimNames[I], Work.DimValues[I]);
  }
  if (!options.Flops.empty())
    evaluateFlops(options.Flops,
                  resolveWorkload(*Candidates[Defaults[0]].Kernel,
                                  dimArguments(Shapes[0]), options.Scalars));

  const DriverApi *Api = nullptr;
  check(tilert::detail::getDriver(Api));
  std::vector<std::unique_ptr<DeviceGroup>> Groups =
      groupDevices(*Api, options.Devices);
  // The reference is the first default variant (in index order) whose
  // binaries can run on the group's devices.
  for (auto &Group : Groups) {
    std::optional<size_t> Reference;
    std::string Why;
    for (size_t I : Defaults) {
      try {
        PrimaryContext Context(*Api, Group->Ordinals[0]);
        Candidates[I].Kernel->prepare(Group->Ordinals[0]);
        Reference = I;
        break;
      } catch (const tilert::Error &Error) {
        Why += std::string(Why.empty() ? "" : "; ") + Error.what();
      }
    }
    if (!Reference)
      throw BenchError("no default variant of " + Index.IndexPath +
                       " can run on " + Group->Name + ": " + Why);
    Group->Results.assign(
        Shapes.size(),
        std::vector<std::optional<Measurement>>(Candidates.size()));
    Group->References.assign(Shapes.size(), Reference);
    Group->ReferenceErrors.assign(Shapes.size(), "");
    Group->Finals.assign(Shapes.size(), {});
  }

  bool ReadCache = !options.NoCache;
  if (const char *Disable = std::getenv("TILEC_AUTOTUNE_DISABLE_CACHE"))
    ReadCache &= std::string(Disable) != "1";
  MeasurementCache Cache(MeasurementCache::defaultDirectory(), ReadCache);

  size_t Total = Groups.size() * Shapes.size() * Candidates.size();
  std::printf("tile-bench: tuning %s (%s): %zu variants x %zu shapes on %zu "
              "device(s)",
              Index.Kernel.c_str(), Index.Directory.c_str(), Candidates.size(),
              Shapes.size(), deviceTotal(Groups));
  for (const auto &Group : Groups) {
    std::string List;
    for (int Ordinal : Group->Ordinals)
      List += (List.empty() ? "" : ",") + std::to_string(Ordinal);
    std::printf(" [%s: %s]", Group->Name.c_str(), List.c_str());
  }
  std::printf("\n");
  std::fflush(stdout);

  std::exception_ptr Failure;
  std::mutex FailureLock;
  {
    Progress Display(
        [](const std::string &Text) {
          std::fputs(Text.c_str(), stderr);
          std::fflush(stderr);
        },
        Total, isatty(fileno(stderr)));
    // One thread per device runs `phase` on a worker of its group; the
    // first exception ends every group's jobs.
    auto RunWorkers = [&](void (DeviceWorker::*phase)()) {
      std::vector<std::thread> Workers;
      for (auto &Group : Groups)
        for (int Ordinal : Group->Ordinals)
          Workers.emplace_back([&, Ordinal, G = Group.get()] {
            try {
              DeviceWorker Worker(*Api, options, Candidates, Shapes, *G,
                                  Ordinal, Cache, Display);
              (Worker.*phase)();
            } catch (...) {
              std::lock_guard<std::mutex> Guard(FailureLock);
              if (!Failure)
                Failure = std::current_exception();
              // The other workers stop taking jobs of this group.
              G->NextJob = Shapes.size() * Candidates.size();
              G->NextFinal = Shapes.size();
            }
          });
      for (std::thread &Worker : Workers)
        Worker.join();
    };
    RunWorkers(&DeviceWorker::run);
    // The final round, once every shape's first pass is complete.
    if (!Failure && options.Finalists > 1 && options.FinalRounds > 0)
      RunWorkers(&DeviceWorker::runFinalRounds);
  }
  if (Failure)
    std::rethrow_exception(Failure);

  std::vector<TunedDevice> Tuned;
  bool ReferenceFailed = false;
  for (const auto &Group : Groups) {
    TunedDevice Device;
    Device.Device = Group->Name;
    Device.Arch = Group->Arch;
    Device.Ordinals = Group->Ordinals;
    Device.Warmup = options.Warmup;
    Device.Reps = options.Reps;
    Device.Tolerance = options.Tolerance;
    Device.Finalists = options.FinalRounds > 0 ? options.Finalists : 0;
    Device.FinalRounds = options.Finalists > 1 ? options.FinalRounds : 0;
    for (size_t S = 0; S < Shapes.size(); ++S) {
      if (!Group->ReferenceErrors[S].empty()) {
        std::fprintf(stderr, "tile-bench: error: %s at %s on %s\n",
                     Group->ReferenceErrors[S].c_str(),
                     describeDims(Shapes[S]).c_str(), Group->Name.c_str());
        ReferenceFailed = true;
        continue;
      }
      Device.Shapes.push_back(
          summarize(*Group, S, Shapes[S], Candidates, Index.Default));
    }
    Tuned.push_back(std::move(Device));
  }
  std::string Output = options.Output.empty() ? Index.Directory + "/tuning.json"
                                              : options.Output;
  std::string Warning = writeTuningDatabase(Output, Index, Tuned);
  if (!Warning.empty())
    std::fprintf(stderr, "%s\n", Warning.c_str());

  printSummary(Tuned, options, *Candidates[Defaults[0]].Kernel);
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  std::printf("tile-bench: wrote %s (%zu measurements in %s)\n", Output.c_str(),
              Total, formatDuration(Seconds).c_str());
  return ReferenceFailed ? 1 : 0;
}

} // namespace

int runTune(int argc, char **argv) {
  TuneOptions Options;
  CLI::App App{"The benchmark phase of tuning: validate and time every "
               "variant of a kernel package at its shapes, on every GPU, "
               "and write the package's tuning database (docs/tuning.md).",
               "tile-bench tune"};
  App.add_option("package", Options.PackageDir,
                 "The kernel package (tilec-tune compile -o DIR)")
      ->required();
  App.add_option("-o,--output", Options.Output,
                 "The tuning database to write (PACKAGE/tuning.json)");
  App.add_option("--device", Options.Devices,
                 "A CUDA device ordinal to use (repeatable; all by default)")
      ->check(CLI::Range(0, 1023));
  App.add_option("--shape", Options.Shapes,
                 "A shape to tune for, NAME=VALUE,... (repeatable; the "
                 "package's shapes by default)");
  App.add_option("--scalar", Options.Scalars,
                 "NAME=VALUE for each scalar of the kernel");
  App.add_option("--warmup", Options.Warmup, "Untimed launches (10)")
      ->check(CLI::Range(0, 1000000));
  App.add_option("--reps", Options.Reps, "Timed launches (50)")
      ->check(CLI::Range(1, 1000000));
  App.add_option("--time-limit", Options.TimeLimit,
                 "Seconds a variant may take at one shape (10)")
      ->check(CLI::Range(0.001, 86400.0));
  App.add_option("--tolerance", Options.Tolerance,
                 "Relative Frobenius error allowed against the default "
                 "variant (2e-2)")
      ->check(CLI::Range(0.0, 1e6));
  App.add_option("--seed", Options.Seed, "Seed of the random inputs (1)");
  App.add_flag("--no-cache", Options.NoCache,
               "Measure again what the measurement cache holds (as "
               "TILEC_AUTOTUNE_DISABLE_CACHE=1)");
  App.add_option("--finalists", Options.Finalists,
                 "How many of each shape's fastest variants the final round "
                 "times again, interleaved (8; 0 or 1: no final round)")
      ->check(CLI::Range(0, 1000));
  App.add_option("--final-rounds", Options.FinalRounds,
                 "Rounds of --reps launches per finalist in the final round "
                 "(10)")
      ->check(CLI::Range(0, 1000));
  App.add_option("--flops", Options.Flops,
                 "FLOP model for the summary (2*M*N*K)");
  try {
    App.parse(argc - 1, argv + 1);
  } catch (const CLI::ParseError &Error) {
    return App.exit(Error);
  }
  try {
    return tune(Options);
  } catch (const std::exception &Error) {
    std::fprintf(stderr, "tile-bench: error: %s\n", Error.what());
    return 1;
  }
}

} // namespace tilebench
