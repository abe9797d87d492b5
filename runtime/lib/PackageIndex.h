//===- PackageIndex.h - A kernel package's index.json -----------*- C++ -*-===//
//
// Parses and validates the index of a kernel package (schema
// tilec.package/1, docs/tuning.md "Kernel packages"): the kernel's name, the
// default variant and, per variant and architecture, the files of its
// metadata and cubin. Only what the runtime uses is required; other keys are
// ignored. Every error is TILERT_ERROR_METADATA naming index.json and the
// field at fault.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_PACKAGEINDEX_H
#define TILERT_LIB_PACKAGEINDEX_H

#include "Arch.h"
#include "Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilert::detail {

/// The index schema this runtime reads; any minor version of its major is
/// accepted.
inline constexpr std::string_view PackageSchemaPrefix = "tilec.package/";
/// The index schema major version this runtime reads.
inline constexpr int PackageSchemaMajor = 1;

/// One variant of a package, compiled for one architecture.
struct PackageVariantInfo {
  /// The variant's name (its files' stem); unique per architecture.
  std::string Name;
  /// The architecture it was compiled for.
  Arch Target;
  /// The path of its metadata JSON (the package directory joined with
  /// `files.metadata`).
  std::string MetadataPath;
  /// The path of its cubin (the package directory joined with
  /// `files.cubin`).
  std::string CubinPath;
};

/// One problem shape: a value per dim, in the dims' lexicographic order.
using PackageShape = std::vector<std::pair<std::string, int64_t>>;

/// What the runtime and the tuner read of index.json.
struct PackageIndex {
  /// The kernel's name.
  std::string Kernel;
  /// The name of the default variant (present for at least one arch).
  std::string Default;
  /// Every variant, in index order.
  std::vector<PackageVariantInfo> Variants;
  /// The shapes the package was compiled to be tuned for (`shapes`,
  /// optional: empty when absent).
  std::vector<PackageShape> Shapes;
};

/// Parses and validates `text`, the index.json at `path` (whose directory
/// the variants' files are relative to), into `out`.
Status parsePackageIndex(std::string_view text, const std::string &path,
                         PackageIndex &out);

} // namespace tilert::detail

#endif // TILERT_LIB_PACKAGEINDEX_H
