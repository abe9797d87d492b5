//===- KernelDirectory.cpp - The compiled kernels under test --------------===//

#include "KernelDirectory.h"

#include <algorithm>
#include <filesystem>

namespace tilert::gputest {

bool findKernels(const std::string &directory, TestReport &report,
                 std::vector<KernelFile> &out) {
  std::error_code Error;
  std::vector<std::string> Paths;
  for (std::filesystem::recursive_directory_iterator It(directory, Error), End;
       !Error && It != End; It.increment(Error))
    if (It->path().extension() == ".json")
      Paths.push_back(It->path().string());
  if (Error) {
    report.record("kernel directory", false,
                  "cannot list '" + directory + "': " + Error.message());
    return false;
  }
  std::sort(Paths.begin(), Paths.end());
  for (const std::string &Path : Paths) {
    KernelFile File;
    File.Path = Path;
    detail::Status Loaded = detail::loadMetadata(Path, File.Metadata);
    if (!Loaded.ok()) {
      report.record("metadata " + Path, false, Loaded.message());
      continue;
    }
    File.Ref = findElementwiseRef(File.Metadata.Name);
    File.DType = elementwiseDType(File.Metadata);
    out.push_back(std::move(File));
  }
  if (out.empty()) {
    report.record("kernel directory", false,
                  "no kernel metadata (*.json) in '" + directory +
                      "': compile the specs with tilec first");
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
    if (Kernel.Metadata.Name != name || !Kernel.Ref ||
        Kernel.DType == TILERT_DTYPE_INVALID)
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
