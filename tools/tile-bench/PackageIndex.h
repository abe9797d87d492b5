//===- PackageIndex.h - The index of a kernel package -----------*- C++ -*-===//
//
// What the benchmark phase reads of a kernel package's `index.json`
// (`tilec.package/1`, docs/tuning.md): the kernel, its default variant, the
// shapes to tune for and every variant's metadata file.
//
//===----------------------------------------------------------------------===//

#ifndef TILEBENCH_PACKAGEINDEX_H
#define TILEBENCH_PACKAGEINDEX_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tilebench {

/// Values for some of a kernel's dims, in the order they were given.
using DimValues = std::vector<std::pair<std::string, int64_t>>;

/// One variant of a package.
struct PackageVariant {
  /// The variant's name (`gemm-block_K_64`) and architecture; together they
  /// identify it.
  std::string Name;
  std::string Arch;
  /// The path of its metadata JSON.
  std::string MetadataPath;
};

/// A kernel package's index.
struct PackageIndex {
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
  std::vector<PackageVariant> Variants;
};

/// Reads `directory`/index.json. Throws BenchError naming the file and the
/// problem when it is missing, malformed or of another schema.
PackageIndex readPackageIndex(const std::string &directory);

/// `M=4096 N=4096 K=4096`.
std::string describeDims(const DimValues &dims);

} // namespace tilebench

#endif // TILEBENCH_PACKAGEINDEX_H
