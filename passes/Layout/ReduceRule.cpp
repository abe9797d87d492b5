//===- ReduceRule.cpp - Layouts of reductions -----------------------------===//
//
// The layout rule of `tile.reduce`: a fragment that receives a reduction's
// result is `#tile.replicated`, so that every thread holds the whole result
// (softmax's `x - max`, a row vector scaling the rows of a tile) and the
// reduction ends with the values broadcast. The source keeps whatever layout
// its other users give it; the lowering reduces any of them
// (passes/Analysis/ReductionPlan.h).
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
