//===- SharedLayoutTest.cpp - The maths of the shared-memory layouts ------===//
//
// Checks the element offsets of #tile.swizzled and #tile.padded: every
// element of a tile gets its own place in the buffer, 16-byte vectors stay
// contiguous, the swizzle is Triton's formula and CuTe's Swizzle<B, M, S>
// (TENSORCORES.md §4), and the arith ops the lowering emits compute exactly
// getElementOffset (checked by folding them on constant coordinates).
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ScopedPrinter.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Calls `visit` with the coordinates of every element of `shape`, in
/// row-major order.
template <typename Fn> void forEachElement(ArrayRef<int64_t> shape, Fn visit) {
  SmallVector<int64_t> coords(shape.size(), 0);
  while (true) {
    visit(ArrayRef<int64_t>(coords));
    size_t d = shape.size();
    while (d > 0 && ++coords[d - 1] == shape[d - 1])
      coords[--d] = 0;
    if (d == 0)
      return;
  }
}

/// Checks that `layout` places the elements of `shape` at distinct offsets
/// inside its buffer, the groups of `vec` elements that start at a multiple
/// of `vec` at consecutive offsets from a multiple of `vec`.
void checkPlacement(SharedLayoutAttrInterface layout, ArrayRef<int64_t> shape,
                    int64_t vec) {
  int64_t size = layout.getBufferSize(shape);
  std::vector<bool> used(size, false);
  forEachElement(shape, [&](ArrayRef<int64_t> coords) {
    int64_t offset = layout.getElementOffset(shape, coords);
    INFO("element (" << coords.front() << ", ..., " << coords.back() << ") at "
                     << offset);
    REQUIRE(offset >= 0);
    REQUIRE(offset < size);
    CHECK_FALSE(used[offset]);
    used[offset] = true;
    SmallVector<int64_t> first(coords);
    first.back() -= coords.back() % vec;
    int64_t start = layout.getElementOffset(shape, first);
    CHECK(start % vec == 0);
    CHECK(offset == start + coords.back() % vec);
  });
}

/// Checks that the ops `layout` emits, folded on constant coordinates, give
/// getElementOffset for every element of `shape`.
void checkEmitted(MLIRContext &context, SharedLayoutAttrInterface layout,
                  ArrayRef<int64_t> shape) {
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  forEachElement(shape, [&](ArrayRef<int64_t> coords) {
    SmallVector<Value> values;
    for (int64_t coord : coords)
      values.push_back(arith::ConstantIndexOp::create(builder, loc, coord));
    std::optional<int64_t> emitted = getConstantIntValue(
        layout.emitElementOffset(builder, loc, shape, values));
    REQUIRE(emitted);
    CHECK(*emitted == layout.getElementOffset(shape, coords));
  });
}

/// CuTe's Swizzle<bits, base, shift> of a flat offset: XORs bits
/// [base, base + bits) with bits [base + shift, base + shift + bits).
int64_t cuteSwizzle(int64_t bits, int64_t base, int64_t shift, int64_t offset) {
  int64_t mask = ((int64_t(1) << bits) - 1) << (base + shift);
  return offset ^ ((offset & mask) >> shift);
}
} // namespace

TEST_CASE("#tile.swizzled: Triton's formula and CuTe's swizzle",
          "[shared-layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  for (int64_t vec : {4, 8, 16})
    for (auto [perPhase, maxPhase] :
         std::vector<std::pair<int64_t, int64_t>>{{1, 8}, {2, 4}, {4, 2}})
      for (int64_t width : {64, 128, 256}) {
        if (width % (vec * maxPhase) != 0)
          continue;
        INFO("vec " << vec << " per_phase " << perPhase << " max_phase "
                    << maxPhase << " width " << width);
        auto layout =
            SwizzledLayoutAttr::get(&context, vec, perPhase, maxPhase);
        SmallVector<int64_t> shape{32, width};
        checkPlacement(layout, shape, vec);
        forEachElement(shape, [&](ArrayRef<int64_t> coords) {
          int64_t r = coords[0], c = coords[1];
          int64_t triton = r * width +
                           ((c / vec) ^ ((r / perPhase) % maxPhase)) * vec +
                           c % vec;
          int64_t cute =
              cuteSwizzle(llvm::Log2_64(maxPhase), llvm::Log2_64(vec),
                          llvm::Log2_64(width * perPhase / vec), r * width + c);
          int64_t offset = layout.getElementOffset(shape, coords);
          CHECK(offset == triton);
          CHECK(offset == cute);
        });
      }
  // The f16 128-byte swizzle: the 16-byte chunk of row r moves to chunk ^ r.
  auto sw128 = SwizzledLayoutAttr::get(&context, 8, 1, 8);
  CHECK(sw128.getElementOffset({64, 64}, {3, 17}) == 3 * 64 + (2 ^ 3) * 8 + 1);
  CHECK(sw128.getBufferSize({64, 64}) == 64 * 64);
}

TEST_CASE("#tile.swizzled: leading dimensions are rows", "[shared-layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  auto layout = SwizzledLayoutAttr::get(&context, 8, 2, 4);
  // [3, 16, 32] is 48 rows of 32: element (2, 5, 9) is in row 37.
  CHECK(layout.getElementOffset({3, 16, 32}, {2, 5, 9}) ==
        layout.getElementOffset({48, 32}, {37, 9}));
  checkPlacement(layout, {3, 16, 32}, 8);
  CHECK(layout.getElementOffset({64}, {17}) == 17);
}

TEST_CASE("#tile.padded: row stride W + pad", "[shared-layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  auto padded = PaddedLayoutAttr::get(&context, 8);
  CHECK(padded.getElementOffset({128, 64}, {3, 5}) == 3 * 72 + 5);
  CHECK(padded.getBufferSize({128, 64}) == 128 * 72);
  CHECK(padded.getBufferSize({2, 4, 64}) == 8 * 72);
  checkPlacement(padded, {2, 16, 64}, 8);
  auto plain = PaddedLayoutAttr::get(&context, 0);
  CHECK(plain.getElementOffset({2, 16, 64}, {1, 2, 3}) == (16 + 2) * 64 + 3);
  CHECK(plain.getBufferSize({2, 16, 64}) == 2 * 16 * 64);
}

TEST_CASE("emitted offsets equal getElementOffset", "[shared-layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect, arith::ArithDialect>();
  for (SharedLayoutAttrInterface layout :
       {SharedLayoutAttrInterface(SwizzledLayoutAttr::get(&context, 8, 1, 8)),
        SharedLayoutAttrInterface(SwizzledLayoutAttr::get(&context, 8, 2, 4)),
        SharedLayoutAttrInterface(SwizzledLayoutAttr::get(&context, 4, 4, 2)),
        SharedLayoutAttrInterface(SwizzledLayoutAttr::get(&context, 16, 8, 1)),
        SharedLayoutAttrInterface(
            SwizzledLayoutAttr::get(&context, 8, 1, 8, 64)),
        SharedLayoutAttrInterface(
            SwizzledLayoutAttr::get(&context, 8, 2, 4, 32)),
        SharedLayoutAttrInterface(PaddedLayoutAttr::get(&context, 8)),
        SharedLayoutAttrInterface(PaddedLayoutAttr::get(&context, 0))}) {
    INFO("layout " << llvm::to_string(Attribute(layout)));
    checkEmitted(context, layout, {16, 64});
    checkEmitted(context, layout, {2, 8, 64});
    checkEmitted(context, layout, {2, 8, 128});
    if (!isa<SwizzledLayoutAttr>(layout) ||
        !cast<SwizzledLayoutAttr>(layout).getPanel())
      checkEmitted(context, layout, {128});
  }
}

TEST_CASE("#tile.swizzled panels: the 128-byte swizzle of TMA and wgmma",
          "[shared-layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  // A 2-stage [2, 32, 128] f16 tile in 64-element (128-byte) panels: each
  // stage is two 32 x 64 panels; in bytes, every panel is the 128-byte
  // swizzle mode addr[6:4] ^= addr[9:7] of a dense 32 x 128-byte matrix.
  auto layout = SwizzledLayoutAttr::get(&context, 8, 1, 8, 64);
  SmallVector<int64_t> shape{2, 32, 128};
  checkPlacement(layout, shape, 8);
  forEachElement(shape, [&](ArrayRef<int64_t> coords) {
    int64_t stage = coords[0], r = coords[1], c = coords[2];
    int64_t dense = 2 * (r * 64 + c % 64); // bytes inside the panel
    int64_t swizzled = dense ^ (((dense >> 7) & 7) << 4);
    int64_t expected = stage * 32 * 128 + (c / 64) * 32 * 64 + swizzled / 2;
    CHECK(layout.getElementOffset(shape, coords) == expected);
  });
  // With the panel equal to the row, it is the plain swizzle.
  auto whole = SwizzledLayoutAttr::get(&context, 8, 1, 8, 64);
  auto plain = SwizzledLayoutAttr::get(&context, 8, 1, 8);
  forEachElement({16, 64}, [&](ArrayRef<int64_t> coords) {
    CHECK(whole.getElementOffset({16, 64}, coords) ==
          plain.getElementOffset({16, 64}, coords));
  });
}

TEST_CASE("#tile.swizzled: wgmma descriptors", "[shared-layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  // 128 x 64 f16, K-major, 128-byte swizzle (TENSORCORES.md §5 example):
  // layout type 1, SBO 1024 bytes, LBO unused (16).
  auto sw128 = SwizzledLayoutAttr::get(&context, 8, 1, 8);
  std::optional<WgmmaOperandLayout> a =
      sw128.describeForWgmma(128, 64, 2, /*contiguousIsK=*/true);
  REQUIRE(a);
  CHECK(a->swizzleBytes == 128);
  CHECK(a->layoutType == 1);
  CHECK(a->strideByteOffset == 1024);
  CHECK(a->leadingByteOffset == 16);
  CHECK(a->descriptorBits() ==
        (uint64_t(1) << 16 | uint64_t(64) << 32 | uint64_t(1) << 62));
  // 64 x 128 f16 B, N-major, in 64-element panels: LBO = 64 rows x 128
  // bytes between the panels.
  auto panelled = SwizzledLayoutAttr::get(&context, 8, 1, 8, 64);
  std::optional<WgmmaOperandLayout> b =
      panelled.describeForWgmma(64, 128, 2, /*contiguousIsK=*/false);
  REQUIRE(b);
  CHECK(b->leadingByteOffset == 64 * 128);
  CHECK(b->strideByteOffset == 1024);
  // 64-byte rows: the 64-byte mode (type 2, SBO 512).
  auto sw64 = SwizzledLayoutAttr::get(&context, 8, 2, 4);
  std::optional<WgmmaOperandLayout> narrow =
      sw64.describeForWgmma(128, 32, 2, true);
  REQUIRE(narrow);
  CHECK(narrow->layoutType == 2);
  CHECK(narrow->strideByteOffset == 512);
  // Rows of 256 bytes without panels, 12 rows, 32-bit
  // elements in f16 vectors: no descriptor.
  CHECK_FALSE(sw128.describeForWgmma(64, 128, 2, false));
  CHECK_FALSE(sw128.describeForWgmma(12, 64, 2, true));
  CHECK_FALSE(sw128.describeForWgmma(64, 64, 4, true));
}

TEST_CASE("shared layouts: verification", "[shared-layout]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  std::vector<std::string> errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    errors.push_back(diagnostic.str());
    return success();
  });
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(&context)); };
  CHECK(succeeded(SwizzledLayoutAttr::verify(emitError, 8, 1, 8, 0)));
  CHECK(failed(SwizzledLayoutAttr::verify(emitError, 8, 1, 6, 0)));
  CHECK(failed(SwizzledLayoutAttr::verify(emitError, 8, 1, 8, 96)));
  CHECK(failed(PaddedLayoutAttr::verify(emitError, -1)));
  auto swizzled = SwizzledLayoutAttr::get(&context, 8, 2, 4);
  CHECK(succeeded(swizzled.verifyShape(emitError, {64, 32})));
  CHECK(succeeded(swizzled.verifyShape(emitError, {2, 64, 96})));
  CHECK(failed(swizzled.verifyShape(emitError, {64, 48})));
  CHECK(failed(swizzled.verifyShape(emitError, {})));
  auto panelled = SwizzledLayoutAttr::get(&context, 8, 1, 8, 64);
  CHECK(succeeded(panelled.verifyShape(emitError, {64, 128})));
  CHECK(failed(panelled.verifyShape(emitError, {128})));
  REQUIRE(errors.size() == 6);
  CHECK(errors[0] == "max_phase must be a positive power of two, got 6");
  CHECK(errors[1] == "panel must be a multiple of vec * max_phase = 64, got "
                     "96");
  CHECK(errors[2] == "pad must not be negative, got -1");
  CHECK(errors[3] == "#tile.swizzled<vec = 8, per_phase = 2, max_phase = 4> "
                     "needs an innermost extent that is a multiple of vec * "
                     "max_phase = 32, got 48");
  CHECK(errors[4] == "#tile.swizzled<vec = 8, per_phase = 2, max_phase = 4> "
                     "needs a tile of rank 1 or more");
  CHECK(errors[5] == "#tile.swizzled<vec = 8, per_phase = 1, max_phase = 8, "
                     "panel = 64> needs a tile of rank 2 or more whose "
                     "innermost extent is a multiple of the panel, got extent "
                     "128 and rank 1");
}
