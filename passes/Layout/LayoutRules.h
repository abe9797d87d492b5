//===- LayoutRules.h - Registration of the layout rules ---------*- C++ -*-===//
//
// Each op family's layout rule is an external model of LayoutRuleOpInterface
// in its own file of passes/Layout/; registerLayoutRules attaches them all.
// `tile-infer-layouts` registers them as a dependency, so tools need not.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PASSES_LAYOUT_LAYOUTRULES_H
#define TILEC_PASSES_LAYOUT_LAYOUTRULES_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tilec {

/// Attaches the elementwise rules: `tile.parallel` loops and the fragments
/// they access (ElementwiseRule.cpp).
void registerElementwiseLayoutRules(mlir::DialectRegistry &registry);

/// Attaches the rule of `tile.gemm` on the mma.sync path: the accumulator's
/// `#tile.mma` layout (GemmRule.cpp).
void registerGemmLayoutRules(mlir::DialectRegistry &registry);

/// Attaches the rule of `tile.reduce`: its fragment target is replicated
/// (ReduceRule.cpp).
void registerReduceLayoutRules(mlir::DialectRegistry &registry);

/// Attaches the rule of `tile.copy` with fragment operands (CopyRule.cpp).
void registerCopyLayoutRules(mlir::DialectRegistry &registry);

/// Attaches every op family's layout rule.
void registerLayoutRules(mlir::DialectRegistry &registry);

} // namespace tilec

#endif // TILEC_PASSES_LAYOUT_LAYOUTRULES_H
