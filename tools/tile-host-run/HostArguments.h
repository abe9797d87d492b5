//===- HostArguments.h - A kernel's arguments on the host -------*- C++ -*-===//
//
// Everything a host run of a kernel needs besides its code, built from the
// kernel's metadata (docs/metadata.md, as tilec would write it) and the
// command line: the value of every symbolic dim, host buffers for the
// tensors (read from files or filled with deterministic pseudo-random
// values), the scalars encoded in their dtypes, and the grid, evaluated from
// the metadata's expressions by the runtime's own evaluator. Tensors and the
// run's description can be written to a directory for a reference to
// compare with.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEHOSTRUN_HOSTARGUMENTS_H
#define TILEC_TOOLS_TILEHOSTRUN_HOSTARGUMENTS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace tilehost {

/// What the command line says about a run.
struct ArgumentRequest {
  /// `NAME=VALUE` for every symbolic dim.
  std::vector<std::string> dims;
  /// `NAME=VALUE` for every scalar.
  std::vector<std::string> scalars;
  /// `NAME=FILE`: raw little-endian contents of a tensor; the other tensors
  /// are filled with pseudo-random values.
  std::vector<std::string> inputs;
  /// Seeds the pseudo-random contents.
  uint64_t seed = 1;
  /// For a persistent kernel (`launch.persistent`): the blocks to start, as
  /// the runtime starts min(tiles, resident blocks) along x; 0 starts one
  /// per tile.
  uint32_t persistentBlocks = 0;
};

/// A tensor argument and its host buffer.
struct HostTensor {
  std::string name;
  /// The metadata dtype ("f16", "u8", "bool", ...).
  std::string dtype;
  std::vector<int64_t> shape;
  size_t elementBytes = 0;
  size_t bytes = 0;
  /// The buffer, aligned to kTensorAlignment; never null.
  std::unique_ptr<char, decltype(&std::free)> data{nullptr, &std::free};
};

/// The type of `tensor` as the source writes it, with its extents:
/// `f32[37, 83]`.
std::string formatTensorType(const HostTensor &tensor);

/// A scalar argument.
struct HostScalar {
  std::string name;
  std::string dtype;
  /// The value as the kernel receives it (little-endian, `bool` as a byte).
  std::array<char, 8> bytes{};
  /// The value as a JSON number or boolean, after rounding to the dtype.
  nlohmann::json value;
};

/// A kernel's arguments and grid.
class HostArguments {
public:
  /// The alignment of every tensor buffer, at least any the metadata asks
  /// for.
  static constexpr size_t kTensorAlignment = 64;
  /// The most bytes the tensors may take together.
  static constexpr uint64_t kMaxTensorBytes = uint64_t(1) << 30;
  /// The most threads (blocks times threads per block) a run may have.
  static constexpr uint64_t kMaxThreads = uint64_t(1) << 24;

  /// Builds the arguments of the kernel `metadata` describes.
  static llvm::Expected<HostArguments>
  create(const nlohmann::ordered_json &metadata,
         const ArgumentRequest &request);

  /// The kernel's parameters in ABI order, each a pointer to its value (a
  /// tensor map's the HostTensorMap the runtime's encoding gives). Fails
  /// where the runtime would: a tensor that breaks TMA's rules for a map
  /// that is not optional.
  llvm::Expected<std::vector<void *>> getKernelParams();
  /// The tensors, in ABI order.
  std::vector<HostTensor> &getTensors() { return tensors; }
  /// Blocks along x, y and z.
  const std::array<uint32_t, 3> &getGrid() const { return grid; }
  /// Threads per block.
  uint32_t getThreads() const { return threads; }

  /// Writes every tensor to `directory`/NAME.`suffix`.
  llvm::Error writeTensors(llvm::StringRef directory,
                           llvm::StringRef suffix) const;
  /// Writes `directory`/run.json: the kernel, its constants, the grid, the
  /// dims, the scalars and the tensors with the files written by
  /// writeTensors with the suffixes `inputSuffix` and `outputSuffix`.
  llvm::Error writeDescription(llvm::StringRef directory,
                               llvm::StringRef inputSuffix,
                               llvm::StringRef outputSuffix) const;

private:
  HostArguments() = default;

  nlohmann::ordered_json metadata;
  std::vector<HostTensor> tensors;
  std::vector<std::pair<std::string, int64_t>> dims;
  std::vector<HostScalar> scalars;
  std::array<uint32_t, 3> grid{};
  uint32_t threads = 0;
  /// The tensors' base addresses, which the kernel parameters point to.
  std::vector<void *> bases;
  /// The bytes of the tensor map parameters.
  struct alignas(64) TensorMapBytes {
    char bytes[128];
  };
  std::vector<TensorMapBytes> tensorMaps;
};

} // namespace tilehost

#endif // TILEC_TOOLS_TILEHOSTRUN_HOSTARGUMENTS_H
