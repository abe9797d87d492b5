//===- PlanReductions.cpp - Scratch tiles of the reductions ---------------===//
//
// Implements `tile-plan-reductions` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Analysis/ReductionPlan.h"

namespace tilec {
#define GEN_PASS_DEF_TILEPLANREDUCTIONS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {
struct PlanReductions
    : public tilec::impl::TilePlanReductionsBase<PlanReductions> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](tile::ReduceOp reduce) {
      if (reduce.getScratch())
        return WalkResult::advance();
      auto launch = reduce->getParentOfType<tile::LaunchOp>();
      if (!launch) {
        reduce.emitOpError("outside a 'tile.launch'");
        return WalkResult::interrupt();
      }
      FailureOr<ReductionPlan> plan =
          planReduction(reduce, launch.getThreads());
      if (failed(plan))
        return WalkResult::interrupt();
      int64_t elements = plan->getScratchElements();
      if (elements == 0)
        return WalkResult::advance();
      OpBuilder builder = OpBuilder::atBlockBegin(&launch.getBody().front());
      auto type = tile::BufferType::get({elements}, plan->accumulatorType,
                                        tile::MemoryScope::Shared);
      auto scratch = tile::AllocSharedOp::create(builder, reduce.getLoc(), type,
                                                 IntegerAttr());
      reduce.getScratchMutable().assign(scratch.getResult());
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
