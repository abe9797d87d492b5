//===- CudaToolkit.cpp - Locating ptxas, fatbinary and libdevice ----------===//

#include "codegen/CudaToolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <optional>

using namespace tilec;

namespace {
/// Toolkit roots in search order: the explicit one, then the environment,
/// then the default installation.
llvm::SmallVector<std::string> toolkitRoots(llvm::StringRef cudaPath) {
  llvm::SmallVector<std::string> roots;
  if (!cudaPath.empty())
    roots.push_back(cudaPath.str());
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> value = llvm::sys::Process::GetEnv(variable))
      if (!value->empty())
        roots.push_back(*value);
  roots.push_back("/usr/local/cuda");
  return roots;
}

std::string joinPath(llvm::StringRef a, llvm::StringRef b,
                     llvm::StringRef c = "", llvm::StringRef d = "") {
  llvm::SmallString<256> path(a);
  llvm::sys::path::append(path, b, c, d);
  return std::string(path);
}
} // namespace

llvm::Expected<std::string> tilec::findCudaTool(llvm::StringRef name,
                                                llvm::StringRef explicitPath,
                                                llvm::StringRef cudaPath) {
  if (!explicitPath.empty()) {
    if (llvm::sys::fs::can_execute(explicitPath))
      return explicitPath.str();
    return llvm::createStringError(name.str() + " not found: '" +
                                   explicitPath.str() +
                                   "' is not an executable file");
  }
  llvm::SmallVector<std::string> looked;
  for (const std::string &root : toolkitRoots(cudaPath)) {
    std::string candidate = joinPath(root, "bin", name);
    if (llvm::sys::fs::can_execute(candidate))
      return candidate;
    looked.push_back(candidate);
  }
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName(name))
    return *onPath;
  looked.push_back("PATH");
  return llvm::createStringError(
      name.str() + " not found (looked in " + llvm::join(looked, ", ") +
      "); pass its path or the CUDA toolkit root (--cuda-path, CUDA_HOME)");
}

llvm::Expected<std::string> tilec::findLibdevice(llvm::StringRef cudaPath,
                                                 llvm::StringRef ptxasPath) {
  llvm::SmallVector<std::string> roots = toolkitRoots(cudaPath);
  if (!ptxasPath.empty()) {
    // <root>/bin/ptxas
    llvm::StringRef binDir = llvm::sys::path::parent_path(ptxasPath);
    roots.push_back(llvm::sys::path::parent_path(binDir).str());
  }
  llvm::SmallVector<std::string> looked;
  for (const std::string &root : roots) {
    std::string candidate =
        joinPath(root, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::is_regular_file(candidate))
      return candidate;
    looked.push_back(candidate);
  }
  return llvm::createStringError(
      "libdevice not found (looked in " + llvm::join(looked, ", ") +
      "); pass the CUDA toolkit root (--cuda-path, CUDA_HOME)");
}
