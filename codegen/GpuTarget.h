//===- GpuTarget.h - GPU architectures and PTX versions ---------*- C++ -*-===//
//
// The code generator supports a fixed set of NVIDIA architectures. Every
// architecture needs a minimum PTX ISA version, and the NVPTX back end aborts
// (instead of reporting an error) on a wrong combination, so targets are
// validated here before anything is lowered.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_GPUTARGET_H
#define TILEC_CODEGEN_GPUTARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tilec {

/// PTX ISA versions are written as two-digit numbers: 83 is PTX ISA 8.3.
using PtxVersion = unsigned;

/// The highest PTX ISA version the code generator emits (the newest version
/// known to both the LLVM 22 NVPTX back end and CUDA 13.0's ptxas).
constexpr PtxVersion kMaxPtxVersion = 90;

/// A validated code generation target: one GPU architecture and the PTX ISA
/// version used for it.
struct GpuTarget {
  /// Architecture name as accepted by ptxas and the NVPTX back end: "sm_90a".
  std::string arch;
  /// Compute capability as a number: 90 for sm_90 and sm_90a.
  unsigned smVersion = 0;
  /// True for architecture-specific targets ("a" suffix), whose code runs only
  /// on exactly that compute capability.
  bool archSpecific = false;
  /// PTX ISA version of the emitted PTX.
  PtxVersion ptxVersion = 0;

  /// The NVPTX target feature selecting the PTX version: "+ptx83".
  std::string ptxFeature() const;
  /// The architecture as fatbinary's `sm=` key spells it: "90a".
  std::string fatbinSm() const;
};

/// Architectures the code generator supports, oldest first.
llvm::ArrayRef<llvm::StringRef> supportedArchs();

/// Validates `arch` and `ptxVersion` and returns the target. A `ptxVersion`
/// of 0 selects the default version for the architecture. Fails with a
/// message naming the supported architectures or the valid PTX range.
llvm::Expected<GpuTarget> resolveGpuTarget(llvm::StringRef arch,
                                           PtxVersion ptxVersion = 0);

/// The lowest PTX ISA version that can target `arch` (which must be
/// supported).
PtxVersion minPtxVersion(llvm::StringRef arch);

/// The PTX ISA version used for `arch` when none is requested.
PtxVersion defaultPtxVersion(llvm::StringRef arch);

/// The highest PTX ISA version accepted by the ptxas of CUDA release
/// `major.minor`, or 0 for releases older than CUDA 11.0 (unsupported).
/// Releases newer than the table accept at least `kMaxPtxVersion`.
PtxVersion maxPtxVersionForCudaRelease(unsigned major, unsigned minor);

/// Formats a PTX version for messages: 83 -> "8.3".
std::string formatPtxVersion(PtxVersion version);

} // namespace tilec

#endif // TILEC_CODEGEN_GPUTARGET_H
