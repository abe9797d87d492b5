//===- TensorMaps.h - The TMA tensor maps of a kernel -----------*- C++ -*-===//
//
// A TMA copy (`tile.copy ... barrier`, made by tile-pipeline-loops) reads
// boxes of a global tensor, and a TMA store (`tile.copy ... staged`) writes
// them, through a tensor map (`CUtensorMap`) that the
// runtime encodes at launch and passes by value after the kernel's other
// parameters (docs/abi.md, docs/metadata.md). The lowering (which adds the
// parameters and issues the copies) and the metadata (which describes them)
// both take the list from here, so the two cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PASSES_ANALYSIS_TENSORMAPS_H
#define TILEC_PASSES_ANALYSIS_TENSORMAPS_H

#include "dialects/Tile/TileOps.h"

#include <optional>
#include <string>

namespace tilec {

/// How a TMA copy fills its shared tile: `panels` boxes of `boxRows` x
/// `boxColumns` elements side by side (one per column panel of the tile's
/// swizzled layout), each written in the swizzle of `swizzleBytes`.
struct TmaBoxes {
  int64_t boxRows = 0;
  int64_t boxColumns = 0;
  int64_t panels = 0;
  int64_t swizzleBytes = 0;
};

/// The boxes that fill the rank-2 shared tile of type `tile`, or
/// std::nullopt if no TMA box writes its layout (TMA copies need a swizzled
/// layout of 16-byte vectors whose panels are one swizzle span of 32, 64 or
/// 128 bytes wide, and at most 256 rows).
std::optional<TmaBoxes> describeTmaBoxes(mlir::tile::BufferType tile);

/// One tensor map parameter of a kernel (for a multicast copy in clusters
/// of N blocks, the box is each block's band: boxRows / N rows).
struct TensorMapParam {
  /// The kernel argument (a global tensor) the map describes.
  unsigned argument = 0;
  /// The box, outermost extent first.
  int64_t boxRows = 0;
  int64_t boxColumns = 0;
  int64_t swizzleBytes = 0;
  /// The parameter's name: `<tensor>_map`, or `<tensor>_map<i>` for the
  /// i-th further map of the same tensor.
  std::string name;
};

/// The tensor maps the TMA copies and stores of `kernel` use, one per
/// tensor, box and
/// swizzle, in the order of their first use: the order of the parameters.
llvm::SmallVector<TensorMapParam>
collectTensorMaps(mlir::tile::KernelOp kernel);

/// The index in `maps` of the map the TMA copy or store `copy` uses, or
/// std::nullopt if it has none.
std::optional<size_t> findTensorMap(llvm::ArrayRef<TensorMapParam> maps,
                                    mlir::tile::CopyOp copy);

} // namespace tilec

#endif // TILEC_PASSES_ANALYSIS_TENSORMAPS_H
