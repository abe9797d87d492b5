//===- GpuTestMain.cpp - Compiled kernels and libtilert on a GPU ----------===//
//
// tilert-gpu-tests [--json FILE] [--seed N] [KERNEL_DIR]
//
// Validates every compiled elementwise kernel in KERNEL_DIR (default:
// $TILEC_KERNEL_DIR, else the build/kernels directory of the source tree)
// against its host reference at N = 1, 7, 1000, 2^20+3 and 2^28, with fresh
// random inputs and a NaN-poisoned output, then runs the runtime's error
// paths on the GPU. Without a usable GPU it prints "SKIPPED: ..." and exits
// with 77 (CTest's skip code); otherwise it exits 1 if any test failed.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseRun.h"
#include "KernelDirectory.h"
#include "RuntimeTests.h"
#include "TestReport.h"

#include "Arch.h"
#include "DType.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

using namespace tilert::gputest;
using tilert::detail::Status;

namespace {

constexpr int SkipExitCode = 77;

/// The element counts every elementwise kernel is checked at.
constexpr int64_t Sizes[] = {1, 7, 1000, (int64_t(1) << 20) + 3,
                             int64_t(1) << 28};

struct Options {
  std::string KernelDir;
  std::string JsonPath;
  uint64_t Seed = 0;
};

bool parseOptions(int argc, char **argv, Options &out) {
  for (int I = 1; I < argc; ++I) {
    std::string Arg = argv[I];
    if ((Arg == "--json" || Arg == "--seed") && I + 1 < argc) {
      std::string Value = argv[++I];
      if (Arg == "--json")
        out.JsonPath = Value;
      else
        out.Seed = std::strtoull(Value.c_str(), nullptr, 0);
    } else if (!Arg.empty() && Arg[0] != '-' && out.KernelDir.empty()) {
      out.KernelDir = Arg;
    } else {
      std::fprintf(stderr, "usage: %s [--json FILE] [--seed N] [KERNEL_DIR]\n",
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
  const tilert::detail::KernelMetadata &Metadata = kernel.Metadata;
  std::string Signature =
      tilert::gputest::checkSignature(Metadata, *kernel.Ref);
  if (!Signature.empty()) {
    report.record(Metadata.Name + " signature (" + kernel.Path + ")", false,
                  Signature);
    return;
  }
  if (!runsHere(gpu, kernel, report))
    return;
  std::string Label = Metadata.Name + " " +
                      tilert::detail::dtypeName(kernel.DType) + " " +
                      Metadata.Target.Name;
  try {
    tilert::Kernel Kernel(kernel.Path);
    for (int64_t N : Sizes) {
      ElementwiseResult Result =
          runElementwise(gpu, Kernel, *kernel.Ref, kernel.DType, N, seed + N);
      report.record(Label + " N=" + std::to_string(N), Result.Passed,
                    Result.Detail,
                    {{"kernel", Metadata.Name},
                     {"dtype", tilert::detail::dtypeName(kernel.DType)},
                     {"arch", Metadata.Target.Name},
                     {"n", N},
                     {"mismatches", Result.Mismatches},
                     {"max_abs_error", Result.MaxAbsError},
                     {"rel_frobenius", Result.RelFrobenius}});
    }
  } catch (const tilert::Error &Error) {
    report.record(Label + " (" + kernel.Path + ")", false, Error.what());
  }
}

int run(const Options &options, GpuContext &gpu, TestReport &report) {
  std::printf("tilert GPU tests on CUDA device 0 (%s, compute capability "
              "%d.%d); kernels from %s; seed %llu\n",
              gpu.Name.c_str(), gpu.CcMajor, gpu.CcMinor,
              options.KernelDir.c_str(),
              static_cast<unsigned long long>(options.Seed));
  std::vector<KernelFile> Kernels;
  if (findKernels(options.KernelDir, report, Kernels)) {
    int Checked = 0;
    for (const KernelFile &Kernel : Kernels) {
      if (!Kernel.Ref) {
        report.note("no reference for kernel '" + Kernel.Metadata.Name + "' (" +
                    Kernel.Path + "): not checked");
        continue;
      }
      checkKernel(gpu, Kernel, options.Seed, report);
      ++Checked;
    }
    if (Checked == 0)
      report.record("elementwise kernels", false,
                    "no kernel in " + options.KernelDir +
                        " has a reference (vector_add, scale_add, gelu)");
    const KernelFile *VectorAdd =
        findKernel(Kernels, "vector_add", TILERT_DTYPE_F32, gpu.CcMajor,
                   gpu.CcMinor);
    const KernelFile *ScaleAdd =
        findKernel(Kernels, "scale_add", TILERT_DTYPE_F32, gpu.CcMajor,
                   gpu.CcMinor);
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
  GpuContext Gpu;
  Status Opened = openGpu(Gpu);
  if (Opened.code() == TILERT_ERROR_NO_DEVICE) {
    std::printf("SKIPPED: no CUDA GPU (%s)\n", Opened.message().c_str());
    return SkipExitCode;
  }
  TestReport Report;
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
