//===- LayoutTest.cpp - The maths of the tile layouts ---------------------===//
//
// Checks the thread/register -> element mapping of the layout attributes:
// every element of a tile is held by exactly one register of one thread,
// registers beyond the tile hold none, and the mapping is the one the
// lowering of parallel loops implements.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/TileOps.h"

#include "mlir/IR/MLIRContext.h"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <vector>

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Returns the row-major flat index of `coordinates` in `shape`.
int64_t flatten(ArrayRef<int64_t> coordinates, ArrayRef<int64_t> shape) {
  int64_t flat = 0;
  for (auto [coordinate, extent] : llvm::zip(coordinates, shape)) {
    REQUIRE(coordinate >= 0);
    REQUIRE(coordinate < extent);
    flat = flat * extent + coordinate;
  }
  return flat;
}

/// Checks that `layout` covers every element of `shape` exactly once over
/// `threads` threads, and returns the owner (thread, register) of each.
std::vector<std::pair<int64_t, int64_t>>
checkCovers(DistributedLayoutAttrInterface layout, ArrayRef<int64_t> shape,
            int64_t threads) {
  int64_t total = 1;
  for (int64_t extent : shape)
    total *= extent;
  int64_t registers = layout.getElementsPerThread(shape, threads);
  std::vector<std::pair<int64_t, int64_t>> owner(total, {-1, -1});
  for (int64_t thread = 0; thread < threads; ++thread)
    for (int64_t reg = 0; reg < registers; ++reg) {
      auto coordinates =
          layout.getElementCoordinates(shape, threads, thread, reg);
      if (!coordinates)
        continue;
      int64_t flat = flatten(*coordinates, shape);
      INFO("element " << flat << " thread " << thread << " reg " << reg);
      REQUIRE(owner[flat].first == -1);
      owner[flat] = {thread, reg};
    }
  for (int64_t flat = 0; flat < total; ++flat) {
    INFO("element " << flat);
    CHECK(owner[flat].first >= 0);
  }
  // Out-of-range threads and registers hold nothing.
  CHECK_FALSE(layout.getElementCoordinates(shape, threads, threads, 0));
  CHECK_FALSE(layout.getElementCoordinates(shape, threads, 0, registers));
  CHECK_FALSE(layout.getElementCoordinates(shape, threads, -1, 0));
  return owner;
}
} // namespace

TEST_CASE("#tile.flat: one full step", "[layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  auto layout = FlatLayoutAttr::get(&context, 4);
  FlatDistribution distribution = layout.distribute(1024, 256);
  CHECK(distribution.steps() == 1);
  CHECK(distribution.elementsPerThread() == 4);
  CHECK_FALSE(distribution.hasPartialStep());
  auto owner = checkCovers(layout, {1024}, 256);
  // Thread t holds elements 4t .. 4t+3.
  for (int64_t element = 0; element < 1024; ++element) {
    CHECK(owner[element].first == element / 4);
    CHECK(owner[element].second == element % 4);
  }
}

TEST_CASE("#tile.flat: rank 2 with a partial last step", "[layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  auto layout = FlatLayoutAttr::get(&context, 4);
  // 30 x 64 = 1920 elements, 128 threads x 4 = 512 per step: 4 steps, the
  // last one covering 384 elements (threads 0..95).
  FlatDistribution distribution = layout.distribute(1920, 128);
  CHECK(distribution.elementsPerStep() == 512);
  CHECK(distribution.steps() == 4);
  CHECK(distribution.elementsPerThread() == 16);
  CHECK(distribution.hasPartialStep());
  CHECK(layout.getElementsPerThread({30, 64}, 128) == 16);
  checkCovers(layout, {30, 64}, 128);
  // Register 13 = step 3, lane 1: thread 5 holds flat element
  // (3*128 + 5)*4 + 1 = 1557 = (24, 21).
  auto coordinates = layout.getElementCoordinates({30, 64}, 128, 5, 13);
  REQUIRE(coordinates);
  CHECK(*coordinates == SmallVector<int64_t>{24, 21});
  CHECK(distribution.flatElement(5, 13) == 1557);
  // Thread 96 has no element in the last step.
  CHECK_FALSE(layout.getElementCoordinates({30, 64}, 128, 96, 12));
  CHECK(distribution.flatElement(96, 12) == -1);
}

TEST_CASE("#tile.flat: every width and odd shapes", "[layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  for (int64_t vec : {1, 2, 8, 16})
    for (int64_t threads : {32, 96, 128})
      for (auto shape : std::vector<std::vector<int64_t>>{
               {16}, {7, 16}, {3, 5, 32}, {1, 1024}}) {
        if (shape.back() % vec != 0)
          continue;
        INFO("vec " << vec << " threads " << threads);
        checkCovers(FlatLayoutAttr::get(&context, vec), shape, threads);
      }
}

TEST_CASE("#tile.flat: verification", "[layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  std::vector<std::string> errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    errors.push_back(diagnostic.str());
    return success();
  });
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(&context)); };
  CHECK(succeeded(FlatLayoutAttr::verify(emitError, 8)));
  CHECK(failed(FlatLayoutAttr::verify(emitError, 6)));
  CHECK(failed(FlatLayoutAttr::verify(emitError, 0)));
  REQUIRE(errors.size() == 2);
  CHECK(errors[0] == "vec must be a positive power of two, got 6");
}

TEST_CASE("#tile.mma: the mma.sync m16n8k16 accumulator over warps",
          "[layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  auto layout = MmaLayoutAttr::get(&context, 2, 2);
  // 128 x 128 over 2 x 2 warps: 64 x 64 warp tiles of 4 x 8 accumulator
  // tiles, 128 registers per lane.
  FailureOr<MmaTiling> tiling = layout.getTiling({128, 128});
  REQUIRE(succeeded(tiling));
  CHECK(tiling->warpTileM == 64);
  CHECK(tiling->warpTileN == 64);
  CHECK(tiling->elementsPerThread() == 128);
  CHECK(layout.getElementsPerThread({128, 128}, 128) == 128);
  checkCovers(layout, {128, 128}, 128);
  // PTX ISA fragment C: lane 5 (g = 1, t = 1) of warp 3 (row 1, column 1),
  // register 6 = tile 1 (m 0, n 1), element 2: row 64 + 1 + 8, column
  // 64 + 8 + 2.
  auto coordinates =
      layout.getElementCoordinates({128, 128}, 128, 3 * 32 + 5, 6);
  REQUIRE(coordinates);
  CHECK(*coordinates == SmallVector<int64_t>{73, 74});
  // Tiles that do not divide into 16 x 8 per warp, or another warp count.
  CHECK(failed(layout.getTiling({48, 128})));
  CHECK(failed(layout.getTiling({128, 24})));
  CHECK_FALSE(layout.getElementCoordinates({128, 128}, 256, 0, 0));
  for (auto [warpsM, warpsN] :
       std::vector<std::pair<int64_t, int64_t>>{{4, 1}, {1, 4}, {2, 4}, {1, 1}})
    checkCovers(MmaLayoutAttr::get(&context, warpsM, warpsN), {64, 64},
                32 * warpsM * warpsN);
}

TEST_CASE("#tile.mma warpgroup: the wgmma m64nNk16 accumulator", "[layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  // 128 x 256 over 8 warps, two warpgroups side by side (warps_n = 2):
  // warp w is at row w % 4, column w / 4; its 16-row tiles are 64 rows
  // apart; each warpgroup holds a 128 x 128 block.
  auto layout = MmaLayoutAttr::get(&context, 4, 2, /*warpgroup=*/true);
  FailureOr<MmaTiling> tiling = layout.getTiling({128, 256});
  REQUIRE(succeeded(tiling));
  CHECK(tiling->warpTileM == 32);
  CHECK(tiling->warpTileN == 128);
  CHECK(tiling->elementsPerThread() == 128);
  checkCovers(layout, {128, 256}, 256);
  // PTX ISA wgmma fragment D of m64n128: register i of lane l (g = l / 4,
  // t = l % 4) of warp w of the warpgroup is row 16 w + g + 8 ((i >> 1) & 1),
  // column 8 (i >> 2) + 2 t + (i & 1). Warp 6 = warp 2 of warpgroup 1
  // (columns 128-255); lane 9 (g = 2, t = 1); register 64 + 7 = register 7
  // of the second m64 block (rows 64-127).
  auto coordinates =
      layout.getElementCoordinates({128, 256}, 256, 6 * 32 + 9, 64 + 7);
  REQUIRE(coordinates);
  CHECK(*coordinates == SmallVector<int64_t>{64 + 32 + 2 + 8, 128 + 8 + 3});
  // Two warpgroups stacked (warps_m = 8): warpgroup 1 owns rows 64-127 of
  // every 128.
  auto stacked = MmaLayoutAttr::get(&context, 8, 1, /*warpgroup=*/true);
  checkCovers(stacked, {256, 64}, 256);
  auto first = stacked.getElementCoordinates({256, 64}, 256, 4 * 32, 0);
  REQUIRE(first);
  CHECK(*first == SmallVector<int64_t>{64, 0});
  // warps_m must be whole warpgroups.
  std::vector<std::string> errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    errors.push_back(diagnostic.str());
    return success();
  });
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(&context)); };
  CHECK(failed(MmaLayoutAttr::verify(emitError, 2, 2, true)));
  CHECK(succeeded(MmaLayoutAttr::verify(emitError, 2, 2, false)));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] == "a warpgroup layout needs warps_m to be a multiple of 4 "
                     "(whole warpgroups), got 2");
}

TEST_CASE("#tile.slice: an accumulator's rows and columns", "[layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  // Every parent register's row (column) is in the slice register that
  // rowSliceRegister (columnSliceRegister) names, in the same thread; every
  // thread's slice registers hold rows (columns) of its parent registers.
  auto check = [&](MmaLayoutAttr parent, ArrayRef<int64_t> shape) {
    int64_t threads = 32 * parent.getWarpsM() * parent.getWarpsN();
    FailureOr<MmaTiling> tiling = parent.getTiling(shape);
    REQUIRE(succeeded(tiling));
    for (int64_t dim : {0, 1}) {
      auto slice = SliceLayoutAttr::get(&context, parent, dim);
      SmallVector<int64_t> sliceShape = {shape[1 - dim]};
      REQUIRE(slice.isSliceOf(sliceShape, shape));
      int64_t registers = slice.getElementsPerThread(sliceShape, threads);
      CHECK(registers == 2 * (dim == 1 ? tiling->mTiles() : tiling->nTiles()));
      for (int64_t thread = 0; thread < threads; ++thread) {
        std::set<int64_t> held;
        for (int64_t reg = 0; reg < tiling->elementsPerThread(); ++reg) {
          auto element =
              parent.getElementCoordinates(shape, threads, thread, reg);
          REQUIRE(element);
          int64_t sliceReg = slice.getSliceRegister(*tiling, reg);
          auto sliced = slice.getElementCoordinates(sliceShape, threads, thread,
                                                    sliceReg);
          INFO("dim " << dim << " thread " << thread << " reg " << reg);
          REQUIRE(sliced);
          CHECK((*sliced)[0] == (*element)[1 - dim]);
          held.insert(sliceReg);
        }
        CHECK(int64_t(held.size()) == registers);
      }
      CHECK_FALSE(
          slice.getElementCoordinates(sliceShape, threads, 0, registers));
      CHECK_FALSE(slice.getElementCoordinates(sliceShape, threads + 32, 0, 0));
    }
  };
  check(MmaLayoutAttr::get(&context, 8, 1), {128, 64});
  check(MmaLayoutAttr::get(&context, 2, 2), {64, 32});
  check(MmaLayoutAttr::get(&context, 4, 2, /*warpgroup=*/true), {128, 64});
  // FlashAttention's m over #tile.mma<8, 1>: lane 6 (g = 1) of warp 3 holds
  // rows 48 + 1 and 48 + 9.
  auto rows =
      SliceLayoutAttr::get(&context, MmaLayoutAttr::get(&context, 8, 1), 1);
  CHECK(*rows.getElementCoordinates({128}, 256, 3 * 32 + 6, 0) ==
        SmallVector<int64_t>{49});
  CHECK(*rows.getElementCoordinates({128}, 256, 3 * 32 + 6, 1) ==
        SmallVector<int64_t>{57});
  // A shape the parent does not split into 16-row tiles per warp.
  CHECK(failed(rows.getParentTiling({100})));
  CHECK(rows.getElementsPerThread({100}, 256) == 0);
  std::vector<std::string> errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    errors.push_back(diagnostic.str());
    return success();
  });
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(&context)); };
  CHECK(failed(SliceLayoutAttr::verify(emitError,
                                       MmaLayoutAttr::get(&context, 8, 1), 2)));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] == "dim must be 0 or 1 (the sliced dimension of the "
                     "parent's rank-2 tile), got 2");
}
