//===- FragmentElements.h - Registers of a fragment as IR -------*- C++ -*-===//
//
// Which element of its tile each register of a distributed fragment (or of
// a `tile.parallel` loop's iteration space) holds, computed as `index`
// arithmetic on the thread's index: the IR counterpart of
// DistributedLayoutAttrInterface::getElementCoordinates for the layouts the
// code generator lowers (`#tile.flat`, `#tile.mma`, `#tile.slice`,
// `#tile.replicated`).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_CONVERSION_TILETOLLVM_FRAGMENTELEMENTS_H
#define TILEC_CODEGEN_CONVERSION_TILETOLLVM_FRAGMENTELEMENTS_H

#include "dialects/Tile/TileLayouts.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace tilec {

class KernelLowering;
struct PrivateBuffer;

/// The coordinates in its tile of the element a register holds, and whether
/// it holds one (null: always).
struct RegisterElement {
  llvm::SmallVector<mlir::Value> coordinates;
  mlir::Value valid;
};

/// Computes, as IR at the builder's insertion point, which element each
/// register of the thread holds in a tile of `shape` laid out by `layout`.
class FragmentElements {
public:
  FragmentElements(KernelLowering &lowering, mlir::Location loc,
                   llvm::ArrayRef<int64_t> shape, mlir::Attribute layout);

  /// Prepares the thread-dependent values; fails for a layout it cannot map
  /// (or a shape the layout does not apply to).
  mlir::LogicalResult initialize();
  /// Registers per thread.
  int64_t getNumRegisters() const { return numRegisters; }
  /// The element of register `reg`.
  RegisterElement lookup(int64_t reg);
  /// True if every even register and the next one hold two consecutive
  /// elements of a row (the (2t, 2t + 1) columns of the mma layouts; the
  /// vectors of `#tile.flat<vec>` with vec >= 2), both held or neither.
  bool pairsAreConsecutive() const {
    return isMma || slicedDim == 0 ||
           (!slicedDim && !isReplicated && distribution.vec >= 2);
  }
  /// True for `#tile.replicated`: every thread holds every element.
  bool isReplicatedLayout() const { return isReplicated; }
  /// Where several threads hold register `reg`'s element
  /// (`#tile.replicated`, `#tile.slice`), true in the one that stores it to
  /// memory; null for the other layouts.
  mlir::Value ownsElement(mlir::Value reg);

private:
  mlir::Value constant(int64_t value);

  KernelLowering &lowering;
  mlir::OpBuilder &builder;
  mlir::Location loc;
  llvm::SmallVector<int64_t> shape;
  mlir::Attribute layout;
  int64_t numRegisters = 0;
  /// The mma tiling, for a `#tile.mma` fragment or the parent of a
  /// `#tile.slice` one.
  bool isMma = false;
  mlir::tile::MmaTiling tiling;
  /// The sliced dimension, for a `#tile.slice` fragment.
  std::optional<int64_t> slicedDim;
  bool isReplicated = false;
  /// The distribution, for a `#tile.flat` fragment.
  mlir::tile::FlatDistribution distribution;
  /// mma: the row and column of the lane's register 0; flat: the flat index
  /// of the thread's first element.
  mlir::Value rowBase, columnBase, flatBase;
  /// mma: the row and column values made so far, by offset from the bases.
  llvm::DenseMap<int64_t, mlir::Value> rows, columns;
};

/// Converts the float `value` to the float type `type` (f16 <-> bf16
/// through f32).
mlir::Value convertFloat(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::Value value, mlir::Type type);

/// The `count` registers of `fragment` from register `first` on, each
/// converted to the float type `elementType` and to its storage, packed for
/// one store: a vector of `count` elements (the element itself if `count`
/// is 1).
mlir::Value packRegisters(KernelLowering &lowering, mlir::Location loc,
                          const PrivateBuffer &fragment, int64_t first,
                          int64_t count, mlir::Type elementType);

} // namespace tilec

#endif // TILEC_CODEGEN_CONVERSION_TILETOLLVM_FRAGMENTELEMENTS_H
