//===- Rasterization.cpp - Thread-block rasterization ---------------------===//
//
// The lowering of `tile.use_swizzle`: the launch's block indices, read from
// `ctaid.x/y` when the kernel is set up, are replaced in the thread's value
// map by the rasterized ones (Rasterization.h), computed from them and the
// grid extents `nctaid.x/y` (in the tile loop of a persistent launch, the
// current tile's indices and the launch's grid). The op's verifier
// guarantees that nothing has used the block indices before.
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/Rasterization.h"

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tilec;

RasterizedBlock tilec::emitRasterizedBlock(OpBuilder &builder, Location loc,
                                           Value blockX, Value blockY,
                                           Value gridX, Value gridY,
                                           int64_t panel) {
  auto constant = [&](int64_t value) {
    return builder.createOrFold<arith::ConstantIndexOp>(loc, value);
  };
  auto sub = [&](Value a, Value b) {
    return builder.createOrFold<arith::SubIOp>(loc, a, b);
  };
  auto mul = [&](Value a, Value b) {
    return builder.createOrFold<arith::MulIOp>(loc, a, b);
  };
  auto add = [&](Value a, Value b) {
    return builder.createOrFold<arith::AddIOp>(loc, a, b);
  };
  Value panelRows = constant(panel);
  Value panelIndex =
      builder.createOrFold<arith::DivUIOp>(loc, blockY, panelRows);
  Value firstRow = mul(panelIndex, panelRows);
  // The block's number in its panel, in launch order, and the panel's rows.
  Value offset = add(mul(sub(blockY, firstRow), gridX), blockX);
  Value rows = builder.createOrFold<arith::MinUIOp>(loc, panelRows,
                                                    sub(gridY, firstRow));
  Value column = builder.createOrFold<arith::DivUIOp>(loc, offset, rows);
  Value row = add(firstRow, sub(offset, mul(column, rows)));
  Value odd = builder.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::ne,
      builder.createOrFold<arith::AndIOp>(loc, panelIndex, constant(1)),
      constant(0));
  Value reversed = sub(sub(gridX, constant(1)), column);
  Value x = builder.createOrFold<arith::SelectOp>(loc, odd, reversed, column);
  return {x, row};
}

int64_t tilec::getClusterBlocks(Operation *op) {
  auto roles = op->getParentOfType<tile::WarpSpecializeOp>();
  return roles ? roles.getClusterBlocks() : 1;
}

Value tilec::emitClusterGridRows(OpBuilder &builder, Location loc,
                                 Value gridRows, int64_t clusterBlocks) {
  Value padded = arith::AddIOp::create(
      builder, loc, gridRows,
      arith::ConstantIndexOp::create(builder, loc, clusterBlocks - 1));
  return arith::DivUIOp::create(
      builder, loc, padded,
      arith::ConstantIndexOp::create(builder, loc, clusterBlocks));
}

Value tilec::emitClusterBlockRow(OpBuilder &builder, Location loc,
                                 Value clusterRow, Value rank,
                                 int64_t clusterBlocks) {
  Value scaled = arith::MulIOp::create(
      builder, loc, clusterRow,
      arith::ConstantIndexOp::create(builder, loc, clusterBlocks));
  return arith::AddIOp::create(builder, loc, scaled, rank);
}

namespace {

LogicalResult lowerUseSwizzle(KernelLowering &lowering, tile::UseSwizzleOp op,
                              Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = op.getLoc();
  auto launch = op->getParentOfType<tile::LaunchOp>();
  auto indices = launch.getBlockIndices();
  // In a persistent launch (a tile loop) the grid is the launch's, not the
  // blocks launched.
  bool persistent = op->getParentOfType<tile::TileLoopOp>() != nullptr;
  Value gridX = persistent ? lane.map.lookup(launch.getGrid()[0])
                           : lowering.emitGridExtent(loc, 0);
  Value gridY = persistent ? lane.map.lookup(launch.getGrid()[1])
                           : lowering.emitGridExtent(loc, 1);
  // In a launch of clusters, the tile loop left the row of the grid of
  // clusters (ceil(Y / N) rows, panels of ceil(panel / N) of them): the
  // block's own row follows from the rasterized one and its rank.
  int64_t cluster = getClusterBlocks(op);
  int64_t panel = op.getPanel();
  if (cluster > 1) {
    gridY = emitClusterGridRows(builder, loc, gridY, cluster);
    panel = llvm::divideCeil(panel, cluster);
  }
  RasterizedBlock block =
      emitRasterizedBlock(builder, loc, lane.map.lookup(indices[0]),
                          lane.map.lookup(indices[1]), gridX, gridY, panel);
  if (cluster > 1)
    block.y = emitClusterBlockRow(builder, loc, block.y,
                                  lowering.emitClusterRank(loc), cluster);
  lane.map.map(indices[0], block.x);
  lane.map.map(indices[1], block.y);
  return success();
}

} // namespace

void tilec::populateRasterizationLowerings(LoweringSet &set) {
  set.add<tile::UseSwizzleOp>(lowerUseSwizzle);
}
