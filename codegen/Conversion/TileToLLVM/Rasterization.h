//===- Rasterization.h - Thread-block rasterization -------------*- C++ -*-===//
//
// `tile.use_swizzle %panel` (TileLang's `T.use_swizzle(panel)`, whose
// default order is `rasterization2DRow`) changes which output tile each
// thread block of a 2-D launch computes, so that the blocks running at the
// same time share rows of A and columns of B in L2:
//
//   For a grid of gx x gy blocks, the rows of blocks are cut into panels of
//   `panel` rows; panel k = by / panel covers rows [k*panel, k*panel + h),
//   h = min(panel, gy - k*panel) (the last panel may be shorter). Blocks are
//   launched x-fastest; block (bx, by) is number o = (by - k*panel) * gx + bx
//   of its panel and computes tile
//     x = o / h              (gx - 1 - o / h when k is odd),
//     y = k*panel + o % h.
//
// Consecutive blocks thus walk down the h rows of one column of a panel,
// then the next column, and every other panel runs its columns right to
// left (a serpentine). It is a bijection of the grid: within panel k,
// o -> (o / h, o % h) maps [0, h*gx) onto [0, gx) x [0, h), and the panels
// partition the rows. This is TileLang's rasterization2DRow<panel> (there
// the panel and offset come from the linear block index by*gx + bx; as
// bx < gx they are by / panel and (by % panel)*gx + bx).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_CONVERSION_TILETOLLVM_RASTERIZATION_H
#define TILEC_CODEGEN_CONVERSION_TILETOLLVM_RASTERIZATION_H

#include "mlir/IR/Builders.h"

namespace tilec {

/// The block indices a thread block works on under `tile.use_swizzle`.
struct RasterizedBlock {
  mlir::Value x;
  mlir::Value y;
};

/// Emits, at the builder's insertion point, the `index` arithmetic that maps
/// the launched block (`blockX`, `blockY`) of a `gridX` x `gridY` grid to the
/// block it works on with panels of `panel` (>= 1) rows (see above). Ops on
/// constants are folded.
RasterizedBlock emitRasterizedBlock(mlir::OpBuilder &builder,
                                    mlir::Location loc, mlir::Value blockX,
                                    mlir::Value blockY, mlir::Value gridX,
                                    mlir::Value gridY, int64_t panel);

/// The blocks of a thread-block cluster in the launch around `op`: the
/// `cluster` of its `tile.warp_specialize`, 1 without one.
int64_t getClusterBlocks(mlir::Operation *op);

/// Emits the rows of the grid of clusters of `clusterBlocks` blocks over a
/// grid of `gridRows` rows: ceil(gridRows / clusterBlocks).
mlir::Value emitClusterGridRows(mlir::OpBuilder &builder, mlir::Location loc,
                                mlir::Value gridRows, int64_t clusterBlocks);

/// Emits the y block index of a block of rank `rank` in a cluster of
/// `clusterBlocks` blocks that works on row `clusterRow` of the grid of
/// clusters: clusterRow * clusterBlocks + rank (see tile.warp_specialize).
mlir::Value emitClusterBlockRow(mlir::OpBuilder &builder, mlir::Location loc,
                                mlir::Value clusterRow, mlir::Value rank,
                                int64_t clusterBlocks);

} // namespace tilec

#endif // TILEC_CODEGEN_CONVERSION_TILETOLLVM_RASTERIZATION_H
