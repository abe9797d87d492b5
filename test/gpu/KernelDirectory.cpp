//===- KernelDirectory.cpp - The compiled kernels under test --------------===//

#include "KernelDirectory.h"

#include "DType.h"

#include <algorithm>
#include <filesystem>

namespace tilert::gputest {

namespace {

/// Resolves `file`'s reference, signature and dtype, or sets its Problem.
void matchReference(KernelFile &file) {
  auto It = file.Metadata.Constants.find("dtype");
  if (It != file.Metadata.Constants.end() && It->is_string())
    file.DType = detail::parseDType(It->get<std::string>());
  file.Ref = findKernelRef(file.Metadata.Name);
  if (!file.Ref) {
    file.Problem = "no reference registered for kernel '" + file.Metadata.Name +
                   "' (add one to test/gpu/KernelRefs.cpp)";
    return;
  }
  std::string Signature = checkSignature(file.Metadata, *file.Ref, file.DTypes);
  if (!Signature.empty())
    file.Problem = "the signature differs from the reference's: " + Signature;
}

} // namespace

bool findKernels(const std::string &directory, TestReport &report,
                 std::vector<KernelFile> &out) {
  namespace fs = std::filesystem;
  std::error_code Error;
  std::vector<fs::path> Paths;
  for (fs::recursive_directory_iterator It(directory, Error), End;
       !Error && It != End; It.increment(Error))
    if (It->path().extension() == ".json" &&
        It->path().lexically_relative(directory) != ProvenanceFile)
      Paths.push_back(It->path());
  if (Error) {
    report.record("kernel directory", false,
                  "cannot list '" + directory + "': " + Error.message());
    return false;
  }
  std::sort(Paths.begin(), Paths.end());
  for (const fs::path &Path : Paths) {
    KernelFile File;
    File.Path = Path.string();
    File.Label =
        Path.lexically_relative(directory).replace_extension().string();
    detail::Status Loaded = detail::loadMetadata(File.Path, File.Metadata);
    if (!Loaded.ok()) {
      report.record("metadata " + File.Path, false, Loaded.message());
      continue;
    }
    matchReference(File);
    out.push_back(std::move(File));
  }
  if (out.empty()) {
    report.record("kernel directory", false,
                  "no kernel metadata (*.json) in '" + directory +
                      "': compile the kernels first (cmake --build build "
                      "--target gpu-kernels)");
    return false;
  }
  return true;
}

const KernelFile *findKernel(const std::vector<KernelFile> &kernels,
                             const std::string &name, tilertDType dtype,
                             int ccMajor, int ccMinor) {
  const KernelFile *Best = nullptr;
  int BestRank = 0;
  for (const KernelFile &Kernel : kernels) {
    if (Kernel.Metadata.Name != name || !Kernel.Problem.empty())
      continue;
    // The dtype matters most, then native machine code.
    int Rank = 1 + 2 * (Kernel.DType == dtype) +
               detail::sassRunsOn(Kernel.Metadata.Target, ccMajor, ccMinor);
    if (Rank > BestRank) {
      Best = &Kernel;
      BestRank = Rank;
    }
  }
  return Best;
}

} // namespace tilert::gputest
