//===- LowerSCFToCF.cpp - Structured control flow to branches -------------===//
//
// Implements `tile-lower-scf-to-cf` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/Passes.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"

namespace tilec {
#define GEN_PASS_DEF_TILELOWERSCFTOCF
#include "codegen/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {
struct LowerSCFToCF : public tilec::impl::TileLowerSCFToCFBase<LowerSCFToCF> {
  LogicalResult initialize(MLIRContext *ctx) override {
    RewritePatternSet set(ctx);
    populateSCFToControlFlowConversionPatterns(set);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    PatternApplicator applicator(patterns);
    applicator.applyDefaultCostModel();
    // No listener: splitting a block then moves its tail in one splice.
    PatternRewriter rewriter(&getContext());
    // Some patterns make other structured ops (scf.parallel becomes
    // scf.for): lower until none is left.
    while (true) {
      // Post-order, last op of a block first: nested ops are lowered before
      // their parents, and a split moves no op that is lowered later.
      SmallVector<Operation *> ops;
      getOperation()->walk<WalkOrder::PostOrder, ReverseIterator>(
          [&](Operation *op) {
            if (isa<scf::SCFDialect>(op->getDialect()) &&
                !op->hasTrait<OpTrait::IsTerminator>())
              ops.push_back(op);
          });
      if (ops.empty())
        return;
      for (Operation *op : ops) {
        rewriter.setInsertionPoint(op);
        if (failed(applicator.matchAndRewrite(op, rewriter))) {
          op->emitOpError("cannot be lowered to branches");
          return signalPassFailure();
        }
      }
    }
  }

  FrozenRewritePatternSet patterns;
};
} // namespace
