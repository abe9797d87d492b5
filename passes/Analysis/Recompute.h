//===- Recompute.h - Pure computations cloned to another place --*- C++ -*-===//
//
// Values that a transformation computes again somewhere else from what is
// visible there: an index hoisted out of a parallel loop
// (tile-stage-broadcast-loads), a copy's region origin computed by the
// producer of a warp-specialized loop (tile-pipeline-loops). A value can be
// recomputed if it is available at the new place or is the result of a pure
// op without regions whose operands can be recomputed.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PASSES_ANALYSIS_RECOMPUTE_H
#define TILEC_PASSES_ANALYSIS_RECOMPUTE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tilec {

/// Answers, for the values of a transformation, whether they can be computed
/// where the values for which `isAvailable` holds are visible; answers are
/// remembered.
class Recomputability {
public:
  explicit Recomputability(llvm::function_ref<bool(mlir::Value)> isAvailable)
      : isAvailable(isAvailable) {}

  /// True if `value` is available, or is the result of a pure op without
  /// regions whose operands can be recomputed.
  bool canRecompute(mlir::Value value);

private:
  llvm::function_ref<bool(mlir::Value)> isAvailable;
  llvm::DenseMap<mlir::Value, bool> known;
};

/// Returns `value`, which can be recomputed (Recomputability) where
/// `isAvailable` values are visible, at the builder's insertion point: its
/// image in `mapping` if it has one, the value itself if it is available, or
/// a clone of the ops that compute it (recorded in `mapping`, so that later
/// calls reuse them).
mlir::Value recompute(mlir::Value value,
                      llvm::function_ref<bool(mlir::Value)> isAvailable,
                      mlir::OpBuilder &builder, mlir::IRMapping &mapping);

} // namespace tilec

#endif // TILEC_PASSES_ANALYSIS_RECOMPUTE_H
