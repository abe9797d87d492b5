//===- PackageTests.cpp - Kernel packages on a GPU ------------------------===//

#include "PackageTests.h"

#include "FileIO.h"
#include "KernelRun.h"
#include "ScratchDir.h"
#include "Sha256.h"

#include "tilert/tilert.hpp"

#include <filesystem>

namespace tilert::gputest {

namespace {

using detail::Status;
using nlohmann::json;

/// The default variant's directory in the kernel directory
/// (test/gpu/kernels/variants.txt), and the other variant's.
constexpr const char *DefaultVariant = "gelu-f16";
constexpr const char *OtherVariant = "gelu-f16-b2048";

/// The kernel of variant directory `variant` whose cubin runs natively on
/// the device, or nullptr.
const KernelFile *findVariant(const GpuContext &gpu,
                              const std::vector<KernelFile> &kernels,
                              const std::string &variant) {
  for (const KernelFile &Kernel : kernels) {
    if (Kernel.Label.rfind(variant + "/", 0) != 0 || !Kernel.Problem.empty() ||
        !detail::sassRunsOn(Kernel.Metadata.Target, gpu.CcMajor, gpu.CcMinor))
      continue;
    for (const detail::BinaryInfo &Binary : Kernel.Metadata.Binaries)
      if (Binary.Kind == detail::BinaryKind::Cubin)
        return &Kernel;
  }
  return nullptr;
}

/// Copies `kernel`'s metadata and binaries into `variant`/ of `dir` and
/// returns its index.json entry.
Status copyVariant(const support::ScratchDir &dir, const KernelFile &kernel,
                   const std::string &variant, json &entry) {
  namespace fs = std::filesystem;
  std::string Bytes, Written, Cubin;
  std::string Json = fs::path(kernel.Path).filename().string();
  TILERT_TRY(detail::readFile(kernel.Path, Bytes));
  TILERT_TRY(dir.write(variant + "/" + Json, Bytes, Written));
  for (const detail::BinaryInfo &Binary : kernel.Metadata.Binaries) {
    TILERT_TRY(
        detail::readFile(detail::siblingPath(kernel.Path, Binary.File), Bytes));
    TILERT_TRY(dir.write(variant + "/" + Binary.File, Bytes, Written));
    if (Binary.Kind == detail::BinaryKind::Cubin)
      Cubin = variant + "/" + Binary.File;
  }
  entry = {{"name", variant},
           {"arch", kernel.Metadata.Target.Name},
           {"defines", json::object()},
           {"files", {{"metadata", variant + "/" + Json}, {"cubin", Cubin}}}};
  return Status::success();
}

/// Launches `dims` through `package`, checks that `expected` is the
/// variant it selects and that the result equals the reference's and the
/// selected variant's launched directly.
void checkDispatch(const GpuContext &gpu, TestReport &report,
                   const std::string &name, const tilert::Package &package,
                   const KernelFile &file, const std::vector<int64_t> &dims,
                   const std::string &expected, uint64_t seed) {
  std::string Label = "package " + name + " " + formatDims(file.Metadata, dims);
  try {
    tilert::Selection Chosen = package.select(0, dims);
    RunResult Dispatched = runPackage(gpu, package, file, dims, seed);
    RunResult Direct = runKernel(gpu, Chosen.kernel, file, dims, seed);
    bool Same = Dispatched.Mismatches == Direct.Mismatches &&
                Dispatched.MaxAbsError == Direct.MaxAbsError &&
                Dispatched.RelFrobenius == Direct.RelFrobenius;
    bool Passed = Chosen.variant == expected && Dispatched.Passed &&
                  Direct.Passed && Same;
    report.record(
        Label, Passed,
        "selected " + Chosen.variant + " (expected " + expected +
            "); through the package: " + Dispatched.Detail + "; directly: " +
            Direct.Detail + (Same ? "" : "; THE RESULTS DIFFER"),
        {{"variant", Chosen.variant}, {"expected", expected}, {"dims", dims}});
  } catch (const tilert::Error &Error) {
    report.record(Label, false, Error.what());
  }
}

} // namespace

void runPackageTests(const GpuContext &gpu,
                     const std::vector<KernelFile> &kernels, uint64_t seed,
                     TestReport &report) {
  const KernelFile *Default = findVariant(gpu, kernels, DefaultVariant);
  const KernelFile *Other = findVariant(gpu, kernels, OtherVariant);
  if (!Default || !Other) {
    report.record("package tests", false,
                  std::string("they need the ") + DefaultVariant + " and " +
                      OtherVariant + " kernels compiled for this device");
    return;
  }
  support::ScratchDir Dir;
  json Entries[2];
  Status Written = Dir.create();
  if (Written.ok())
    Written = copyVariant(Dir, *Default, DefaultVariant, Entries[0]);
  if (Written.ok())
    Written = copyVariant(Dir, *Other, OtherVariant, Entries[1]);
  json Index = {{"schema", "tilec.package/1"},
                {"kernel", Default->Metadata.Name},
                {"default", DefaultVariant},
                {"variants", {Entries[0], Entries[1]}}};
  std::string IndexText = Index.dump(2), Path;
  if (Written.ok())
    Written = Dir.write("index.json", IndexText, Path);
  if (!Written.ok()) {
    report.record("package tests", false, Written.message());
    return;
  }

  // N = 1000 and 2^20 + 3 are shapes of the reference.
  std::vector<int64_t> Small = {1000}, Large = {(1 << 20) + 3},
                       Between = {3 << 20};
  try {
    tilert::Package Untuned(Dir.path());
    checkDispatch(gpu, report, "without tuning.json", Untuned, *Default, Large,
                  DefaultVariant, seed);
  } catch (const tilert::Error &Error) {
    report.record("package without tuning.json", false, Error.what());
  }

  std::string Arch = Default->Metadata.Target.Name;
  json Tuning = {{"schema", "tilec.tuning/1"},
                 {"kernel", Default->Metadata.Name},
                 {"package", {{"index_sha256", detail::sha256Hex(IndexText)}}},
                 {"devices",
                  {{{"device", gpu.Name},
                    {"shapes",
                     {{{"dims", {{"N", Small[0]}}},
                       {"best", {{"variant", DefaultVariant}, {"arch", Arch}}}},
                      {{"dims", {{"N", Large[0]}}},
                       {"best",
                        {{"variant", OtherVariant},
                         {"arch", Other->Metadata.Target.Name}}}}}}}}}};
  Written = Dir.write("tuning.json", Tuning.dump(2), Path);
  if (!Written.ok()) {
    report.record("package tests", false, Written.message());
    return;
  }
  try {
    tilert::Package Tuned(Dir.path());
    checkDispatch(gpu, report, "tuned, exact shape", Tuned, *Default, Small,
                  DefaultVariant, seed);
    checkDispatch(gpu, report, "tuned, exact shape", Tuned, *Default, Large,
                  OtherVariant, seed);
    checkDispatch(gpu, report, "tuned, nearest shape", Tuned, *Default, Between,
                  OtherVariant, seed);
  } catch (const tilert::Error &Error) {
    report.record("tuned package", false, Error.what());
  }
}

} // namespace tilert::gputest
