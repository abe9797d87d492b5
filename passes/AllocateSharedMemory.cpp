//===- AllocateSharedMemory.cpp - Place shared tiles in one arena ---------===//
//
// Implements `tile-allocate-shared-memory` (see Passes.td): live ranges of
// the kernel's shared tiles over the ops of its launch body, a first-fit
// placement of the tiles, largest first, in one dynamic shared-memory arena,
// and the target's limit on the arena's size.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/TileTarget.h"
#include "passes/Analysis/AccessAnalysis.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

namespace tilec {
#define GEN_PASS_DEF_TILEALLOCATESHAREDMEMORY
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// One shared tile to place.
struct SharedTile {
  tile::AllocSharedOp op;
  uint64_t bytes = 0;
  uint64_t alignment = 0;
  /// The positions of the first and last op of the launch body that use the
  /// tile (both included).
  int64_t first = 0;
  int64_t last = 0;
  uint64_t offset = 0;

  bool livesWith(const SharedTile &other) const {
    return first <= other.last && other.first <= last;
  }
};

/// `value` rounded up to a multiple of `alignment`, saturating.
uint64_t alignUp(uint64_t value, uint64_t alignment) {
  uint64_t rounded = llvm::SaturatingAdd(value, alignment - 1);
  return rounded - rounded % alignment;
}

/// Collects the shared tiles of `kernel` with their sizes and live ranges.
SmallVector<SharedTile> collectTiles(tile::KernelOp kernel) {
  // Positions are those of the launch body's ops; a use outside the launch
  // body (or a tile allocated outside it) makes the tile live throughout.
  tile::LaunchOp launch = kernel.getLaunch();
  Block &body = launch ? launch.getBody().front() : kernel.getBody().front();
  llvm::DenseMap<Operation *, int64_t> positions;
  int64_t end = -1;
  for (Operation &op : body)
    positions[&op] = ++end;
  auto positionOf = [&](Operation *op) -> std::optional<int64_t> {
    if (Operation *ancestor = body.findAncestorOpInBlock(*op))
      return positions.lookup(ancestor);
    return std::nullopt;
  };

  SmallVector<SharedTile> tiles;
  kernel.walk([&](tile::AllocSharedOp op) {
    SharedTile tile;
    tile.op = op;
    tile.bytes = tilec::sharedTileBytes(cast<tile::BufferType>(op.getType()));
    tile.alignment = tile.bytes % tilec::kSharedPatternAlignment == 0
                         ? tilec::kSharedPatternAlignment
                         : tilec::kSharedTileAlignment;
    std::optional<int64_t> allocation = positionOf(op);
    // A reduction's scratch keeps its bytes for the whole launch, so that
    // the reduction need not wait for every thread to read it before the
    // next op may write there (Reduce.cpp).
    bool isScratch = llvm::any_of(op->getUses(), [](OpOperand &use) {
      auto reduce = dyn_cast<tile::ReduceOp>(use.getOwner());
      return reduce && reduce.getScratch() == use.get();
    });
    if (!allocation || isScratch) {
      tile.first = 0;
      tile.last = end;
    } else if (op->use_empty()) {
      tile.first = tile.last = *allocation;
    } else {
      tile.first = std::numeric_limits<int64_t>::max();
      tile.last = std::numeric_limits<int64_t>::min();
      for (Operation *user : op->getUsers()) {
        std::optional<int64_t> position = positionOf(user);
        tile.first = std::min(tile.first, position ? *position : 0);
        tile.last = std::max(tile.last, position ? *position : end);
      }
    }
    tiles.push_back(tile);
  });
  return tiles;
}

/// Places every tile at the lowest offset, aligned, that overlaps no tile
/// placed before it and live at the same time; the largest tiles go first.
/// Returns the arena's size.
uint64_t placeTiles(MutableArrayRef<SharedTile> tiles) {
  SmallVector<SharedTile *> order;
  for (SharedTile &tile : tiles)
    order.push_back(&tile);
  std::stable_sort(order.begin(), order.end(),
                   [](const SharedTile *a, const SharedTile *b) {
                     return a->bytes > b->bytes;
                   });
  uint64_t total = 0;
  for (auto [index, tile] : llvm::enumerate(order)) {
    SmallVector<const SharedTile *> conflicts;
    for (const SharedTile *placed : ArrayRef(order).take_front(index))
      if (placed->livesWith(*tile))
        conflicts.push_back(placed);
    llvm::sort(conflicts, [](const SharedTile *a, const SharedTile *b) {
      return a->offset < b->offset;
    });
    // Every conflict before the candidate ends at or below it.
    uint64_t candidate = 0;
    for (const SharedTile *placed : conflicts) {
      uint64_t placedEnd = llvm::SaturatingAdd(placed->offset, placed->bytes);
      if (placedEnd <= candidate)
        continue;
      if (llvm::SaturatingAdd(candidate, tile->bytes) <= placed->offset)
        break;
      candidate = alignUp(placedEnd, tile->alignment);
    }
    tile->offset = candidate;
    total = std::max(total, llvm::SaturatingAdd(candidate, tile->bytes));
  }
  return total;
}

struct AllocateSharedMemory
    : public tilec::impl::TileAllocateSharedMemoryBase<AllocateSharedMemory> {
  void runOnOperation() override {
    tile::KernelOp kernel = getOperation();
    FailureOr<tile::TargetAttr> target =
        tile::requireTarget(kernel, getArgument());
    if (failed(target))
      return signalPassFailure();

    SmallVector<SharedTile> tiles = collectTiles(kernel);
    uint64_t total = placeTiles(tiles);
    int64_t limit = target->getDescription().MaxSharedMemoryPerBlock;
    if (total > uint64_t(limit)) {
      InFlightDiagnostic diag =
          kernel.emitError()
          << "kernel '" << kernel.getSymName() << "' needs " << total
          << " bytes of shared memory, but " << target->getArch()
          << " allows at most " << limit << " bytes per block";
      for (SharedTile &tile : tiles)
        diag.attachNote(tile.op.getLoc())
            << "shared tile of " << tile.bytes
            << (tile.bytes == 1 ? " byte (" : " bytes (") << tile.op.getType()
            << ")";
      return signalPassFailure();
    }

    Builder builder(&getContext());
    for (SharedTile &tile : tiles)
      tile.op.setOffsetAttr(builder.getI64IntegerAttr(tile.offset));
    kernel->setAttr(
        tile::TileDialect::SharedMemoryBytesAttrHelper::getNameStr(),
        builder.getI64IntegerAttr(total));
  }
};

} // namespace
