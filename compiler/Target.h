//===- Target.h - The GPU architectures tilec compiles for ------*- C++ -*-===//
//
// The one table of target architectures. It is plain C++ (no LLVM, no MLIR)
// so that the front end, the dialect's `#tile.target` attribute, the passes
// and the back end all read the same facts: the compute capability, the PTX
// ISA versions, the shared-memory limit and the instruction families a
// target has. Code asks for capabilities (`has(TargetFeature::Wgmma)`),
// never compares architecture names.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_TARGET_H
#define TILEC_COMPILER_TARGET_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilec {

/// The supported GPU architectures, oldest first.
enum class Arch { SM80, SM86, SM89, SM90, SM90a };

/// Instruction families and hardware features a target may have.
enum class TargetFeature : unsigned {
  /// `cp.async` global->shared copies (sm_80+).
  CpAsync = 1u << 0,
  /// `ldmatrix` shared->register matrix loads (sm_75+).
  Ldmatrix = 1u << 1,
  /// Warp-level `mma.sync` tensor-core instructions (sm_80 shapes).
  MmaSync = 1u << 2,
  /// `mbarrier` objects in shared memory (sm_80+).
  Mbarrier = 1u << 3,
  /// The tensor memory accelerator, `cp.async.bulk.tensor` (sm_90+).
  Tma = 1u << 4,
  /// Thread-block clusters and distributed shared memory (sm_90+).
  Clusters = 1u << 5,
  /// Warpgroup `wgmma.mma_async` (sm_90a only).
  Wgmma = 1u << 6,
  /// `setmaxnreg` register reallocation (sm_90a only).
  Setmaxnreg = 1u << 7,
};

/// One row of the target table.
struct TargetDescription {
  /// The architecture.
  Arch A;
  /// Its name as ptxas and the NVPTX back end spell it: "sm_90a".
  const char *Name;
  /// Compute capability as a number: 90 for sm_90 and sm_90a.
  unsigned ComputeCapability;
  /// True for architecture-specific targets ("a" suffix), whose code runs
  /// only on exactly that compute capability.
  bool ArchSpecific;
  /// First PTX ISA version with this target, as two digits (80 is 8.0).
  unsigned MinPtxVersion;
  /// PTX ISA version used when none is requested: 8.0 runs on every CUDA 12+
  /// driver; sm_90a gets 8.3, which the TMA descriptor fences need.
  unsigned DefaultPtxVersion;
  /// The most shared memory one thread block may use, in bytes (the opt-in
  /// limit, `sharedMemPerBlockOptin`).
  std::int64_t MaxSharedMemoryPerBlock;
  /// The most threads resident on one multiprocessor.
  unsigned MaxThreadsPerMultiprocessor;
  /// The most thread blocks resident on one multiprocessor.
  unsigned MaxBlocksPerMultiprocessor;
  /// The TargetFeature bits the target has.
  unsigned Features;

  /// Returns true if the target has `F`.
  bool has(TargetFeature F) const {
    return (Features & static_cast<unsigned>(F)) != 0;
  }

  /// Returns true if `Blocks` thread blocks of `SharedBytes` bytes of shared
  /// memory each fit on one multiprocessor: its shared memory is the
  /// per-block limit plus the 1 KiB the driver reserves for each block.
  bool fitsBlocksPerMultiprocessor(std::int64_t Blocks,
                                   std::int64_t SharedBytes) const {
    constexpr std::int64_t ReservedSharedBytes = 1024;
    return Blocks * (SharedBytes + ReservedSharedBytes) <=
           MaxSharedMemoryPerBlock + ReservedSharedBytes;
  }
};

/// The rows of the target table, oldest architecture first.
struct TargetRange {
  const TargetDescription *Begin;
  const TargetDescription *End;
  const TargetDescription *begin() const { return Begin; }
  const TargetDescription *end() const { return End; }
};

/// Returns every supported target, oldest first.
TargetRange getTargets();
/// Returns the table row of `A`.
const TargetDescription &getTargetDescription(Arch A);
/// Returns the table row of the architecture spelled `Name`, or null.
const TargetDescription *lookupTarget(std::string_view Name);
/// Returns the architecture spelled `Name` (`sm_80`, ..., `sm_90a`), if any.
std::optional<Arch> parseArch(std::string_view Name);
/// Returns the spelling of `A`: `sm_90a`.
const char *getArchName(Arch A);
/// Returns the valid spellings, comma-separated, for messages.
std::string getArchList();
/// For an architecture that LLVM 22's NVPTX back end and ptxas 13 know but
/// tilec does not compile for yet (Blackwell: sm_100, sm_103, sm_110,
/// sm_120, sm_121 and their `a`/`f` variants), returns the error to report:
/// "architecture 'sm_100a' (Blackwell, compute capability 10.0) is not
/// supported yet ...". Returns an empty string for any other name.
std::string describeFutureArch(std::string_view Name);
/// Returns the architecture compiled for when none is given.
inline Arch getDefaultArch() { return Arch::SM90a; }
/// Returns the most shared memory one thread block may use on `A`, in bytes.
inline std::int64_t getMaxSharedMemoryPerBlock(Arch A) {
  return getTargetDescription(A).MaxSharedMemoryPerBlock;
}
/// Returns the name of `F` for messages: "wgmma".
const char *getFeatureName(TargetFeature F);

} // namespace tilec

#endif // TILEC_COMPILER_TARGET_H
