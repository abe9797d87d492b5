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

#include <functional>

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

  /// The layout a derived preference asks for, given the layout of the
  /// holder it derives from.
  using Derivation = std::function<mlir::tile::DistributedLayoutAttrInterface(
      mlir::tile::DistributedLayoutAttrInterface)>;

  /// Declares `holder` with a preference of `requester` that depends on the
  /// layout `source` gets: `derive` of it (a row statistic read beside an
  /// accumulator asks for the accumulator's slice, or `#tile.replicated`
  /// if that is not an accumulator layout).
  void addDerivedHolder(mlir::Operation *holder, mlir::Operation *source,
                        Derivation derive, mlir::Operation *requester);

  /// Chooses one layout per class: the combination of its members'
  /// preferences (`#tile.flat`: the narrowest vector, so that every member's
  /// accesses stay aligned; an instruction's layout such as `#tile.mma` or
  /// a `#tile.slice` over any `#tile.flat`; `#tile.replicated` over a
  /// `#tile.slice` or two different slices), or `#tile.flat<vec = 1>` if no
  /// member has one. Derived preferences are resolved from the layouts
  /// chosen without them, and the classes solved again, until they no
  /// longer change. Reports a located error, with a note per member, for a
  /// class whose preferences cannot be combined.
  mlir::FailureOr<llvm::MapVector<mlir::Operation *,
                                  mlir::tile::DistributedLayoutAttrInterface>>
  solve(mlir::MLIRContext *context) const;

private:
  struct Preference {
    mlir::tile::DistributedLayoutAttrInterface layout;
    mlir::Operation *requester;
  };
  /// A preference that depends on another holder's layout.
  struct DerivedPreference {
    mlir::Operation *holder;
    mlir::Operation *source;
    Derivation derive;
    mlir::Operation *requester;
  };
  using Solution = llvm::MapVector<mlir::Operation *,
                                   mlir::tile::DistributedLayoutAttrInterface>;

  /// Solves the classes with the derived preferences resolved as
  /// `resolved` (one layout per entry of `derived`, null: none yet).
  mlir::FailureOr<Solution>
  solveClasses(mlir::MLIRContext *context,
               llvm::ArrayRef<mlir::tile::DistributedLayoutAttrInterface>
                   resolved) const;

  llvm::EquivalenceClasses<mlir::Operation *> classes;
  /// Every holder in declaration order, with the layouts its uses prefer.
  llvm::MapVector<mlir::Operation *, llvm::SmallVector<Preference, 1>> holders;
  llvm::SmallVector<DerivedPreference> derived;
};

/// The derivation of a rank-1 fragment read as the slice along `dim` of a
/// rank-2 tile in the source's layout: that slice if the source is in a
/// `#tile.mma` layout (with `oneWarpPerLine`, one whose every kept row or
/// column lies in one warp, as a reduction's quad butterfly needs), else
/// `#tile.replicated`.
LayoutConstraints::Derivation
sliceOrReplicated(mlir::MLIRContext *context, int64_t dim, bool oneWarpPerLine);

} // namespace tilec

#include "passes/Layout/LayoutRuleInterface.h.inc"

#endif // TILEC_PASSES_LAYOUT_LAYOUTCONSTRAINTS_H
