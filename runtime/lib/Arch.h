//===- Arch.h - Target architectures and compatibility ----------*- C++ -*-===//
//
// Parses `sm_XY[a]` targets and applies CUDA's compatibility rules: SASS for
// sm_XY runs on compute capability X.Z with Z >= Y; SASS for sm_XYa runs only
// on exactly X.Y; PTX for sm_XY can be JIT-compiled for any X.Y or newer, PTX
// for sm_XYa only for X.Y. A fatbin may hold several images, so only the
// driver can tell whether it fits.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_ARCH_H
#define TILERT_LIB_ARCH_H

#include "Status.h"

#include <string>
#include <string_view>
#include <vector>

namespace tilert::detail {

/// The kind of a kernel binary.
enum class BinaryKind { Cubin, Ptx, Fatbin };

/// Returns the metadata spelling of `kind` ("cubin", "ptx", "fatbin").
const char *binaryKindName(BinaryKind kind);

/// Parses a metadata binary kind; returns false if `name` is not one.
bool parseBinaryKind(std::string_view name, BinaryKind &kind);

/// A target architecture such as sm_90a.
struct Arch {
  /// The spelling, e.g. "sm_90a".
  std::string Name;
  /// Compute capability major and minor version targeted.
  int Major = 0;
  int Minor = 0;
  /// Whether this is an architecture-specific target ("a" suffix).
  bool Specific = false;
};

/// Parses "sm_" followed by two or three digits and an optional "a"; returns
/// false if `name` is not of that form.
bool parseArch(std::string_view name, Arch &arch);

/// Whether SASS built for `arch` runs on compute capability ccMajor.ccMinor.
bool sassRunsOn(const Arch &arch, int ccMajor, int ccMinor);

/// Whether PTX built for `arch` can be JIT-compiled for ccMajor.ccMinor.
bool ptxRunsOn(const Arch &arch, int ccMajor, int ccMinor);

/// Orders the indices of `kinds` (the kernel's binaries) that may run on a
/// device of compute capability ccMajor.ccMinor, best first: a compatible
/// cubin, then a fatbin, then compatible PTX. If none may run, returns
/// TILERT_ERROR_ARCH_MISMATCH naming `device` (a description of the device)
/// and the rule that excludes each binary.
Status selectBinaries(const Arch &arch, const std::vector<BinaryKind> &kinds,
                      int ccMajor, int ccMinor, const std::string &device,
                      std::vector<size_t> &order);

} // namespace tilert::detail

#endif // TILERT_LIB_ARCH_H
