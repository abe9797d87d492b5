//===- InferLayouts.cpp - Thread layouts of fragments and loops -----------===//
//
// Implements `tile-infer-layouts` (see Passes.td): collects the constraints
// of every op's layout rule, solves them and records the layouts in the IR.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Layout/LayoutConstraints.h"
#include "passes/Layout/LayoutRules.h"
#include "passes/Layout/SharedLayoutChoice.h"

namespace tilec {
#define GEN_PASS_DEF_TILEINFERLAYOUTS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

void tilec::registerLayoutRules(DialectRegistry &registry) {
  registerElementwiseLayoutRules(registry);
  registerGemmLayoutRules(registry);
  registerReduceLayoutRules(registry);
  registerCopyLayoutRules(registry);
}

namespace {
struct InferLayouts : public tilec::impl::TileInferLayoutsBase<InferLayouts> {
  /// Gives every shared tile the layout chooseSharedLayout picks for it
  /// (bank-conflict-free 16-byte writes and ldmatrix reads), honouring the
  /// layout family the user asked for.
  LogicalResult layOutSharedTiles() {
    WalkResult result = getOperation().walk([&](tile::AllocSharedOp alloc) {
      Value tile = alloc.getResult();
      auto type = cast<tile::BufferType>(tile.getType());
      if (isa_and_nonnull<tile::SharedLayoutAttrInterface>(type.getLayout()))
        return WalkResult::advance();
      FailureOr<std::optional<tile::LayoutKind>> requested =
          getRequestedLayout(tile);
      if (mlir::failed(requested))
        return WalkResult::interrupt();
      unsigned bits = type.getElementType().getIntOrFloatBitWidth();
      tile::SharedLayoutAttrInterface layout = chooseSharedLayout(
          &getContext(), type.getShape(), bits == 1 ? 8 : bits, *requested);
      if (!layout) {
        if (*requested) {
          alloc.emitOpError("cannot have the requested '")
              << tile::stringifyLayoutKind(**requested)
              << "' layout: its rows are not whole 16-byte chunks";
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      }
      tile.setType(tile::BufferType::get(type.getShape(), type.getElementType(),
                                         type.getScope(), layout));
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<tile::TileDialect>();
    registerLayoutRules(registry);
  }

  void runOnOperation() override {
    // Shared tiles first: the GEMM rule chooses its instruction by how they
    // are laid out.
    if (mlir::failed(layOutSharedTiles()))
      return signalPassFailure();
    LayoutConstraints constraints;
    bool failed = false;
    getOperation().walk([&](LayoutRuleOpInterface rule) {
      failed |= mlir::failed(rule.addLayoutConstraints(constraints));
    });
    if (failed)
      return signalPassFailure();
    auto layouts = constraints.solve(&getContext());
    if (mlir::failed(layouts))
      return signalPassFailure();
    for (auto [holder, layout] : *layouts) {
      if (auto loop = dyn_cast<tile::ParallelOp>(holder)) {
        loop.setLayoutAttr(layout);
        continue;
      }
      Value fragment = holder->getResult(0);
      auto type = cast<tile::BufferType>(fragment.getType());
      fragment.setType(tile::BufferType::get(
          type.getShape(), type.getElementType(), type.getScope(), layout));
    }
  }
};
} // namespace
