//===- Metadata.h - Kernel metadata JSON (tilec.kernel/1) -------*- C++ -*-===//
//
// The JSON document of docs/metadata.md that tells the runtime how to
// validate arguments and launch a kernel. It is assembled in three steps:
// describeKernel (from the tile IR after the tile-gpu phase, before
// lowering), setPtxasResults (after ptxas) and setBinaries (when the
// artifacts are written).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_METADATA_H
#define TILEC_CODEGEN_METADATA_H

#include "codegen/GpuTarget.h"
#include "codegen/PtxasReport.h"

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mlir::tile {
class KernelOp;
} // namespace mlir::tile

namespace tilec {

/// The schema identifier written into every document.
constexpr const char *kMetadataSchema = "tilec.kernel/1";
/// The schema of metadata with `tensor_map` parameters, which 1.2 readers
/// encode as optional maps (a tensor that breaks TMA's rules gets a zeroed
/// map: the kernel checks the rules itself and copies without TMA).
constexpr const char *kTensorMapMetadataSchema = "tilec.kernel/1.2";

/// The `.tile` file a kernel came from, as recorded in the metadata.
struct KernelSource {
  /// The path as given on the command line.
  std::string path;
  /// Lowercase hex SHA-256 of the file's bytes (see sha256Hex).
  std::string sha256;
};

/// One binary file described by the metadata.
struct BinaryFile {
  /// "cubin", "ptx" or "fatbin".
  std::string kind;
  /// File name relative to the JSON's directory.
  std::string file;
  /// The file's bytes (hashed into the document).
  llvm::StringRef bytes;
};

/// The metadata dtype of `type` ("f16", "bf16", "f32", "f64", "i8", "i16",
/// "i32", "i64", "u8", "u32", "bool"), or nullopt if the schema has none.
std::optional<std::string> dtypeName(mlir::Type type);

/// Describes `kernel` compiled for `target`: everything but the binaries
/// (an empty list) and the ptxas results (`versions.ptxas` is null and
/// `resources` are zeros with `"source": "none"`). `launch.dynamic_smem` is
/// the kernel's `tile.shared_memory_bytes` (set by
/// tile-allocate-shared-memory; 0 without it). Reports unsupported
/// parameters and grid expressions at their locations.
mlir::FailureOr<nlohmann::ordered_json>
describeKernel(mlir::tile::KernelOp kernel, const GpuTarget &target,
               const KernelSource &source);

/// Records the ptxas version and the resources it reported
/// (`"source": "ptxas"`).
void setPtxasResults(nlohmann::ordered_json &metadata,
                     llvm::StringRef ptxasVersion,
                     const PtxasResources &resources);

/// Lists `binaries`, with the SHA-256 of each, in the metadata.
void setBinaries(nlohmann::ordered_json &metadata,
                 llvm::ArrayRef<BinaryFile> binaries);

} // namespace tilec

#endif // TILEC_CODEGEN_METADATA_H
