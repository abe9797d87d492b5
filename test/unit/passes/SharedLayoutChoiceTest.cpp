//===- SharedLayoutChoiceTest.cpp - Bank conflicts of shared layouts ------===//
//
// Counts the shared-memory bank conflicts of the 16-byte accesses of the
// tensor-core path on the layouts chooseSharedLayout picks. The model
// (TENSORCORES.md §4): 32 banks of 4 bytes; a warp's 16-byte accesses are
// served 8 lanes per phase, and a phase takes as many wavefronts as the
// largest number of its lanes whose addresses fall in the same 16-byte chunk
// modulo 128 bytes (1: conflict-free). The buffer starts at a 128-byte
// boundary. Accesses:
//
// * cp.async: lane i of the copy writes chunk i of the tile's 16-byte chunks
//   in row-major order;
// * ldmatrix.x4 for the mma.sync A operand (M x K, K contiguous): lane l
//   reads row l & 15, chunk l >> 4 of each 16-row x 2-chunk sub-tile;
// * ldmatrix.x4.trans for B stored K x N (N contiguous): lane l reads k row
//   (l & 7) + 8 * ((l >> 3) & 1), n chunk l >> 4;
// * ldmatrix.x4 for B stored N x K (K contiguous): lane l reads n row
//   (l & 7) + 8 * (l >> 4), k chunk (l >> 3) & 1;
//
// where lanes 8j .. 8j+7 give the row addresses of matrix j, one phase.
//
//===----------------------------------------------------------------------===//

#include "passes/Layout/SharedLayoutChoice.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ScopedPrinter.h"

#include <catch2/catch.hpp>

#include <array>
#include <functional>
#include <vector>

using namespace mlir;
using namespace mlir::tile;
using namespace tilec;

namespace {
/// A 2-D shared tile of `rows` x `width` elements of `bits` bits.
struct Tile {
  int64_t rows;
  int64_t width;
  unsigned bits;

  /// Elements per 16-byte chunk.
  int64_t vec() const { return 128 / bits; }
  /// 16-byte chunks per row.
  int64_t chunks() const { return width / vec(); }
  SmallVector<int64_t> shape() const { return {rows, width}; }
};

/// Returns the byte address of chunk `chunk` of row `row` under `layout`,
/// after checking that its elements are contiguous and 16-byte aligned (as
/// cp.async and ldmatrix need).
int64_t chunkAddress(SharedLayoutAttrInterface layout, const Tile &tile,
                     int64_t row, int64_t chunk) {
  int64_t first =
      layout.getElementOffset(tile.shape(), {row, chunk * tile.vec()});
  int64_t last = layout.getElementOffset(
      tile.shape(), {row, chunk * tile.vec() + tile.vec() - 1});
  INFO("row " << row << " chunk " << chunk);
  REQUIRE(first % tile.vec() == 0);
  REQUIRE(last == first + tile.vec() - 1);
  return first * tile.bits / 8;
}

/// Returns the wavefronts one phase of 8 lanes needs: the most lanes whose
/// addresses share a 16-byte chunk modulo 128 bytes.
int64_t phaseWays(ArrayRef<int64_t> addresses) {
  std::array<int64_t, 8> lanesPerChunk{};
  for (int64_t address : addresses)
    ++lanesPerChunk[address / 16 % 8];
  return *llvm::max_element(lanesPerChunk);
}

/// The worst phase of the cp.async writes of the whole tile.
int64_t cpAsyncWays(SharedLayoutAttrInterface layout, const Tile &tile) {
  int64_t chunks = tile.rows * tile.chunks();
  int64_t worst = 0;
  for (int64_t phase = 0; phase * 8 < chunks; ++phase) {
    SmallVector<int64_t> addresses;
    for (int64_t i = phase * 8; i < std::min(phase * 8 + 8, chunks); ++i)
      addresses.push_back(
          chunkAddress(layout, tile, i / tile.chunks(), i % tile.chunks()));
    worst = std::max(worst, phaseWays(addresses));
  }
  return worst;
}

/// Where lane `lane` of an ldmatrix.x4 reads in a 16-row x 2-chunk sub-tile:
/// {row, chunk}.
using LdmatrixRecipe = std::function<std::pair<int64_t, int64_t>(int64_t)>;

const LdmatrixRecipe kOperandA = [](int64_t lane) {
  return std::pair<int64_t, int64_t>{lane & 15, lane >> 4};
};
const LdmatrixRecipe kOperandBTrans = [](int64_t lane) {
  return std::pair<int64_t, int64_t>{(lane & 7) + 8 * ((lane >> 3) & 1),
                                     lane >> 4};
};
const LdmatrixRecipe kOperandB = [](int64_t lane) {
  return std::pair<int64_t, int64_t>{(lane & 7) + 8 * (lane >> 4),
                                     (lane >> 3) & 1};
};

/// The worst phase of `recipe` over every 16-row x 2-chunk sub-tile (every
/// m-tile and k-step of the A operand, every k-step and n-tile of B).
int64_t ldmatrixWays(SharedLayoutAttrInterface layout, const Tile &tile,
                     const LdmatrixRecipe &recipe) {
  REQUIRE(tile.rows % 16 == 0);
  REQUIRE(tile.chunks() % 2 == 0);
  int64_t worst = 0;
  for (int64_t row0 = 0; row0 < tile.rows; row0 += 16)
    for (int64_t chunk0 = 0; chunk0 < tile.chunks(); chunk0 += 2)
      for (int64_t matrix = 0; matrix < 4; ++matrix) {
        SmallVector<int64_t> addresses;
        for (int64_t lane = 8 * matrix; lane < 8 * matrix + 8; ++lane) {
          auto [row, chunk] = recipe(lane);
          addresses.push_back(
              chunkAddress(layout, tile, row0 + row, chunk0 + chunk));
        }
        worst = std::max(worst, phaseWays(addresses));
      }
  return worst;
}

/// The worst phase of reading one chunk column of 8 consecutive rows (what
/// every ldmatrix phase is), over every such group of rows and column.
int64_t columnWays(SharedLayoutAttrInterface layout, const Tile &tile) {
  int64_t worst = 0;
  for (int64_t row0 = 0; row0 + 8 <= tile.rows; row0 += 8)
    for (int64_t chunk = 0; chunk < tile.chunks(); ++chunk) {
      SmallVector<int64_t> addresses;
      for (int64_t row = row0; row < row0 + 8; ++row)
        addresses.push_back(chunkAddress(layout, tile, row, chunk));
      worst = std::max(worst, phaseWays(addresses));
    }
  return worst;
}

/// The GEMM operand tiles of f16: A [block_M, block_K], B [block_K,
/// block_N], B transposed [block_N, block_K]; then 8- and 32-bit ones.
std::vector<Tile> gemmTiles() {
  std::vector<Tile> tiles;
  for (int64_t k : {32, 64})
    for (int64_t mn : {64, 128, 256}) {
      tiles.push_back({mn, k, 16});
      tiles.push_back({k, mn, 16});
    }
  for (int64_t width : {32, 64, 128, 256})
    tiles.push_back({128, width, 8});
  for (int64_t width : {8, 16, 32, 64, 128})
    tiles.push_back({64, width, 32});
  return tiles;
}
} // namespace

TEST_CASE("chosen layouts: the GEMM tiles are conflict-free",
          "[shared-layout-choice]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  for (const Tile &tile : gemmTiles()) {
    INFO(tile.rows << " x " << tile.width << " x " << tile.bits << " bits");
    SharedLayoutAttrInterface layout =
        chooseSharedLayout(&context, tile.shape(), tile.bits);
    REQUIRE(layout);
    INFO("layout " << llvm::to_string(Attribute(layout)));
    CHECK(isa<SwizzledLayoutAttr>(layout));
    CHECK(cpAsyncWays(layout, tile) == 1);
    CHECK(ldmatrixWays(layout, tile, kOperandA) == 1);
    CHECK(ldmatrixWays(layout, tile, kOperandBTrans) == 1);
    CHECK(ldmatrixWays(layout, tile, kOperandB) == 1);
    CHECK(columnWays(layout, tile) == 1);
  }
}

TEST_CASE("chosen layouts: the rule", "[shared-layout-choice]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  auto choose = [&](int64_t rows, int64_t width, unsigned bits) {
    return Attribute(chooseSharedLayout(&context, {rows, width}, bits));
  };
  auto swizzled = [&](int64_t vec, int64_t perPhase, int64_t maxPhase) {
    return Attribute(
        SwizzledLayoutAttr::get(&context, vec, perPhase, maxPhase));
  };
  Attribute plain = PaddedLayoutAttr::get(&context, 0);
  // f16: 128-byte rows and wider, 64-byte and 32-byte rows.
  CHECK(choose(128, 64, 16) == swizzled(8, 1, 8));
  // Rows wider than 128 bytes: 128-byte panels (rank 2 and more).
  CHECK(choose(32, 256, 16) ==
        Attribute(SwizzledLayoutAttr::get(&context, 8, 1, 8, 64)));
  CHECK(choose(32, 128, 32) ==
        Attribute(SwizzledLayoutAttr::get(&context, 4, 1, 8, 32)));
  // Fewer rows than the swizzle's period of 8: no ldmatrix or wgmma operand,
  // and plain rows are conflict-free for row-major 16-byte accesses.
  CHECK(Attribute(chooseSharedLayout(&context, {256}, 16)) == plain);
  CHECK(choose(1, 4096, 16) == plain);
  CHECK(choose(7, 64, 16) == plain);
  CHECK(Attribute(chooseSharedLayout(&context, {2, 4, 64}, 16)) ==
        Attribute(SwizzledLayoutAttr::get(&context, 8, 1, 8, 0)));
  CHECK(choose(8, 64, 16) == swizzled(8, 1, 8));
  CHECK(choose(128, 32, 16) == swizzled(8, 2, 4));
  CHECK(choose(128, 16, 16) == swizzled(8, 4, 2));
  // 8- and 32-bit elements: the same by bytes.
  CHECK(choose(128, 128, 8) == swizzled(16, 1, 8));
  CHECK(choose(128, 32, 8) == swizzled(16, 4, 2));
  CHECK(choose(64, 16, 32) == swizzled(4, 2, 4));
  // Rows of 6 and 12 chunks (96 and 192 bytes).
  CHECK(choose(64, 48, 16) == swizzled(8, 4, 2));
  CHECK(choose(64, 96, 16) == swizzled(8, 2, 4));
  // An odd number of chunks, one chunk, or rows that are not whole chunks
  // need no permutation.
  CHECK(choose(64, 24, 16) == plain);
  CHECK(choose(64, 8, 16) == plain);
  CHECK(choose(64, 20, 16) == plain);
  CHECK(choose(64, 1, 32) == plain);
  // Unsupported requests.
  CHECK_FALSE(chooseSharedLayout(&context, {}, 16));
  CHECK_FALSE(chooseSharedLayout(&context, {64, 64}, 1));
}

TEST_CASE("chosen layouts: other row widths are conflict-free",
          "[shared-layout-choice]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  // 16, 48, 80, 96, 160, 192 and 384-byte f16 rows; 48-byte 32-bit rows.
  for (Tile tile : {Tile{64, 8, 16}, Tile{64, 24, 16}, Tile{64, 40, 16},
                    Tile{64, 48, 16}, Tile{64, 80, 16}, Tile{64, 96, 16},
                    Tile{64, 192, 16}, Tile{64, 12, 32}}) {
    INFO(tile.rows << " x " << tile.width << " x " << tile.bits << " bits");
    SharedLayoutAttrInterface layout =
        chooseSharedLayout(&context, tile.shape(), tile.bits);
    REQUIRE(layout);
    CHECK(cpAsyncWays(layout, tile) == 1);
    CHECK(columnWays(layout, tile) == 1);
  }
}

TEST_CASE("the unswizzled layout has conflicts", "[shared-layout-choice]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  SharedLayoutAttrInterface plain =
      chooseSharedLayout(&context, {128, 64}, 16, LayoutKind::Linear);
  REQUIRE(plain == PaddedLayoutAttr::get(&context, 0));
  // 8 rows of C chunks start in 8 / gcd(C, 8) distinct chunks modulo 128
  // bytes: gcd(C, 8)-way conflicts for ldmatrix; cp.async is dense, hence
  // conflict-free.
  for (const Tile &tile : gemmTiles()) {
    INFO(tile.rows << " x " << tile.width << " x " << tile.bits << " bits");
    int64_t expected = std::min<int64_t>(8, tile.chunks() & -tile.chunks());
    CHECK(cpAsyncWays(plain, tile) == 1);
    CHECK(ldmatrixWays(plain, tile, kOperandA) == expected);
    CHECK(ldmatrixWays(plain, tile, kOperandBTrans) == expected);
    CHECK(ldmatrixWays(plain, tile, kOperandB) == expected);
  }
}

TEST_CASE("annotations choose the family", "[shared-layout-choice]") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  auto choose = [&](SmallVector<int64_t> shape, unsigned bits,
                    LayoutKind kind) {
    return Attribute(chooseSharedLayout(&context, shape, bits, kind));
  };
  // Padding to an odd number of chunks: 64 + 8 halves (144 bytes).
  CHECK(choose({128, 64}, 16, LayoutKind::Padded) ==
        PaddedLayoutAttr::get(&context, 8));
  CHECK(choose({128, 24}, 16, LayoutKind::Padded) ==
        PaddedLayoutAttr::get(&context, 0));
  CHECK(choose({128, 20}, 16, LayoutKind::Padded) ==
        PaddedLayoutAttr::get(&context, 4));
  CHECK(choose({128, 1}, 32, LayoutKind::Padded) ==
        PaddedLayoutAttr::get(&context, 3));
  CHECK(choose({128, 64}, 16, LayoutKind::Swizzled) ==
        SwizzledLayoutAttr::get(&context, 8, 1, 8));
  // A requested swizzle is given even where it is the identity, and refused
  // where rows are not whole 16-byte chunks.
  CHECK(choose({128, 24}, 16, LayoutKind::Swizzled) ==
        SwizzledLayoutAttr::get(&context, 8, 8, 1));
  CHECK_FALSE(
      chooseSharedLayout(&context, {128, 20}, 16, LayoutKind::Swizzled));
  CHECK(choose({128, 64}, 16, LayoutKind::Linear) ==
        PaddedLayoutAttr::get(&context, 0));

  // Padding serves ldmatrix everywhere, but cp.async only when a phase's 8
  // lanes stay in one row: 64-byte rows padded to 80 bytes are 2-way.
  for (Tile tile : {Tile{128, 64, 16}, Tile{128, 32, 16}, Tile{64, 16, 16}}) {
    INFO(tile.rows << " x " << tile.width << " x " << tile.bits << " bits");
    auto padded = chooseSharedLayout(&context, tile.shape(), tile.bits,
                                     LayoutKind::Padded);
    REQUIRE(padded);
    CHECK(ldmatrixWays(padded, tile, kOperandA) == 1);
    CHECK(ldmatrixWays(padded, tile, kOperandBTrans) == 1);
    CHECK(cpAsyncWays(padded, tile) == (tile.chunks() >= 8 ? 1 : 2));
  }
}

TEST_CASE("requested layouts come from the type and annotate_layout",
          "[shared-layout-choice]") {
  MLIRContext context;
  context.loadDialect<TileDialect, arith::ArithDialect>();
  std::vector<std::string> errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    errors.push_back(diagnostic.str());
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    tile.kernel @k() {
      %c1 = arith.constant 1 : index
      tile.launch grid(%c1) threads(32) as (%bx) {
        %plain = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
        %typed = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.layout<padded>>
        %annotated = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
        tile.annotate_layout %annotated {layout = #tile.layout<linear>} : !tile.buffer<64x64xf16, shared>
        %both = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.layout<swizzled>>
        tile.annotate_layout %both {layout = #tile.layout<swizzled>} : !tile.buffer<64x64xf16, shared, #tile.layout<swizzled>>
        %conflict = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
        tile.annotate_layout %conflict {layout = #tile.layout<swizzled>} : !tile.buffer<64x64xf16, shared>
        tile.annotate_layout %conflict {layout = #tile.layout<padded>} : !tile.buffer<64x64xf16, shared>
      }
    }
  )mlir",
                                                             &context);
  REQUIRE(module);
  std::vector<FailureOr<std::optional<LayoutKind>>> requests;
  module->walk([&](AllocSharedOp alloc) {
    requests.push_back(getRequestedLayout(alloc.getResult()));
  });
  REQUIRE(requests.size() == 5);
  REQUIRE(succeeded(requests[0]));
  CHECK(*requests[0] == std::nullopt);
  REQUIRE(succeeded(requests[1]));
  CHECK(*requests[1] == LayoutKind::Padded);
  REQUIRE(succeeded(requests[2]));
  CHECK(*requests[2] == LayoutKind::Linear);
  REQUIRE(succeeded(requests[3]));
  CHECK(*requests[3] == LayoutKind::Swizzled);
  CHECK(failed(requests[4]));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] == "'tile.annotate_layout' op asks for a padded layout, but "
                     "the buffer already has a swizzled one");
}
