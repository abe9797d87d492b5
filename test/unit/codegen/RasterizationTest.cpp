//===- RasterizationTest.cpp - Thread-block rasterization -----------------===//
//
// Evaluates the arithmetic that the lowering of `tile.use_swizzle` emits (by
// folding it on constant block indices and grid extents) for every block of
// several grids and panels: it must visit every block exactly once, and
// agree with TileLang's rasterization2DRow, mirrored here from its
// definition on the linear block index.
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/Rasterization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <catch2/catch.hpp>

#include <set>
#include <utility>
#include <vector>

using namespace mlir;
using namespace tilec;

namespace {
using BlockIndex = std::pair<int64_t, int64_t>;

/// TileLang's rasterization2DRow<panel> of block (bx, by) of a gx x gy grid:
/// panels of `panel` rows of the linear order, the last one shorter, walked
/// column by column, every other panel right to left.
BlockIndex mirrorTileLang(int64_t bx, int64_t by, int64_t gx, int64_t gy,
                          int64_t panel) {
  int64_t linear = by * gx + bx;
  int64_t panelBlocks = panel * gx;
  int64_t panelIndex = linear / panelBlocks;
  int64_t panelOffset = linear % panelBlocks;
  int64_t panels = (gx * gy + panelBlocks - 1) / panelBlocks;
  int64_t rows = panelIndex + 1 < panels
                     ? panel
                     : (gx * gy - panelIndex * panelBlocks) / gx;
  int64_t column = panelOffset / rows;
  if (panelIndex % 2 == 1)
    column = gx - 1 - column;
  return {column, panelIndex * panel + panelOffset % rows};
}

/// Emits the rasterization of one block on constants and returns the folded
/// result.
BlockIndex evaluate(OpBuilder &builder, int64_t bx, int64_t by, int64_t gx,
                    int64_t gy, int64_t panel) {
  Location loc = builder.getUnknownLoc();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  RasterizedBlock block =
      emitRasterizedBlock(builder, loc, constant(bx), constant(by),
                          constant(gx), constant(gy), panel);
  std::optional<int64_t> x = getConstantIntValue(block.x);
  std::optional<int64_t> y = getConstantIntValue(block.y);
  REQUIRE(x);
  REQUIRE(y);
  return {*x, *y};
}

/// Returns the blocks worked on, in launch order (x fastest).
std::vector<BlockIndex> rasterize(int64_t gx, int64_t gy, int64_t panel) {
  MLIRContext context;
  context.loadDialect<arith::ArithDialect>();
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module->getBody());
  std::vector<BlockIndex> order;
  for (int64_t by = 0; by < gy; ++by)
    for (int64_t bx = 0; bx < gx; ++bx)
      order.push_back(evaluate(builder, bx, by, gx, gy, panel));
  return order;
}
} // namespace

TEST_CASE("rasterization walks panels column by column, in a serpentine",
          "[rasterization]") {
  // 3 x 5 blocks, panels of 2 rows: rows {0, 1} left to right, rows {2, 3}
  // right to left, row {4} (a partial panel) left to right.
  std::vector<BlockIndex> expected = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0},
                                      {2, 1}, {2, 2}, {2, 3}, {1, 2}, {1, 3},
                                      {0, 2}, {0, 3}, {0, 4}, {1, 4}, {2, 4}};
  CHECK(rasterize(3, 5, 2) == expected);
}

TEST_CASE("rasterization is a bijection of the grid and is TileLang's",
          "[rasterization]") {
  for (int64_t gx : {1, 2, 3, 7, 16})
    for (int64_t gy : {1, 2, 5, 8, 13})
      for (int64_t panel : {1, 2, 3, 4, 8, 10, 16}) {
        INFO("grid " << gx << " x " << gy << ", panel " << panel);
        std::vector<BlockIndex> order = rasterize(gx, gy, panel);
        std::set<BlockIndex> visited;
        for (int64_t by = 0; by < gy; ++by)
          for (int64_t bx = 0; bx < gx; ++bx) {
            BlockIndex block = order[by * gx + bx];
            INFO("block (" << bx << ", " << by << ") -> (" << block.first
                           << ", " << block.second << ")");
            CHECK(block == mirrorTileLang(bx, by, gx, gy, panel));
            REQUIRE(block.first >= 0);
            REQUIRE(block.first < gx);
            REQUIRE(block.second >= 0);
            REQUIRE(block.second < gy);
            CHECK(visited.insert(block).second);
          }
        CHECK(visited.size() == static_cast<size_t>(gx * gy));
      }
}
