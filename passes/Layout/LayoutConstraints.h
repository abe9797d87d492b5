//===- LayoutConstraints.h - What the layout rules ask for ------*- C++ -*-===//
//
// The constraint set that the layout rules of `tile-infer-layouts` fill in
// and the pass solves: layout holders (`tile.alloc_fragment`s and
// `tile.parallel` loops) in classes that must share one layout, each holder
// with the layout it would prefer on its own.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PASSES_LAYOUT_LAYOUTCONSTRAINTS_H
#define TILEC_PASSES_LAYOUT_LAYOUTCONSTRAINTS_H

#include "dialects/Tile/TileOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"

namespace tilec {

/// Holders, their preferred layouts and the classes that share a layout.
class LayoutConstraints {
public:
  /// Declares `holder` (an op that gets a layout), optionally with a layout
  /// that one of its uses, `requester` (by default `holder`), would prefer;
  /// a holder may be declared several times.
  void addHolder(mlir::Operation *holder,
                 mlir::tile::DistributedLayoutAttrInterface preferred = {},
                 mlir::Operation *requester = nullptr);

  /// Requires the holders `a` and `b` to get the same layout.
  void unify(mlir::Operation *a, mlir::Operation *b);

  /// Chooses one layout per class: the combination of its members'
  /// preferences (`#tile.flat`: the narrowest vector, so that every member's
  /// accesses stay aligned; an instruction's layout such as `#tile.mma` over
  /// any `#tile.flat`), or `#tile.flat<vec = 1>` if no member has one.
  /// Reports a located error, with a note per member, for a class whose
  /// preferences cannot be combined.
  mlir::FailureOr<llvm::MapVector<mlir::Operation *,
                                  mlir::tile::DistributedLayoutAttrInterface>>
  solve(mlir::MLIRContext *context) const;

private:
  llvm::EquivalenceClasses<mlir::Operation *> classes;
  /// Every holder in declaration order, with the layouts its uses prefer.
  struct Preference {
    mlir::tile::DistributedLayoutAttrInterface layout;
    mlir::Operation *requester;
  };
  llvm::MapVector<mlir::Operation *, llvm::SmallVector<Preference, 1>> holders;
};

} // namespace tilec

#include "passes/Layout/LayoutRuleInterface.h.inc"

#endif // TILEC_PASSES_LAYOUT_LAYOUTCONSTRAINTS_H
