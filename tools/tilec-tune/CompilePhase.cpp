//===- CompilePhase.cpp - tilec-tune compile: a space to a package --------===//

#include "CompilePhase.h"

#include "Progress.h"
#include "VariantCompiler.h"

#include "compiler/Tune/CompilePlan.h"
#include "compiler/Tune/PackageIndex.h"
#include "compiler/Tune/TuningSpace.h"

#include "codegen/Sha256.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

using namespace tilec;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

/// Returns `Value` right-aligned in `Width` columns.
std::string pad(std::uint64_t Value, std::size_t Width) {
  std::string Text = std::to_string(Value);
  return std::string(Width > Text.size() ? Width - Text.size() : 0, ' ') + Text;
}

/// Returns the job's description for the progress lines:
/// `gemm-block_K_64 sm_90a: 168 registers, ...`.
std::string describeJob(const std::string &Stem, Arch Target,
                        const CompiledVariant &Result) {
  std::string Line = Stem + " " + getArchName(Target) + ": ";
  char Seconds[32];
  std::snprintf(Seconds, sizeof(Seconds), " (%.2f s)", Result.Seconds);
  if (!Result.Ok)
    return Line + "failed: " + Result.Error + Seconds;
  return Line + std::to_string(Result.Registers) + " registers, " +
         std::to_string(Result.SpillStores + Result.SpillLoads) +
         " B spilled, " + std::to_string(Result.SharedMemory) + " B shared, " +
         std::to_string(Result.Threads) + " threads" + Seconds;
}

/// Why a compiled variant is dropped.
enum class DropReason { None, Spills, Registers, Serialized };

/// Returns why a compiled variant is dropped, and sets `Reason`: it spills
/// more than the space allows, uses more registers than `max_registers`, or
/// ptxas made more performance notes on it than `max_performance_warnings`
/// (serialized wgmma, C75xx). (A block always gets its registers: the PTX
/// bounds its threads with `.maxntid`, so ptxas spills rather than use more
/// than a multiprocessor has.) Empty if it is kept.
std::string checkBudget(const SpaceLimits &Limits,
                        const CompiledVariant &Variant, DropReason &Reason) {
  Reason = DropReason::None;
  std::uint64_t Spilled = Variant.SpillStores + Variant.SpillLoads;
  if (Spilled > Limits.MaxSpillBytes) {
    Reason = DropReason::Spills;
    return "spills " + std::to_string(Variant.SpillStores) + " B stored, " +
           std::to_string(Variant.SpillLoads) + " B loaded (max_spill_bytes " +
           std::to_string(Limits.MaxSpillBytes) + ")";
  }
  if (Limits.MaxRegisters && Variant.Registers > *Limits.MaxRegisters) {
    Reason = DropReason::Registers;
    return std::to_string(Variant.Registers) +
           " registers per thread, more than max_registers " +
           std::to_string(*Limits.MaxRegisters);
  }
  if (Variant.PerformanceWarnings.size() > Limits.MaxPerformanceWarnings) {
    Reason = DropReason::Serialized;
    return "ptxas: " + Variant.PerformanceWarnings.front() +
           " (max_performance_warnings " +
           std::to_string(Limits.MaxPerformanceWarnings) + ")";
  }
  return "";
}

/// Returns true if `Dir` can receive a package: it does not exist, is an
/// empty directory or holds a package (an index.json).
bool canReplace(const std::string &Dir, std::string &Problem) {
  if (!llvm::sys::fs::exists(Dir))
    return true;
  if (!llvm::sys::fs::is_directory(Dir)) {
    Problem = "it is not a directory";
    return false;
  }
  llvm::SmallString<256> Index(Dir);
  llvm::sys::path::append(Index, PackageIndexName);
  if (llvm::sys::fs::exists(Index))
    return true;
  std::error_code Failure;
  llvm::sys::fs::directory_iterator It(Dir, Failure);
  if (!Failure && It == llvm::sys::fs::directory_iterator())
    return true;
  Problem = "it is a directory that holds no kernel package (no " +
            std::string(PackageIndexName) + ")";
  return false;
}

/// Writes `Text` to the file `Path`.
bool writeTextFile(const std::string &Path, const std::string &Text,
                   std::string &Problem) {
  std::error_code Failure;
  llvm::raw_fd_ostream OS(Path, Failure);
  if (Failure) {
    Problem = Failure.message();
    return false;
  }
  OS << Text;
  OS.close();
  if (OS.has_error()) {
    Problem = OS.error().message();
    OS.clear_error();
    return false;
  }
  return true;
}

/// The state of one run of the compile phase.
class CompilePhase {
public:
  CompilePhase(const CompilePhaseOptions &Options, llvm::raw_ostream &Err)
      : Options(Options), Err(Err) {}

  int run();

private:
  void reportPlan();
  bool prepareStaging();
  void compileAll();
  bool writePackage(double CompileSeconds);
  void error(const std::string &Message) {
    Err << "tilec-tune: error: " << Message << "\n";
  }

  const CompilePhaseOptions &Options;
  llvm::raw_ostream &Err;
  std::unique_ptr<TuningSpace> Space;
  CompilePlan Plan;
  /// The staging directory, and the .tile file as the driver is given it.
  std::string Staging, SpecPath;
  /// One result per job of the plan.
  std::vector<CompiledVariant> Results;
  unsigned Threads = 1;
};

void CompilePhase::reportPlan() {
  std::string Archs;
  for (Arch A : Space->Archs)
    Archs += (Archs.empty() ? "" : ", ") + std::string(getArchName(A));
  std::size_t Width = std::to_string(Plan.Expanded).size();
  Err << "tilec-tune: " << Space->Kernel->getName() << " ("
      << Space->Kernel->getPath() << ") for " << Archs << ": " << Plan.Expanded
      << " candidates\n";
  for (std::size_t I = 0; I != Space->Constraints.size(); ++I) {
    const SpaceConstraint &C = Space->Constraints[I];
    SourceLoc Loc = Space->getLoc(C, 0);
    Err << "  " << pad(Plan.ConstraintDrops[I], Width) << " break '" << C.Text
        << "' (" << Space->File->getName() << ":" << Loc.Line << ")\n";
  }
  for (std::size_t A = 0; A != Space->Archs.size(); ++A)
    if (Plan.SharedMemoryDrops[A])
      Err << "  " << pad(Plan.SharedMemoryDrops[A], Width)
          << " need more shared memory than a block of "
          << getArchName(Space->Archs[A])
          << " has (the first: " << Plan.SharedMemoryExamples[A] << ")\n";
  // The first few: a space with many may break one rule many times.
  constexpr std::size_t MaxListed = 10;
  for (std::size_t I = 0;
       I != std::min(MaxListed, Plan.FrontEndFailures.size()); ++I)
    error(
        "the front end rejects the candidate " +
        describeCandidate(Plan.Candidates[Plan.FrontEndFailures[I].Candidate]) +
        ": " + Plan.FrontEndFailures[I].Error);
  if (Plan.FrontEndFailures.size() > MaxListed)
    error("the front end rejects " +
          std::to_string(Plan.FrontEndFailures.size() - MaxListed) +
          " more candidates (add constraints that exclude them)");
  if (Plan.DefaultAdded)
    Err << "  (the kernel's defaults are not a candidate the constraints "
           "keep: they are compiled too, as the package's default)\n";
  std::size_t ArchCount = Space->Archs.size();
  bool SharedMemoryDrops =
      std::any_of(Plan.SharedMemoryDrops.begin(), Plan.SharedMemoryDrops.end(),
                  [](std::uint64_t Drops) { return Drops != 0; });
  Err << "  " << pad(Plan.Jobs.size(), Width) << " to compile ("
      << Plan.Candidates.size() - Plan.FrontEndFailures.size()
      << " candidates for " << ArchCount
      << (ArchCount == 1 ? " architecture" : " architectures")
      << (SharedMemoryDrops ? ", less the shared-memory drops" : "") << ")\n";
  Err.flush();
}

/// Creates the staging directory beside the output, after checking that
/// the output may be replaced.
bool CompilePhase::prepareStaging() {
  std::string Problem;
  if (!canReplace(Options.OutputDir, Problem)) {
    error("cannot write the package to '" + Options.OutputDir +
          "': " + Problem + "; name another directory");
    return false;
  }
  llvm::SmallString<256> Output(Options.OutputDir);
  // createUniqueDirectory puts a relative name under the temporary
  // directory: the staging directory must be beside the package.
  if (std::error_code Failure = llvm::sys::fs::make_absolute(Output)) {
    error("cannot write the package to '" + Options.OutputDir +
          "': " + Failure.message());
    return false;
  }
  llvm::sys::path::remove_dots(Output, /*remove_dot_dot=*/true);
  if (Output.empty() || Output == "/") {
    error("cannot write the package to '" + Options.OutputDir + "'");
    return false;
  }
  llvm::StringRef Parent = llvm::sys::path::parent_path(Output);
  if (!Parent.empty())
    if (std::error_code Failure = llvm::sys::fs::create_directories(Parent)) {
      error("cannot create '" + Parent.str() + "': " + Failure.message());
      return false;
    }
  llvm::SmallString<256> Path;
  if (std::error_code Failure =
          llvm::sys::fs::createUniqueDirectory(Output + ".partial", Path)) {
    error("cannot create a staging directory beside '" + Options.OutputDir +
          "': " + Failure.message());
    return false;
  }
  Staging = std::string(Path);
  return true;
}

/// Runs every job on the worker threads, with the progress display.
void CompilePhase::compileAll() {
  VariantOptions Variants;
  Variants.SpecPath = SpecPath;
  Variants.OutputDir = Staging;
  Variants.NoCache = Options.NoCache;
  Variants.FastMath = Space->FastMath;
  Variants.PtxasPath = Options.PtxasPath;
  Variants.CudaPath = Options.CudaPath;
  Results.assign(Plan.Jobs.size(), CompiledVariant());
  Progress Display(
      [this](const std::string &Text) {
        Err << Text;
        Err.flush();
      },
      Plan.Jobs.size(), Options.ProgressBar);
  std::atomic<std::size_t> Next{0};
  // The same warning from several jobs (a cache that cannot be written) is
  // printed once.
  std::mutex WarningsLock;
  std::set<std::string> Warned;
  auto Work = [&] {
    for (std::size_t I = Next++; I < Plan.Jobs.size(); I = Next++) {
      const CompileJob &Job = Plan.Jobs[I];
      const Candidate &C = Plan.Candidates[Job.Candidate];
      Results[I] = compileVariant(Variants, C.Defines, Job.Target, C.Stem);
      for (const std::string &Warning : Results[I].Warnings) {
        std::lock_guard<std::mutex> Guard(WarningsLock);
        if (Warned.insert(Warning).second)
          Display.message(Warning);
      }
      Display.jobFinished(describeJob(C.Stem, Job.Target, Results[I]),
                          !Results[I].Ok);
    }
  };
  std::vector<std::thread> Workers;
  for (unsigned T = 1; T < Threads; ++T)
    Workers.emplace_back(Work);
  Work();
  for (std::thread &Worker : Workers)
    Worker.join();
  Display.finish();
}

/// Drops what spills or exceeds the register budget, writes index.json into
/// the staging directory and moves it to the output.
bool CompilePhase::writePackage(double CompileSeconds) {
  PackageIndex Index;
  Index.Kernel = Space->Kernel->getName();
  Index.SourcePath = SpecPath;
  Index.SourceSha256 = sha256Hex(Space->Kernel->getContents());
  Index.SpacePath = Space->File->getName();
  Index.SpaceSha256 = sha256Hex(Space->File->getContents());
  Index.Archs = Space->Archs;
  Index.Shapes = Space->Shapes;
  Index.FastMath = Space->FastMath;
  Index.Default = Plan.Candidates[Plan.Default].Stem;

  std::uint64_t Failed = 0, Spilling = 0, OverBudget = 0, Serialized = 0;
  std::vector<std::string> Dropped;
  std::vector<std::size_t> Kept;
  double Slowest = 0;
  std::size_t SlowestJob = 0;
  for (std::size_t I = 0; I != Plan.Jobs.size(); ++I) {
    const CompiledVariant &Result = Results[I];
    const CompileJob &Job = Plan.Jobs[I];
    const Candidate &C = Plan.Candidates[Job.Candidate];
    if (Result.Seconds > Slowest) {
      Slowest = Result.Seconds;
      SlowestJob = I;
    }
    if (!Result.Ok) {
      ++Failed;
      continue;
    }
    DropReason Reason = DropReason::None;
    std::string Drop = checkBudget(Space->Limits, Result, Reason);
    bool IsDefault = Job.Candidate == Plan.Default;
    if (!Drop.empty() && !IsDefault) {
      ++(Reason == DropReason::Spills      ? Spilling
         : Reason == DropReason::Registers ? OverBudget
                                           : Serialized);
      Dropped.push_back(C.Stem + " " + getArchName(Job.Target) + ": " + Drop);
      for (const std::string &File : {Result.Metadata, Result.Cubin}) {
        llvm::SmallString<256> Path(Staging);
        llvm::sys::path::append(Path, File);
        llvm::sys::fs::remove(Path);
      }
      continue;
    }
    if (!Drop.empty())
      Err << "tilec-tune: warning: the default variant " << C.Stem << " "
          << getArchName(Job.Target) << " " << Drop
          << "; kept as the package's default\n";
    Kept.push_back(I);
  }
  // The candidates' order, each candidate's architectures in the space's
  // order (the jobs have the defaults first).
  std::stable_sort(Kept.begin(), Kept.end(), [&](std::size_t A, std::size_t B) {
    return Plan.Jobs[A].Candidate < Plan.Jobs[B].Candidate;
  });
  for (std::size_t I : Kept) {
    const CompiledVariant &Result = Results[I];
    const CompileJob &Job = Plan.Jobs[I];
    const Candidate &C = Plan.Candidates[Job.Candidate];
    PackageVariant Variant;
    Variant.Name = C.Stem;
    Variant.Target = Job.Target;
    for (const SpaceParameter &Parameter : Space->Parameters)
      Variant.Defines.push_back(
          {Space->Kernel->getParams()[Parameter.Index].Name,
           C.Values[Parameter.Index]});
    Variant.Metadata = Result.Metadata;
    Variant.Cubin = Result.Cubin;
    Variant.Registers = Result.Registers;
    Variant.SpillStores = Result.SpillStores;
    Variant.SpillLoads = Result.SpillLoads;
    Variant.SharedMemory = Result.SharedMemory;
    Variant.Threads = Result.Threads;
    Index.Variants.push_back(std::move(Variant));
  }

  std::size_t Width = std::to_string(Plan.Expanded).size();
  char Timing[160];
  std::snprintf(Timing, sizeof(Timing),
                "%.1f s on %u threads (%.3f s per job and thread; the "
                "slowest ",
                CompileSeconds, Threads,
                Plan.Jobs.empty() ? 0.0
                                  : CompileSeconds * Threads /
                                        static_cast<double>(Plan.Jobs.size()));
  Err << "tilec-tune: compiled " << Plan.Jobs.size() << " variants in "
      << Timing;
  if (!Plan.Jobs.empty())
    Err << Plan.Candidates[Plan.Jobs[SlowestJob].Candidate].Stem << " "
        << getArchName(Plan.Jobs[SlowestJob].Target) << ": "
        << llvm::format("%.1f", Slowest) << " s";
  Err << ")\n";
  for (const std::string &Line : Dropped)
    Err << "  dropped " << Line << "\n";
  Err << "  " << pad(Spilling, Width) << " spill more than "
      << Space->Limits.MaxSpillBytes << " B\n";
  Err << "  " << pad(OverBudget, Width)
      << " exceed the register budget (max_registers)\n";
  if (Serialized)
    Err << "  " << pad(Serialized, Width)
        << " slowed down by ptxas (max_performance_warnings "
        << Space->Limits.MaxPerformanceWarnings << ")\n";
  if (Failed)
    Err << "  " << pad(Failed, Width) << " failed to compile\n";
  Err << "  " << pad(Index.Variants.size(), Width) << " kept\n";

  llvm::SmallString<256> IndexPath(Staging);
  llvm::sys::path::append(IndexPath, PackageIndexName);
  std::string Problem;
  if (!writeTextFile(std::string(IndexPath),
                     describePackageIndex(Index).dump(2) + "\n", Problem)) {
    error("cannot write '" + std::string(IndexPath) + "': " + Problem);
    return false;
  }
  if (llvm::sys::fs::exists(Options.OutputDir))
    if (std::error_code Failure =
            llvm::sys::fs::remove_directories(Options.OutputDir)) {
      error("cannot replace '" + Options.OutputDir + "': " + Failure.message());
      return false;
    }
  if (std::error_code Failure =
          llvm::sys::fs::rename(Staging, Options.OutputDir)) {
    error("cannot move '" + Staging + "' to '" + Options.OutputDir +
          "': " + Failure.message());
    return false;
  }
  Staging.clear();
  Err << "tilec-tune: wrote " << Options.OutputDir << "/" << PackageIndexName
      << ": " << Index.Variants.size() << " variants of "
      << Space->Kernel->getName() << ", default '" << Index.Default << "'\n";
  return true;
}

int CompilePhase::run() {
  Clock::time_point Start = Clock::now();
  auto Sink = [this](const std::string &Text) { Err << Text; };
  Space = loadTuningSpace(Options.SpacePath, Sink);
  if (!Space)
    return 1;
  std::optional<CompilePlan> Planned = planCompile(*Space, Sink);
  if (!Planned)
    return 1;
  Plan = std::move(*Planned);
  SpecPath = Space->Kernel->getPath();
  reportPlan();
  bool DefaultRejected = false;
  for (const FrontEndFailure &Failure : Plan.FrontEndFailures)
    DefaultRejected |= Failure.Candidate == Plan.Default;
  if (DefaultRejected) {
    error("the kernel's defaults do not compile: a package needs them");
    return 1;
  }
  double PlanSeconds = secondsSince(Start);
  if (!prepareStaging())
    return 1;
  Threads = Options.Jobs ? Options.Jobs
                         : llvm::hardware_concurrency().compute_thread_count();
  Threads = std::max(
      1u, std::min<unsigned>(Threads, static_cast<unsigned>(Plan.Jobs.size())));
  Clock::time_point CompileStart = Clock::now();
  compileAll();
  double CompileSeconds = secondsSince(CompileStart);
  bool Written = writePackage(CompileSeconds);
  if (!Staging.empty())
    llvm::sys::fs::remove_directories(Staging);
  if (!Written)
    return 1;
  Err << "tilec-tune: " << llvm::format("%.2f", secondsSince(Start))
      << " s in all (" << llvm::format("%.2f", PlanSeconds)
      << " s reading and expanding the space)\n";
  bool Failures = !Plan.FrontEndFailures.empty() ||
                  std::any_of(Results.begin(), Results.end(),
                              [](const CompiledVariant &R) { return !R.Ok; });
  return Failures ? 1 : 0;
}

} // namespace

int tilec::runCompilePhase(const CompilePhaseOptions &Options,
                           llvm::raw_ostream &Err) {
  return CompilePhase(Options, Err).run();
}
