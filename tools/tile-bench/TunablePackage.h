//===- TunablePackage.h - A kernel package to tune --------------*- C++ -*-===//
//
// What the benchmark phase reads of a kernel package's `index.json`
// (`tilec.package/1`, docs/tuning.md), through the runtime's reader (so that
// what is tuned is what the runtime opens): the kernel, its default variant,
// the shapes to tune for and every variant's metadata file, with the
// index's digest the tuning database records.
//
//===----------------------------------------------------------------------===//

#ifndef TILEBENCH_TUNABLEPACKAGE_H
#define TILEBENCH_TUNABLEPACKAGE_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tilebench {

/// Values for some of a kernel's dims, in the order they were given.
using DimValues = std::vector<std::pair<std::string, int64_t>>;

/// One variant of a package.
struct TunableVariant {
  /// The variant's name (`gemm-block_K_64`) and architecture; together they
  /// identify it.
  std::string Name;
  std::string Arch;
  /// The path of its metadata JSON.
  std::string MetadataPath;
};

/// A kernel package's index.
struct TunablePackage {
  /// The package's directory and its index file.
  std::string Directory;
  std::string IndexPath;
  /// The lowercase hex sha256 of index.json's bytes.
  std::string IndexSha256;
  /// The kernel's name and the name of its default variant.
  std::string Kernel;
  std::string Default;
  /// The shapes the package was compiled to be tuned for.
  std::vector<DimValues> Shapes;
  /// Every variant, in index order.
  std::vector<TunableVariant> Variants;
};

/// Reads `directory`/index.json. Throws BenchError naming the file and the
/// problem when it is missing, malformed or of another schema.
TunablePackage readTunablePackage(const std::string &directory);

/// `M=4096 N=4096 K=4096`.
std::string describeDims(const DimValues &dims);

} // namespace tilebench

#endif // TILEBENCH_TUNABLEPACKAGE_H
