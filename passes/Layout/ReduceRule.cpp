//===- ReduceRule.cpp - Layouts of reductions -----------------------------===//
//
// The layout rule of `tile.reduce`: a fragment that receives a reduction's
// result is `#tile.replicated`, so that every thread holds the whole result
// (softmax's `x - max`, a row vector scaling the rows of a tile) and the
// reduction ends with the values broadcast; but the row reduction of an
// accumulator whose rows each lie in one warp (`#tile.mma` with
// `warps_n = 1`: FlashAttention's row maximum and sum) leaves every row
// with the threads that hold it, in the accumulator's `#tile.slice`. The
// source keeps whatever layout its other users give it; the lowering reduces
// any of them (passes/Analysis/ReductionPlan.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Layout/LayoutConstraints.h"
#include "passes/Layout/LayoutRules.h"

using namespace mlir;
using namespace tilec;

namespace {
struct ReduceLayoutRule
    : public LayoutRuleOpInterface::ExternalModel<ReduceLayoutRule,
                                                  tile::ReduceOp> {
  LogicalResult addLayoutConstraints(Operation *op,
                                     LayoutConstraints &constraints) const {
    auto reduce = cast<tile::ReduceOp>(op);
    auto target = cast<tile::BufferType>(reduce.getTarget().getType());
    if (!target.isFragment())
      return success();
    Operation *alloc =
        reduce.getTarget().getDefiningOp<tile::AllocFragmentOp>();
    if (!alloc)
      return reduce.emitOpError("target must be a 'tile.alloc_fragment'");
    // The rows of an accumulator reduce within the warps that hold them:
    // the result stays with them, as the accumulator's row slice.
    Operation *source =
        reduce.getSource().getDefiningOp<tile::AllocFragmentOp>();
    auto sourceType = cast<tile::BufferType>(reduce.getSource().getType());
    if (source && sourceType.getRank() == 2 && target.getRank() == 1 &&
        reduce.getDim() == 1) {
      constraints.addDerivedHolder(alloc, source,
                                   sliceOrReplicated(op->getContext(), 1,
                                                     /*oneWarpPerLine=*/true),
                                   op);
      return success();
    }
    constraints.addHolder(
        alloc, tile::ReplicatedLayoutAttr::get(op->getContext()), op);
    return success();
  }
};
} // namespace

void tilec::registerReduceLayoutRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tile::TileDialect *) {
    tile::ReduceOp::attachInterface<ReduceLayoutRule>(*context);
  });
}
