//===- TileLayouts.h - The maths of the tile layouts ------------*- C++ -*-===//
//
// Value types that the layout attributes (TileLayoutAttrs.td) hand to the
// passes and the lowering, so that the thread <-> element mapping of a
// layout is computed in one place (TileLayouts.cpp) and unit-tested.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECTS_TILE_TILELAYOUTS_H
#define TILEC_DIALECTS_TILE_TILELAYOUTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <utility>

namespace mlir::tile {

/// The coordinates (outermost first) of the element at row-major index
/// `flat` of a tile of `shape`.
llvm::SmallVector<int64_t> delinearize(int64_t flat,
                                       llvm::ArrayRef<int64_t> shape);

/// The distribution of `total` flat elements over `threads` threads that
/// take `vec` consecutive elements per step (`#tile.flat<vec>`).
struct FlatDistribution {
  int64_t total = 0;
  int64_t threads = 0;
  int64_t vec = 1;

  /// Elements the whole block covers in one step.
  int64_t elementsPerStep() const { return threads * vec; }
  /// Steps needed to cover every element.
  int64_t steps() const {
    return (total + elementsPerStep() - 1) / elementsPerStep();
  }
  /// Registers each thread needs (the per-thread storage of a fragment).
  int64_t elementsPerThread() const { return steps() * vec; }
  /// True if the last step leaves some threads without elements.
  bool hasPartialStep() const { return total % elementsPerStep() != 0; }
  /// The flat element that register `reg` of thread `thread` holds, or -1
  /// if it holds none.
  int64_t flatElement(int64_t thread, int64_t reg) const {
    int64_t step = reg / vec;
    int64_t element = (step * threads + thread) * vec + reg % vec;
    return element < total ? element : -1;
  }
};

/// How `#tile.mma<warps_m, warps_n[, warpgroup]>` cuts a tile: the warp
/// tile of every warp and its 16 x 8 accumulator tiles.
struct MmaTiling {
  int64_t warpsM = 1;
  int64_t warpsN = 1;
  /// Rows and columns of one warp's tile.
  int64_t warpTileM = 0;
  int64_t warpTileN = 0;
  /// The wgmma order: warps numbered down the grid's columns, 16-row tiles
  /// interleaved over the warps of a column (see TileLayoutAttrs.td).
  bool warpgroup = false;

  /// 16-row accumulator tiles per warp tile.
  int64_t mTiles() const { return warpTileM / 16; }
  /// 8-column accumulator tiles per warp tile.
  int64_t nTiles() const { return warpTileN / 8; }
  /// Registers per lane: 4 per accumulator tile.
  int64_t elementsPerThread() const { return mTiles() * nTiles() * 4; }
  /// The row of warp `warp` in the warp grid.
  int64_t warpRow(int64_t warp) const {
    return warpgroup ? warp % warpsM : warp / warpsN;
  }
  /// The column of warp `warp` in the warp grid.
  int64_t warpColumn(int64_t warp) const {
    return warpgroup ? warp / warpsM : warp % warpsN;
  }
  /// The first tile row of the warp at grid row `row`.
  int64_t rowOrigin(int64_t row) const {
    return warpgroup ? 16 * row : row * warpTileM;
  }
  /// Tile rows between a warp's consecutive 16-row accumulator tiles.
  int64_t mTileStride() const { return warpgroup ? 16 * warpsM : 16; }
  /// The register of a row slice (`#tile.slice<..., dim = 1>`) holding
  /// the row of register `reg`: 2 per 16-row tile.
  int64_t rowSliceRegister(int64_t reg) const {
    return 2 * (reg / 4 / nTiles()) + reg % 4 / 2;
  }
  /// The register of a column slice (`dim = 0`) holding the column of
  /// register `reg`: 2 per 8-column tile.
  int64_t columnSliceRegister(int64_t reg) const {
    return 2 * (reg / 4 % nTiles()) + reg % 2;
  }
  /// The (row, column) of register `reg` of `lane` in warp `warp`.
  std::pair<int64_t, int64_t> coordinates(int64_t warp, int64_t lane,
                                          int64_t reg) const {
    int64_t tile = reg / 4, i = reg % 4;
    int64_t m = tile / nTiles(), n = tile % nTiles();
    int64_t row =
        rowOrigin(warpRow(warp)) + mTileStride() * m + lane / 4 + 8 * (i / 2);
    int64_t column =
        warpColumn(warp) * warpTileN + 8 * n + 2 * (lane % 4) + i % 2;
    return {row, column};
  }
};

/// How a wgmma shared-memory matrix descriptor describes a shared tile
/// (PTX ISA, "Matrix Descriptor Format"; ../shared/design/TENSORCORES.md §5).
struct WgmmaOperandLayout {
  /// The swizzle span in bytes: 128, 64 or 32.
  int64_t swizzleBytes = 0;
  /// The descriptor's layout type: 1 (128-byte), 2 (64-byte), 3 (32-byte).
  int64_t layoutType = 0;
  /// The leading-dimension byte offset: between the tile's column panels
  /// when the tile's contiguous dimension is M or N; unused when it is K.
  int64_t leadingByteOffset = 0;
  /// The stride-dimension byte offset: between groups of 8 rows.
  int64_t strideByteOffset = 0;

  /// The 64-bit descriptor without its start address (bits 0-13).
  uint64_t descriptorBits() const {
    return uint64_t(leadingByteOffset >> 4) << 16 |
           uint64_t(strideByteOffset >> 4) << 32 | uint64_t(layoutType) << 62;
  }
};

} // namespace mlir::tile

#endif // TILEC_DIALECTS_TILE_TILELAYOUTS_H
