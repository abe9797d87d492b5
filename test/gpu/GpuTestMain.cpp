//===- GpuTestMain.cpp - Compiled kernels and libtilert on a GPU ----------===//
//
// tilert-gpu-tests [--json FILE] [--seed N] [--require-gpu] [--check-kernels]
//                  [KERNEL_DIR]
//
// Checks every compiled kernel in KERNEL_DIR (default: $TILEC_KERNEL_DIR,
// else the directory the build was configured with) against its host
// reference (KernelRefs.cpp) at each of the reference's shapes, with fresh
// random inputs, poisoned outputs and guard regions around every tensor, then
// runs the runtime's error paths on the GPU. A kernel without a reference, or
// whose signature differs from it, is a failure. Without a usable GPU it
// prints "SKIPPED: ..." and exits with 77 (CTest's skip code), unless
// --require-gpu or TILEC_REQUIRE_GPU=1 make that a failure; otherwise it
// exits 1 if any test failed. --check-kernels checks only that every kernel
// has a reference with its signature (and every reference a kernel), without
// a GPU.
//
//===----------------------------------------------------------------------===//

#include "KernelDirectory.h"
#include "KernelRun.h"
#include "PackageTests.h"
#include "RuntimeTests.h"
#include "TestReport.h"

#include "Arch.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

using namespace tilert::gputest;
using tilert::detail::Status;

namespace {

constexpr int SkipExitCode = 77;

struct Options {
  std::string KernelDir;
  std::string JsonPath;
  uint64_t Seed = 0;
  /// A missing GPU is a failure, not a skip.
  bool RequireGpu = false;
  /// Only match the kernels with their references; no GPU.
  bool CheckKernels = false;
};

bool parseOptions(int argc, char **argv, Options &out) {
  const char *Require = std::getenv("TILEC_REQUIRE_GPU");
  out.RequireGpu = Require && *Require && std::strcmp(Require, "0") != 0;
  for (int I = 1; I < argc; ++I) {
    std::string Arg = argv[I];
    if (Arg == "--require-gpu") {
      out.RequireGpu = true;
    } else if (Arg == "--check-kernels") {
      out.CheckKernels = true;
    } else if ((Arg == "--json" || Arg == "--seed") && I + 1 < argc) {
      std::string Value = argv[++I];
      if (Arg == "--json")
        out.JsonPath = Value;
      else
        out.Seed = std::strtoull(Value.c_str(), nullptr, 0);
    } else if (!Arg.empty() && Arg[0] != '-' && out.KernelDir.empty()) {
      out.KernelDir = Arg;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--json FILE] [--seed N] [--require-gpu] "
                   "[--check-kernels] [KERNEL_DIR]\n",
                   argv[0]);
      return false;
    }
  }
  if (out.KernelDir.empty()) {
    const char *Env = std::getenv("TILEC_KERNEL_DIR");
    out.KernelDir = Env && *Env ? Env : TILEC_DEFAULT_KERNEL_DIR;
  }
  if (!out.Seed)
    out.Seed = static_cast<uint64_t>(
        std::chrono::system_clock::now().time_since_epoch().count());
  return true;
}

/// Sets up device 0; returns a status with NO_DEVICE when there is none.
Status openGpu(GpuContext &gpu) {
  TILERT_TRY(tilert::detail::getDriver(gpu.Api));
  const tilert::detail::DriverApi &Api = *gpu.Api;
  int Count = 0;
  TILERT_TRY(tilert::detail::checkCu(Api, Api.cuDeviceGetCount(&Count),
                                     "cuDeviceGetCount"));
  if (Count == 0)
    return Status(TILERT_ERROR_NO_DEVICE, "the driver reports no device");
  CUdevice Device;
  TILERT_TRY(
      tilert::detail::checkCu(Api, Api.cuDeviceGet(&Device, 0), "cuDeviceGet"));
  char Name[256] = {};
  TILERT_TRY(tilert::detail::checkCu(
      Api, Api.cuDeviceGetName(Name, sizeof(Name) - 1, Device),
      "cuDeviceGetName"));
  gpu.Name = Name;
  TILERT_TRY(tilert::detail::checkCu(
      Api,
      Api.cuDeviceGetAttribute(
          &gpu.CcMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Device),
      "cuDeviceGetAttribute"));
  TILERT_TRY(tilert::detail::checkCu(
      Api,
      Api.cuDeviceGetAttribute(
          &gpu.CcMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Device),
      "cuDeviceGetAttribute"));
  TILERT_TRY(tilert::detail::checkCu(
      Api, Api.cuDevicePrimaryCtxRetain(&gpu.Context, Device),
      "cuDevicePrimaryCtxRetain"));
  TILERT_TRY(tilert::detail::checkCu(Api, Api.cuCtxSetCurrent(gpu.Context),
                                     "cuCtxSetCurrent"));
  return tilert::detail::checkCu(
      Api, Api.cuStreamCreate(&gpu.Stream, CU_STREAM_NON_BLOCKING),
      "cuStreamCreate");
}

/// Whether the device can run `kernel`; notes why not in `report`.
bool runsHere(const GpuContext &gpu, const KernelFile &kernel,
              TestReport &report) {
  std::vector<tilert::detail::BinaryKind> Kinds;
  for (const tilert::detail::BinaryInfo &Binary : kernel.Metadata.Binaries)
    Kinds.push_back(Binary.Kind);
  std::vector<size_t> Order;
  Status Selected = tilert::detail::selectBinaries(
      kernel.Metadata.Target, Kinds, gpu.CcMajor, gpu.CcMinor, gpu.Name, Order);
  if (!Selected.ok())
    report.note("skipping " + kernel.Path + ": " + Selected.message());
  return Selected.ok();
}

void checkKernel(const GpuContext &gpu, const KernelFile &kernel, uint64_t seed,
                 TestReport &report) {
  if (!kernel.Problem.empty()) {
    report.record(kernel.Label, false, kernel.Problem);
    return;
  }
  if (!runsHere(gpu, kernel, report))
    return;
  try {
    tilert::Kernel Kernel(kernel.Path);
    for (const std::vector<int64_t> &Dims : kernel.Ref->Shapes) {
      uint64_t Seed = seed;
      for (int64_t Dim : Dims)
        Seed = Seed * 1000003 + static_cast<uint64_t>(Dim);
      RunResult Result = runKernel(gpu, Kernel, kernel, Dims, Seed);
      report.record(kernel.Label + " " + formatDims(kernel.Metadata, Dims),
                    Result.Passed, Result.Detail,
                    {{"kernel", kernel.Metadata.Name},
                     {"file", kernel.Path},
                     {"arch", kernel.Metadata.Target.Name},
                     {"constants", kernel.Metadata.Constants},
                     {"dims", Dims},
                     {"mismatches", Result.Mismatches},
                     {"max_abs_error", Result.MaxAbsError},
                     {"rel_frobenius", Result.RelFrobenius}});
    }
  } catch (const tilert::Error &Error) {
    report.record(kernel.Label + " (" + kernel.Path + ")", false, Error.what());
  }
}

/// --check-kernels: every kernel has a reference with its signature and
/// every reference is used by a kernel.
int checkKernels(const Options &options, TestReport &report) {
  std::vector<KernelFile> Kernels;
  if (findKernels(options.KernelDir, report, Kernels)) {
    for (const KernelFile &Kernel : Kernels)
      report.record("reference of " + Kernel.Label, Kernel.Problem.empty(),
                    Kernel.Problem);
    for (const KernelRef &Ref : allKernelRefs()) {
      bool Used = false;
      for (const KernelFile &Kernel : Kernels)
        Used = Used || Kernel.Ref == &Ref;
      if (!Used)
        report.record(std::string("kernels of reference '") + Ref.Name + "'",
                      false,
                      "no kernel in " + options.KernelDir +
                          " has this name (test/gpu/kernels/variants.txt)");
    }
  }
  report.printSummary();
  return report.failures() ? 1 : 0;
}

int run(const Options &options, GpuContext &gpu, TestReport &report) {
  std::printf("tilert GPU tests on CUDA device 0 (%s, compute capability "
              "%d.%d); kernels from %s; seed %llu\n",
              gpu.Name.c_str(), gpu.CcMajor, gpu.CcMinor,
              options.KernelDir.c_str(),
              static_cast<unsigned long long>(options.Seed));
  std::vector<KernelFile> Kernels;
  if (findKernels(options.KernelDir, report, Kernels)) {
    for (const KernelFile &Kernel : Kernels)
      checkKernel(gpu, Kernel, options.Seed, report);
    const KernelFile *VectorAdd = findKernel(
        Kernels, "vector_add", TILERT_DTYPE_F32, gpu.CcMajor, gpu.CcMinor);
    const KernelFile *ScaleAdd = findKernel(
        Kernels, "scale_add", TILERT_DTYPE_F32, gpu.CcMajor, gpu.CcMinor);
    if (!VectorAdd || !runsHere(gpu, *VectorAdd, report)) {
      report.record("runtime tests", false,
                    "they need a vector_add kernel this device can run");
    } else {
      if (ScaleAdd && !runsHere(gpu, *ScaleAdd, report))
        ScaleAdd = nullptr;
      runArgumentTests(gpu, *VectorAdd, ScaleAdd, options.Seed, report);
      runArtifactTests(gpu, *VectorAdd, options.Seed, report);
      runConcurrentLaunchTest(gpu, *VectorAdd, options.Seed, report);
    }
    runPackageTests(gpu, Kernels, options.Seed, report);
  }
  report.printSummary();
  if (!options.JsonPath.empty()) {
    nlohmann::json Result = report.toJson();
    Result["device"] = gpu.Name;
    Result["compute_capability"] =
        std::to_string(gpu.CcMajor) + "." + std::to_string(gpu.CcMinor);
    Result["kernel_dir"] = options.KernelDir;
    Result["seed"] = options.Seed;
    std::ofstream Out(options.JsonPath);
    Out << Result.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
        << "\n";
    if (!Out) {
      std::fprintf(stderr, "cannot write %s\n", options.JsonPath.c_str());
      return 1;
    }
  }
  return report.failures() ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  Options Opts;
  if (!parseOptions(argc, argv, Opts))
    return 2;
  TestReport Report;
  if (Opts.CheckKernels)
    return checkKernels(Opts, Report);
  GpuContext Gpu;
  Status Opened = openGpu(Gpu);
  if (Opened.code() == TILERT_ERROR_NO_DEVICE) {
    if (Opts.RequireGpu) {
      std::printf("[FAIL] no CUDA GPU (%s), and a GPU is required "
                  "(--require-gpu or TILEC_REQUIRE_GPU)\n",
                  Opened.message().c_str());
      return 1;
    }
    std::printf("SKIPPED: no CUDA GPU (%s)\n", Opened.message().c_str());
    return SkipExitCode;
  }
  int ExitCode = 1;
  if (Opened.ok()) {
    try {
      ExitCode = run(Opts, Gpu, Report);
    } catch (const std::exception &Error) {
      std::printf("[FAIL] unexpected exception: %s\n", Error.what());
    }
  } else {
    std::printf("[FAIL] GPU setup: %s\n", Opened.message().c_str());
  }
  if (Gpu.Stream)
    Gpu.Api->cuStreamDestroy(Gpu.Stream);
  return ExitCode;
}
