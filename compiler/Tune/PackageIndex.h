//===- PackageIndex.h - The index of a kernel package ----------*- C++ -*-===//
//
// A kernel package is a directory with the variants of one kernel that the
// compile phase of a tuning space kept (a cubin and its metadata JSON per
// variant and architecture, as tilec writes them) and `index.json`, schema
// `tilec.package/1` (docs/tuning.md):
//
//   {
//     "schema": "tilec.package/1",
//     "kernel": "gemm",
//     "source": {"path": "specs/gemm.tile", "sha256": "..."},
//     "space": {"path": "specs/gemm.tune.yaml", "sha256": "..."},
//     "archs": ["sm_90a"],
//     "shapes": [{"M": 4096, "N": 4096, "K": 4096}, ...],
//     "fast_math": false,
//     "default": "gemm",
//     "variants": [
//       {"name": "gemm-block_K_64", "arch": "sm_90a",
//        "defines": {"block_M": 128, "block_K": 64, ...},
//        "files": {"metadata": "gemm-block_K_64.sm_90a.json",
//                  "cubin": "gemm-block_K_64.sm_90a.cubin"},
//        "registers": 168, "spills": {"stores": 0, "loads": 0},
//        "smem": 98432, "threads": 256}, ...
//     ]
//   }
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_TUNE_PACKAGEINDEX_H
#define TILEC_COMPILER_TUNE_PACKAGEINDEX_H

#include "compiler/Target.h"
#include "compiler/Tune/TuningSpace.h"
#include "compiler/Types.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tilec {

/// The schema of index.json.
constexpr const char *PackageIndexSchema = "tilec.package/1";
/// The name of the index in a package's directory.
constexpr const char *PackageIndexName = "index.json";

/// A variant of the kernel compiled for one architecture.
struct PackageVariant {
  /// Its name: the file-name stem tilec gives it.
  std::string Name;
  /// The architecture.
  Arch Target = Arch::SM90a;
  /// The values of the parameters the space varies, in the kernel's order.
  std::vector<std::pair<std::string, Constant>> Defines;
  /// The metadata JSON's file name, in the package.
  std::string Metadata;
  /// The cubin's file name, in the package.
  std::string Cubin;
  /// Registers per thread, from ptxas.
  unsigned Registers = 0;
  /// Bytes of spill stores and spill loads, from ptxas.
  std::uint64_t SpillStores = 0, SpillLoads = 0;
  /// Bytes of shared memory per block (static and dynamic).
  std::uint64_t SharedMemory = 0;
  /// Threads per block.
  unsigned Threads = 0;
};

/// What index.json describes.
struct PackageIndex {
  /// The kernel's name.
  std::string Kernel;
  /// The `.tile` file, as the compile phase gave it to tilec (the space's
  /// `spec`, relative to the space's directory), and the SHA-256 of its
  /// bytes.
  std::string SourcePath, SourceSha256;
  /// The tuning space's file (as given) and the SHA-256 of its bytes.
  std::string SpacePath, SpaceSha256;
  /// The architectures compiled for.
  std::vector<Arch> Archs;
  /// The problem shapes to tune for.
  std::vector<SpaceShape> Shapes;
  /// True if every variant was compiled with `--fast-math`.
  bool FastMath = false;
  /// The name of the variant with the kernel's defaults.
  std::string Default;
  /// The variants, in the order of the space's candidates.
  std::vector<PackageVariant> Variants;
};

/// Returns `Index` as the JSON of index.json.
nlohmann::ordered_json describePackageIndex(const PackageIndex &Index);

} // namespace tilec

#endif // TILEC_COMPILER_TUNE_PACKAGEINDEX_H
