//===- GpuTarget.cpp - Supported GPU architectures and PTX versions -------===//

#include "codegen/GpuTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <iterator>

using namespace tilec;

namespace {
/// One row of the architecture table.
struct ArchInfo {
  llvm::StringRef name;
  unsigned smVersion;
  bool archSpecific;
  /// First PTX ISA version with this target (PTX ISA release notes).
  PtxVersion minPtx;
  /// Version used when none is requested: PTX 8.0 runs on every CUDA 12+
  /// driver; sm_90a gets 8.3, which the TMA descriptor fences need.
  PtxVersion defaultPtx;
};

constexpr ArchInfo kArchs[] = {
    {"sm_80", 80, false, 70, 80}, {"sm_86", 86, false, 71, 80},
    {"sm_89", 89, false, 78, 80}, {"sm_90", 90, false, 78, 80},
    {"sm_90a", 90, true, 80, 83},
};

/// PTX ISA versions the LLVM 22 NVPTX back end knows (its `+ptxNN` features)
/// from the oldest that any supported architecture needs.
constexpr PtxVersion kKnownPtxVersions[] = {
    70, 71, 72, 73, 74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90};

const ArchInfo *lookupArch(llvm::StringRef arch) {
  for (const ArchInfo &info : kArchs)
    if (info.name == arch)
      return &info;
  return nullptr;
}
} // namespace

std::string GpuTarget::ptxFeature() const {
  return "+ptx" + std::to_string(ptxVersion);
}

std::string GpuTarget::fatbinSm() const {
  return llvm::StringRef(arch).drop_front(3).str();
}

llvm::ArrayRef<llvm::StringRef> tilec::supportedArchs() {
  static const llvm::StringRef names[] = {"sm_80", "sm_86", "sm_89", "sm_90",
                                          "sm_90a"};
  return names;
}

PtxVersion tilec::minPtxVersion(llvm::StringRef arch) {
  const ArchInfo *info = lookupArch(arch);
  return info ? info->minPtx : 0;
}

PtxVersion tilec::defaultPtxVersion(llvm::StringRef arch) {
  const ArchInfo *info = lookupArch(arch);
  return info ? info->defaultPtx : 0;
}

std::string tilec::formatPtxVersion(PtxVersion version) {
  return std::to_string(version / 10) + "." + std::to_string(version % 10);
}

llvm::Expected<GpuTarget> tilec::resolveGpuTarget(llvm::StringRef arch,
                                                  PtxVersion ptxVersion) {
  const ArchInfo *info = lookupArch(arch);
  if (!info)
    return llvm::createStringError(
        "unsupported GPU architecture '" + arch.str() +
        "' (supported: " + llvm::join(supportedArchs(), ", ") + ")");
  if (ptxVersion == 0)
    ptxVersion = info->defaultPtx;
  if (!llvm::is_contained(kKnownPtxVersions, ptxVersion))
    return llvm::createStringError("unknown PTX ISA version " +
                                   formatPtxVersion(ptxVersion));
  if (ptxVersion < info->minPtx || ptxVersion > kMaxPtxVersion)
    return llvm::createStringError(
        "PTX ISA " + formatPtxVersion(ptxVersion) + " cannot target " +
        arch.str() + " (valid: " + formatPtxVersion(info->minPtx) + " to " +
        formatPtxVersion(kMaxPtxVersion) + ")");
  GpuTarget target;
  target.arch = info->name.str();
  target.smVersion = info->smVersion;
  target.archSpecific = info->archSpecific;
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
