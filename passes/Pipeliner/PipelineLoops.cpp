//===- PipelineLoops.cpp - Software pipelining of tile.pipelined ----------===//
//
// Implements `tile-pipeline-loops` (see Passes.td). For a
// `tile.pipelined %k to %n stages S` loop whose body copies global tiles
// into shared tiles ("producers") and then computes on them:
//
//   every shared tile a producer writes gets S stages ([S, ...shape]);
//   L = S-1-lag copies ahead (lag below);
//   prologue:  for i < L: if (i < n) { producers of iteration i -> stage i }
//              async_commit
//   loop k:    async_wait(L-1); barrier           // stage k % S has landed
//              if (k+L < n) { producers of k+L -> stage (k+L) % S }
//              async_commit                        // one group per iteration
//              consumers of iteration k on stage k % S
//   drain:     async_wait(0); barrier
//
// With lag 0 the stage refilled in iteration k, (k-1) % S, was last read in
// iteration k-1, which every thread finished at iteration k's barrier.
// Issuing the copies before the consumers gives them S-1 iterations of
// compute to land in (with S = 2, one: the copies of k+1 overlap the
// compute of k). When S >= 4 and the loop's GEMMs run on an asynchronous
// tensor-core path (a warpgroup accumulator: wgmma), they become
// `tile.gemm {async}` and may still read their stage when the iteration
// ends (lag 1): each waits only for the previous one, so the stage refilled
// in iteration k is (k-2) % S, whose GEMM every thread has waited for
// before iteration k's barrier. The last iteration is peeled, with
// synchronous GEMMs that wait for all, and the whole is guarded by
// `0 < n`. A GEMM whose accumulator other ops of the loop touch stays
// synchronous (and so does the loop). The copy/wait
// mechanism is the target's (`tile.copy {async}` becomes cp.async on the
// mma.sync path); the schedule is not. Loops it cannot pipeline (no
// producer, a producer's tile used outside the loop or written by another
// op, stages whose layout pattern would not repeat) stay sequential.
//
// On targets with TMA and wgmma, a loop whose GEMMs all run on wgmma and
// whose producers TMA can do gets the warp-specialized schedule of
// WarpSpecialize.cpp instead, with this one as its fallback.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/Pipeliner/Pipelining.h"

namespace tilec {
#define GEN_PASS_DEF_TILEPIPELINELOOPS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {

/// True if `gemm` runs on an asynchronous tensor-core path: its
/// accumulator has the warpgroup (wgmma) layout.
bool runsAsynchronously(tile::GemmOp gemm) {
  auto layout = dyn_cast_or_null<tile::MmaLayoutAttr>(
      cast<tile::BufferType>(gemm.getC().getType()).getLayout());
  return layout && layout.getWarpgroup();
}

/// The GEMMs of `loop`'s body that may stay in flight past their iteration:
/// all of them if each runs asynchronously and nothing else in the loop
/// touches its accumulator; otherwise none.
SmallVector<tile::GemmOp> findAsyncGemms(tile::PipelinedOp loop) {
  SmallVector<tile::GemmOp> gemms;
  for (Operation &op : loop.getBody().front()) {
    auto gemm = dyn_cast<tile::GemmOp>(op);
    if (!gemm)
      continue;
    if (!runsAsynchronously(gemm))
      return {};
    for (Operation *user : gemm.getC().getUsers())
      if (user != gemm && loop->isAncestor(user))
        return {};
    gemms.push_back(gemm);
  }
  return gemms;
}

/// True if `copy` fills a whole shared tile allocated outside `loop` from a
/// global tensor.
bool isProducer(tile::CopyOp copy, tile::PipelinedOp loop) {
  auto source = cast<tile::BufferType>(copy.getSource().getType());
  auto target = cast<tile::BufferType>(copy.getTarget().getType());
  auto alloc = copy.getTarget().getDefiningOp<tile::AllocSharedOp>();
  return source.isGlobal() && target.isShared() && alloc &&
         !loop->isAncestor(alloc) && copy.getTargetIndices().empty() &&
         copy->getBlock() == &loop.getBody().front();
}

/// True if `tile`'s stages, laid out one after the other, keep the tile's
/// layout pattern (its size is that of S tiles).
bool stagesKeepLayout(tile::BufferType type, int64_t stages) {
  auto layout =
      dyn_cast_or_null<tile::SharedLayoutAttrInterface>(type.getLayout());
  if (!layout)
    return true;
  SmallVector<int64_t> staged{stages};
  llvm::append_range(staged, type.getShape());
  if (layout.getBufferSize(staged) !=
      stages * layout.getBufferSize(type.getShape()))
    return false;
  // The swizzle of a row depends on the row modulo per_phase * max_phase.
  if (auto swizzled = dyn_cast<tile::SwizzledLayoutAttr>(layout)) {
    int64_t rows = type.getNumElements() / type.getShape().back();
    return rows % (swizzled.getPerPhase() * swizzled.getMaxPhase()) == 0;
  }
  return true;
}

} // namespace

std::optional<PipelinePlan> tilec::planLoop(tile::PipelinedOp loop) {
  PipelinePlan plan;
  for (Operation &op : loop.getBody().front())
    if (auto copy = dyn_cast<tile::CopyOp>(op);
        copy && isProducer(copy, loop)) {
      plan.producers.push_back(copy);
      plan.tiles.insert(copy.getTarget());
    }
  if (plan.producers.empty())
    return std::nullopt;
  plan.asyncCapableGemms = findAsyncGemms(loop);
  for (Value tile : plan.tiles) {
    auto type = cast<tile::BufferType>(tile.getType());
    if (!stagesKeepLayout(type, loop.getStages()))
      return std::nullopt;
    for (OpOperand &use : tile.getUses()) {
      Operation *user = use.getOwner();
      if (!loop->isAncestor(user))
        return std::nullopt;
      auto copy = dyn_cast<tile::CopyOp>(user);
      if (copy && llvm::is_contained(plan.producers, copy))
        continue;
      // Other users may only read the tile.
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effects || effects.getEffectOnValue<MemoryEffects::Write>(tile))
        return std::nullopt;
    }
  }
  return plan;
}

void tilec::stageTiles(const PipelinePlan &plan, int64_t stages) {
  for (Value tile : plan.tiles) {
    auto type = cast<tile::BufferType>(tile.getType());
    SmallVector<int64_t> staged{stages};
    llvm::append_range(staged, type.getShape());
    tile.setType(tile::BufferType::get(staged, type.getElementType(),
                                       type.getScope(), type.getLayout()));
  }
}

void tilec::mapStages(OpBuilder &builder, Location loc,
                      const PipelinePlan &plan, IRMapping &mapping,
                      Value stage) {
  for (Value tile : plan.tiles) {
    auto staged = cast<tile::BufferType>(tile.getType());
    auto type = tile::BufferType::get(staged.getShape().drop_front(),
                                      staged.getElementType(),
                                      staged.getScope(), staged.getLayout());
    mapping.map(tile,
                tile::StageViewOp::create(builder, loc, type, tile, stage));
  }
}

namespace {

/// Rewrites one loop as the header describes.
class LoopPipeliner {
public:
  LoopPipeliner(tile::PipelinedOp loop, const PipelinePlan &plan)
      : loop(loop), plan(plan), builder(loop), stages(loop.getStages()) {
    // With 3 stages an async GEMM would leave room for one copy in flight
    // only, which measured slower on the H200 than two and synchronous
    // GEMMs.
    if (stages >= 4)
      asyncGemms = plan.asyncCapableGemms;
    lookahead = stages - 1 - (asyncGemms.empty() ? 0 : 1);
  }

  void run();

private:
  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(builder, loop.getLoc(), value);
  }
  /// The stage of `iteration`, `iteration % S`, computed in 32 bits (an
  /// unsigned division by a constant that is not a power of two costs a
  /// dozen instructions per iteration in 64 bits): exact below 2^32
  /// iterations, more tiles along one dim than any GPU's memory holds.
  Value stageOf(Value iteration);
  /// Emits the producers of the iteration `iteration` into stage
  /// `iteration % S`, if `iteration < n`.
  void emitProducers(Value iteration, Value upperBound);
  /// Emits iteration `k` of the steady state: wait for its stage, start
  /// the copies of iteration k + L (unless `upperBound` is null: none are
  /// left), run the consumers on the stage, their GEMMs async if
  /// `asyncGemms`.
  void emitIteration(Value k, Value upperBound, bool gemmsAsync);
  /// Clones `op` and the ops of the loop body it needs, with `mapping`.
  void cloneWithSlice(Operation *op, IRMapping &mapping);

  tile::PipelinedOp loop;
  const PipelinePlan &plan;
  OpBuilder builder;
  int64_t stages;
  /// The GEMMs that become asynchronous (lag 1), or none (lag 0).
  SmallVector<tile::GemmOp> asyncGemms;
  /// Iterations whose copies are in flight ahead of the compute: S-1 minus
  /// the lag of the consumers.
  int64_t lookahead;
};

void LoopPipeliner::cloneWithSlice(Operation *op, IRMapping &mapping) {
  Block *body = &loop.getBody().front();
  for (Value operand : op->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (def && def->getBlock() == body && !mapping.contains(operand))
      cloneWithSlice(def, mapping);
  }
  Operation *clone = builder.clone(*op, mapping);
  if (auto copy = dyn_cast<tile::CopyOp>(clone))
    copy.setAsync(true);
}

Value LoopPipeliner::stageOf(Value iteration) {
  Location loc = loop.getLoc();
  Type i32 = builder.getI32Type();
  Value narrow = arith::IndexCastUIOp::create(builder, loc, i32, iteration);
  Value stage = arith::RemUIOp::create(
      builder, loc, narrow,
      arith::ConstantIntOp::create(builder, loc, i32, stages));
  return arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(),
                                      stage);
}

void LoopPipeliner::emitProducers(Value iteration, Value upperBound) {
  Location loc = loop.getLoc();
  Value inRange = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                        iteration, upperBound);
  auto guard = tile::IfOp::create(builder, loc, inRange, /*withElse=*/false);
  OpBuilder::InsertionGuard insertion(builder);
  builder.setInsertionPoint(guard.getThenRegion().front().getTerminator());
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iteration);
  mapStages(builder, loc, plan, mapping, stageOf(iteration));
  for (tile::CopyOp producer : plan.producers)
    cloneWithSlice(producer, mapping);
}

void LoopPipeliner::emitIteration(Value k, Value upperBound, bool gemmsAsync) {
  Location loc = loop.getLoc();
  tile::AsyncWaitOp::create(builder, loc, lookahead - 1);
  tile::BarrierOp::create(builder, loc);
  if (upperBound) {
    emitProducers(arith::AddIOp::create(builder, loc, k, constant(lookahead)),
                  upperBound);
    tile::AsyncCommitOp::create(builder, loc);
  }
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), k);
  mapStages(builder, loc, plan, mapping, stageOf(k));
  for (Operation &op : loop.getBody().front().without_terminator()) {
    auto copy = dyn_cast<tile::CopyOp>(op);
    if ((copy && llvm::is_contained(plan.producers, copy)) ||
        mapping.contains(&op))
      continue;
    Operation *clone = builder.clone(op, mapping);
    if (auto gemm = dyn_cast<tile::GemmOp>(op);
        gemmsAsync && gemm && llvm::is_contained(asyncGemms, gemm))
      cast<tile::GemmOp>(clone).setAsync(true);
  }
}

void LoopPipeliner::run() {
  Location loc = loop.getLoc();
  Value upperBound = loop.getUpperBound();
  bool async = !asyncGemms.empty();
  {
    OpBuilder::InsertionGuard insertion(builder);
    if (async) {
      // Everything runs only if the loop does, so that every path from an
      // async GEMM to the end of the loop passes the synchronous last
      // iteration (ptxas serializes every wgmma otherwise, C7514/C7515).
      Value runs = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, constant(0), upperBound);
      auto guard = tile::IfOp::create(builder, loc, runs, /*withElse=*/false);
      builder.setInsertionPoint(guard.getThenRegion().front().getTerminator());
    }
    for (int64_t i = 0; i < lookahead; ++i) {
      emitProducers(constant(i), upperBound);
      tile::AsyncCommitOp::create(builder, loc);
    }
    Value last;
    if (async)
      last = arith::SubIOp::create(builder, loc, upperBound, constant(1));
    auto steady =
        tile::SerialOp::create(builder, loc, async ? last : upperBound);
    {
      OpBuilder::InsertionGuard body(builder);
      builder.setInsertionPoint(steady.getBody().front().getTerminator());
      emitIteration(steady.getInductionVar(), upperBound, async);
    }
    // The last iteration, peeled: its GEMMs wait for every GEMM.
    if (async)
      emitIteration(last, /*upperBound=*/nullptr, /*asyncGemms=*/false);
  }
  // Nothing is in flight, and every thread is done with the stages, when
  // the loop ends.
  tile::AsyncWaitOp::create(builder, loc, 0);
  tile::BarrierOp::create(builder, loc);
  loop.erase();
}

} // namespace

void tilec::pipelineWithAsyncCopies(tile::PipelinedOp loop,
                                    const PipelinePlan &plan) {
  LoopPipeliner(loop, plan).run();
}

namespace {

struct PipelineLoops
    : public tilec::impl::TilePipelineLoopsBase<PipelineLoops> {
  using TilePipelineLoopsBase::TilePipelineLoopsBase;
  void runOnOperation() override {
    SmallVector<tile::PipelinedOp> loops;
    getOperation().walk([&](tile::PipelinedOp loop) {
      if (loop.getStages() >= 2)
        loops.push_back(loop);
    });
    for (tile::PipelinedOp loop : loops) {
      std::optional<PipelinePlan> plan = planLoop(loop);
      if (!plan)
        continue;
      if (warpSpecialize(loop, *plan, clusters))
        continue;
      stageTiles(*plan, loop.getStages());
      pipelineWithAsyncCopies(loop, *plan);
    }
  }
};

} // namespace
