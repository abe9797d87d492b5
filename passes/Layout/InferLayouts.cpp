//===- InferLayouts.cpp - Thread layouts of fragments and loops -----------===//
//
// Implements `tile-infer-layouts` (see Passes.td): collects the constraints
// of every op's layout rule, solves them and records the layouts in the IR.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Layout/LayoutConstraints.h"
#include "passes/Layout/LayoutRules.h"

namespace tilec {
#define GEN_PASS_DEF_TILEINFERLAYOUTS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

void tilec::registerLayoutRules(DialectRegistry &registry) {
  registerElementwiseLayoutRules(registry);
  registerGemmLayoutRules(registry);
}

namespace {
struct InferLayouts : public tilec::impl::TileInferLayoutsBase<InferLayouts> {
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<tile::TileDialect>();
    registerLayoutRules(registry);
  }

  void runOnOperation() override {
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
