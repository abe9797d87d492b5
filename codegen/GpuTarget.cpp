//===- GpuTarget.cpp - Supported GPU architectures and PTX versions -------===//

#include "codegen/GpuTarget.h"

#include "compiler/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <iterator>

using namespace tilec;

namespace {
/// PTX ISA versions the LLVM 22 NVPTX back end knows (its `+ptxNN` features)
/// from the oldest that any supported architecture needs.
constexpr PtxVersion kKnownPtxVersions[] = {
    70, 71, 72, 73, 74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90};

const TargetDescription *lookupArch(llvm::StringRef arch) {
  return lookupTarget(std::string_view(arch.data(), arch.size()));
}
} // namespace

std::string GpuTarget::ptxFeature() const {
  return "+ptx" + std::to_string(ptxVersion);
}

std::string GpuTarget::fatbinSm() const {
  return llvm::StringRef(arch).drop_front(3).str();
}

llvm::ArrayRef<llvm::StringRef> tilec::supportedArchs() {
  static const llvm::SmallVector<llvm::StringRef> names = [] {
    llvm::SmallVector<llvm::StringRef> result;
    for (const TargetDescription &target : getTargets())
      result.push_back(target.Name);
    return result;
  }();
  return names;
}

PtxVersion tilec::minPtxVersion(llvm::StringRef arch) {
  const TargetDescription *info = lookupArch(arch);
  return info ? info->MinPtxVersion : 0;
}

PtxVersion tilec::defaultPtxVersion(llvm::StringRef arch) {
  const TargetDescription *info = lookupArch(arch);
  return info ? info->DefaultPtxVersion : 0;
}

std::string tilec::formatPtxVersion(PtxVersion version) {
  return std::to_string(version / 10) + "." + std::to_string(version % 10);
}

llvm::Expected<GpuTarget> tilec::resolveGpuTarget(llvm::StringRef arch,
                                                  PtxVersion ptxVersion) {
  const TargetDescription *info = lookupArch(arch);
  std::string future =
      describeFutureArch(std::string_view(arch.data(), arch.size()));
  if (!info && !future.empty())
    return llvm::createStringError(future);
  if (!info)
    return llvm::createStringError(
        "unsupported GPU architecture '" + arch.str() +
        "' (supported: " + llvm::join(supportedArchs(), ", ") + ")");
  if (ptxVersion == 0)
    ptxVersion = info->DefaultPtxVersion;
  if (!llvm::is_contained(kKnownPtxVersions, ptxVersion))
    return llvm::createStringError("unknown PTX ISA version " +
                                   formatPtxVersion(ptxVersion));
  if (ptxVersion < info->MinPtxVersion || ptxVersion > kMaxPtxVersion)
    return llvm::createStringError(
        "PTX ISA " + formatPtxVersion(ptxVersion) + " cannot target " +
        arch.str() + " (valid: " + formatPtxVersion(info->MinPtxVersion) +
        " to " + formatPtxVersion(kMaxPtxVersion) + ")");
  GpuTarget target;
  target.arch = info->Name;
  target.smVersion = info->ComputeCapability;
  target.archSpecific = info->ArchSpecific;
  target.ptxVersion = ptxVersion;
  return target;
}

PtxVersion tilec::maxPtxVersionForCudaRelease(unsigned major, unsigned minor) {
  // CUDA 11.x shipped PTX ISA 7.x with the same minor number (11.8 -> 7.8).
  if (major < 11)
    return 0;
  if (major == 11)
    return 70 + std::min(minor, 8u);
  if (major == 12) {
    // 12.0..12.5 -> 8.0..8.5, 12.6 -> 8.5, 12.8 -> 8.7, 12.9 -> 8.8.
    static const PtxVersion table[] = {80, 81, 82, 83, 84, 85, 85, 86, 87, 88};
    return table[std::min<unsigned>(minor, std::size(table) - 1)];
  }
  return kMaxPtxVersion;
}
