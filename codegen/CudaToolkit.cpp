//===- CudaToolkit.cpp - Locating ptxas, fatbinary and libdevice ----------===//

#include "codegen/CudaToolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <initializer_list>
#include <optional>

using namespace tilec;

namespace {
/// The default toolkit root, searched last.
constexpr llvm::StringLiteral kDefaultRoot = "/usr/local/cuda";

/// The toolkit roots the user named, in search order: the explicit one, then
/// the environment's.
llvm::SmallVector<std::string> requestedRoots(llvm::StringRef cudaPath) {
  llvm::SmallVector<std::string> roots;
  if (!cudaPath.empty())
    roots.push_back(cudaPath.str());
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> value = llvm::sys::Process::GetEnv(variable))
      if (!value->empty())
        roots.push_back(*value);
  return roots;
}

/// `root` followed by `components`. Each component is appended on its own:
/// `llvm::sys::path::append` turns an empty trailing component into a
/// trailing separator (`/usr/local/cuda/bin/ptxas/`), which names no file.
std::string joinPath(llvm::StringRef root,
                     std::initializer_list<llvm::StringRef> components) {
  llvm::SmallString<256> path(root);
  for (llvm::StringRef component : components)
    llvm::sys::path::append(path, component);
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
  auto tryRoot = [&](llvm::StringRef root) -> std::optional<std::string> {
    std::string candidate = joinPath(root, {"bin", name});
    if (llvm::sys::fs::can_execute(candidate))
      return candidate;
    looked.push_back(candidate);
    return std::nullopt;
  };
  for (const std::string &root : requestedRoots(cudaPath))
    if (std::optional<std::string> found = tryRoot(root))
      return *found;
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName(name))
    return *onPath;
  looked.push_back("PATH");
  if (std::optional<std::string> found = tryRoot(kDefaultRoot))
    return *found;
  return llvm::createStringError(
      name.str() + " not found (looked in " + llvm::join(looked, ", ") +
      "); pass its path or the CUDA toolkit root (--cuda-path, CUDA_HOME)");
}

llvm::Expected<std::string> tilec::findLibdevice(llvm::StringRef cudaPath,
                                                 llvm::StringRef ptxasPath) {
  llvm::SmallVector<std::string> roots = requestedRoots(cudaPath);
  if (!ptxasPath.empty()) {
    // <root>/bin/ptxas
    llvm::StringRef binDir = llvm::sys::path::parent_path(ptxasPath);
    roots.push_back(llvm::sys::path::parent_path(binDir).str());
  }
  roots.push_back(kDefaultRoot.str());
  llvm::SmallVector<std::string> looked;
  for (const std::string &root : roots) {
    std::string candidate =
        joinPath(root, {"nvvm", "libdevice", "libdevice.10.bc"});
    if (llvm::sys::fs::is_regular_file(candidate))
      return candidate;
    looked.push_back(candidate);
  }
  return llvm::createStringError(
      "libdevice not found (looked in " + llvm::join(looked, ", ") +
      "); pass the CUDA toolkit root (--cuda-path, CUDA_HOME)");
}
