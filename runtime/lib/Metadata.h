//===- Metadata.h - Kernel metadata (schema tilec.kernel/1) -----*- C++ -*-===//
//
// Parses and completely validates a kernel's metadata JSON (docs/metadata.md)
// into the model the launcher works from. Every error is
// TILERT_ERROR_METADATA (TILERT_ERROR_IO for an unreadable file) with a
// message naming the file and the field at fault.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_METADATA_H
#define TILERT_LIB_METADATA_H

#include "Arch.h"
#include "IntExpr.h"
#include "Status.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilert::detail {

/// The schema this runtime reads; any minor version of its major is accepted.
inline constexpr std::string_view SchemaPrefix = "tilec.kernel/";
/// The schema major version this runtime reads.
inline constexpr int SchemaMajor = 1;

/// A binary file of the kernel.
struct BinaryInfo {
  /// What the file holds.
  BinaryKind Kind = BinaryKind::Cubin;
  /// Path relative to the JSON's directory.
  std::string File;
  /// Lowercase hex sha256 of the file's bytes.
  std::string Sha256;
};

/// One dimension of a tensor parameter.
struct ShapeEntry {
  /// Index into KernelMetadata::Dims, or -1 for a constant extent.
  int32_t Dim = -1;
  /// The constant extent (when Dim is -1).
  int64_t Value = 0;
};

/// A tensor parameter.
struct TensorParam {
  std::string Name;
  tilertDType DType = TILERT_DTYPE_INVALID;
  std::vector<ShapeEntry> Shape;
  /// Byte alignment the kernel assumes for the address (a power of two).
  int64_t Alignment = 1;
};

/// A runtime scalar parameter.
struct ScalarParam {
  std::string Name;
  tilertDType DType = TILERT_DTYPE_INVALID;
};

/// The largest tensor rank a TMA tensor map can describe.
inline constexpr size_t MaxTensorMapRank = 5;

/// What a tensor map reads for elements outside the tensor.
enum class OobFill {
  /// Zeros (CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE).
  Zero,
  /// NaNs that make FMAs produce zeros
  /// (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA); float dtypes only.
  Nan,
};

/// A TMA tensor map parameter: a 128-byte CUtensorMap of one box of a tensor
/// parameter, which the runtime encodes at launch and passes by value.
struct TensorMapParam {
  std::string Name;
  /// Index into KernelMetadata::Tensors of the tensor it describes.
  size_t Tensor = 0;
  /// Box extents, outermost first like the tensor's shape, each in [1, 256].
  std::vector<uint32_t> Box;
  /// Swizzle span in bytes: 0 (none), 32, 64 or 128.
  uint32_t Swizzle = 0;
  /// L2 promotion in bytes: 0 (none), 64, 128 or 256.
  uint32_t L2Promotion = 0;
  /// What out-of-bounds elements read as.
  OobFill Fill = OobFill::Zero;
  /// True if the kernel checks TMA's rules itself and copies without the
  /// map where the tensor breaks them: the launch then passes a zeroed map
  /// instead of failing (schema 1.2 `optional`).
  bool Optional = false;
};

/// Launch geometry.
struct LaunchConfig {
  /// Grid extents (x, y, z) as expressions over KernelMetadata::Dims.
  std::array<IntExpr, 3> Grid;
  /// Threads per block.
  std::array<uint32_t, 3> Block{1, 1, 1};
  /// Thread-block cluster dims.
  std::array<uint32_t, 3> Cluster{1, 1, 1};
  /// Dynamic shared memory per block, bytes.
  uint32_t DynamicSmem = 0;
  /// True if every block loops over tiles of the grid (a persistent
  /// kernel): the launch starts at most as many blocks as the device keeps
  /// resident, in x, and the grid above is the tile grid (schema 1.2).
  bool Persistent = false;
};

/// Everything the runtime knows about a kernel, from its metadata.
struct KernelMetadata {
  /// The JSON's path as given (used in messages and to locate binaries).
  std::string Path;
  std::string Name;
  std::string Entry;
  Arch Target;
  std::vector<BinaryInfo> Binaries;
  /// The resolved compile-time parameters (a JSON object).
  nlohmann::json Constants;
  std::vector<TensorParam> Tensors;
  /// Dim parameter names, in ABI order.
  std::vector<std::string> Dims;
  std::vector<ScalarParam> Scalars;
  /// Tensor map parameters, in ABI order (after the scalars).
  std::vector<TensorMapParam> TensorMaps;
  LaunchConfig Launch;
  /// Static shared memory per block (resources.static_smem), bytes.
  uint32_t StaticSmem = 0;
  /// Registers per thread (resources.registers; 0 when unknown).
  uint32_t Registers = 0;
};

/// Parses and validates metadata `text`; `path` names the file in messages
/// and locates the binaries.
Status parseMetadata(std::string_view text, const std::string &path,
                     KernelMetadata &out);

/// Reads the file at `path` and parses it with parseMetadata.
Status loadMetadata(const std::string &path, KernelMetadata &out);

} // namespace tilert::detail

#endif // TILERT_LIB_METADATA_H
