//===- StageBroadcastLoads.cpp - Vectors of an epilogue in shared memory --===//
//
// Implements `tile-stage-broadcast-loads` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Analysis/AccessAnalysis.h"
#include "passes/Analysis/Recompute.h"

#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/TileTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

namespace tilec {
#define GEN_PASS_DEF_TILESTAGEBROADCASTLOADS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {

/// True if `value` is defined outside `loop` (the same in every iteration).
bool isDefinedOutside(Value value, tile::ParallelOp loop) {
  return !loop->isAncestor(value.getParentRegion()->getParentOp());
}

/// A load of a parallel loop to stage: the global tensor region it reads,
/// as `origin + (0, ..., 0, iv)` with `iv` one of the loop's induction
/// variables.
struct BroadcastLoad {
  tile::LoadOp load;
  /// The region's origin; a null last index stands for 0.
  SmallVector<Value> origin;
  /// The induction variable and the loop's extent in it.
  BlockArgument inductionVar;
  int64_t extent;
};

/// Matches `load` (directly in `loop`'s body) as a broadcast load: a read
/// of a global tensor whose indices are the same in every iteration but the
/// last, which is `x + iv` or `iv` for an induction variable `iv` of `loop`
/// and a loop-invariant `x`.
std::optional<BroadcastLoad> matchBroadcastLoad(tile::LoadOp load,
                                                tile::ParallelOp loop) {
  auto type = cast<tile::BufferType>(load.getBuffer().getType());
  if (!type.isGlobal() || !isa<BlockArgument>(load.getBuffer()))
    return std::nullopt;
  // Indices computed from values defined outside the loop by pure ops are
  // the same in every iteration.
  auto outside = [&](Value value) { return isDefinedOutside(value, loop); };
  Recomputability invariant(outside);
  ValueRange indices = load.getIndices();
  if (indices.empty() || !llvm::all_of(indices.drop_back(), [&](Value index) {
        return invariant.canRecompute(index);
      }))
    return std::nullopt;
  Block &body = loop.getBody().front();
  auto asInductionVar = [&](Value value) -> BlockArgument {
    auto argument = dyn_cast<BlockArgument>(value);
    return argument && argument.getOwner() == &body ? argument
                                                    : BlockArgument();
  };
  Value last = indices.back();
  BroadcastLoad match{load, llvm::to_vector(indices), {}, 0};
  if (BlockArgument iv = asInductionVar(last)) {
    match.inductionVar = iv;
    match.origin.back() = Value();
  } else if (auto add = last.getDefiningOp<arith::AddIOp>()) {
    for (auto [ivSide, other] : {std::pair(add.getLhs(), add.getRhs()),
                                 std::pair(add.getRhs(), add.getLhs())}) {
      BlockArgument iv = asInductionVar(ivSide);
      if (iv && invariant.canRecompute(other)) {
        match.inductionVar = iv;
        match.origin.back() = other;
        break;
      }
    }
  }
  if (!match.inductionVar)
    return std::nullopt;
  // Iterations that write the tensor would change what later ones read.
  WalkResult writes = loop.walk([&](tile::StoreOp store) {
    return store.getBuffer() == load.getBuffer() ? WalkResult::interrupt()
                                                 : WalkResult::advance();
  });
  if (writes.wasInterrupted())
    return std::nullopt;
  match.extent = loop.getExtents()[match.inductionVar.getArgNumber()];
  return match;
}

struct StageBroadcastLoads
    : public tilec::impl::TileStageBroadcastLoadsBase<StageBroadcastLoads> {
  void runOnOperation() override {
    tile::TargetAttr target = tile::getTarget(getOperation());
    if (!target)
      return;
    uint64_t limit = target.getDescription().MaxSharedMemoryPerBlock;
    SmallVector<tile::ParallelOp> loops;
    getOperation().walk([&](tile::ParallelOp loop) {
      if (isa_and_nonnull<tile::MmaLayoutAttr>(loop.getLayoutAttr()))
        loops.push_back(loop);
    });
    for (tile::ParallelOp loop : loops)
      stage(loop, limit);
  }

  /// Stages the broadcast loads of `loop` whose tiles fit the shared memory
  /// left below `limit`.
  void stage(tile::ParallelOp loop, uint64_t limit) {
    auto launch = loop->getParentOfType<tile::LaunchOp>();
    if (!launch || loop->getParentOfType<tile::PipelinedOp>())
      return;
    // Consumer groups that take turns (ping-pong) each stage their vectors
    // in a stage of their own.
    int64_t groups = 1;
    if (auto roles = loop->getParentOfType<tile::WarpSpecializeOp>())
      groups = roles.getConsumerGroups();
    SmallVector<BroadcastLoad> matches;
    for (auto load : loop.getBody().front().getOps<tile::LoadOp>())
      if (std::optional<BroadcastLoad> match = matchBroadcastLoad(load, loop))
        matches.push_back(*match);
    for (BroadcastLoad &match : matches) {
      Type elementType =
          cast<tile::BufferType>(match.load.getBuffer().getType())
              .getElementType();
      auto type = tile::BufferType::get({match.extent}, elementType,
                                        tile::MemoryScope::Shared);
      auto allocType =
          groups > 1
              ? tile::BufferType::get({groups, match.extent}, elementType,
                                      tile::MemoryScope::Shared)
              : type;
      if (sharedArenaBound(launch) + alignedSharedBytes(allocType) > limit)
        continue;
      Location loc = match.load.getLoc();
      OpBuilder builder = OpBuilder::atBlockBegin(&launch.getBody().front());
      Value tile =
          tile::AllocSharedOp::create(builder, loc, allocType, IntegerAttr());
      builder.setInsertionPoint(loop);
      if (groups > 1)
        tile = tile::StageViewOp::create(
            builder, loc, type, tile,
            tile::ConsumerGroupOp::create(builder, loc,
                                          builder.getIndexType()));
      IRMapping mapping;
      auto outside = [&](Value value) { return isDefinedOutside(value, loop); };
      for (Value &index : match.origin)
        index = index ? recompute(index, outside, builder, mapping)
                      : arith::ConstantIndexOp::create(builder, loc, 0);
      tile::CopyOp::create(builder, loc, match.load.getBuffer(), match.origin,
                           tile, ValueRange(),
                           /*barrier=*/nullptr, /*barrierIndex=*/nullptr,
                           /*staging=*/nullptr);
      builder.setInsertionPoint(match.load);
      auto staged = tile::LoadOp::create(builder, loc, match.load.getType(),
                                         tile, ValueRange{match.inductionVar});
      match.load.replaceAllUsesWith(staged.getResult());
      match.load.erase();
    }
  }
};
} // namespace
