//===- AccessAnalysis.h - Accesses of parallel loops ------------*- C++ -*-===//
//
// Which global accesses of a `tile.parallel` body touch consecutive elements
// for consecutive values of the innermost induction variable, and how well
// aligned the first of them provably is, and which fragment accesses index a
// fragment the way its loop distributes it. Both the elementwise layout rule
// (to choose a vector width) and the lowering (to emit vector loads and
// stores) ask these questions.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PASSES_ANALYSIS_ACCESSANALYSIS_H
#define TILEC_PASSES_ANALYSIS_ACCESSANALYSIS_H

#include "dialects/Tile/TileTypes.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir::tile {
class AccessOpInterface;
class AllocSharedOp;
class ParallelOp;
} // namespace mlir::tile

namespace tilec {

/// The largest vector access, in bytes, the code generator emits.
constexpr int64_t kMaxVectorBytes = 16;

/// `knownTrailingZeros` of a value that is provably 0.
constexpr unsigned kZeroTrailingZeros = 64;

/// Bytes one element of `elementType` occupies in memory (`i1` is stored as
/// one byte).
int64_t storageBytes(mlir::Type elementType);

/// The bytes a shared tile of `type` takes (its layout's padding included),
/// saturating.
uint64_t sharedTileBytes(mlir::tile::BufferType type);

/// Shared tiles whose byte size is a multiple of this start at a multiple
/// of it in the arena (the period of the 128-byte swizzle patterns; TMA and
/// wgmma descriptors start there; tile-allocate-shared-memory).
constexpr uint64_t kSharedPatternAlignment = 1024;
/// Every other shared tile starts at a multiple of this.
constexpr uint64_t kSharedTileAlignment = 128;

/// The bytes of a shared tile of `type` in the arena: sharedTileBytes
/// rounded up to kSharedTileAlignment.
uint64_t alignedSharedBytes(mlir::tile::BufferType type);

/// What the shared arena of the tiles under `root` can need at most: every
/// tile as if none shared bytes with another (`copies(tile)` times, once
/// without `copies`), plus what the placement's alignment can waste (tiles
/// of whole patterns go first, so less than one pattern).
uint64_t sharedArenaBound(
    mlir::Operation *root,
    llvm::function_ref<uint64_t(mlir::tile::AllocSharedOp)> copies = nullptr);

/// The base alignment in bytes that code may assume for `tensor`, a global
/// buffer argument of a `tile.kernel`: its `tile.alignment` argument
/// attribute, 16 by default.
int64_t tensorAlignment(mlir::BlockArgument tensor);

/// log2 of the largest power of two that provably divides the integer or
/// index `value` (`kZeroTrailingZeros` if it is provably 0). Understands
/// constants, additions, subtractions, multiplications, left shifts, casts,
/// min/max and selects; anything else counts as odd.
unsigned knownTrailingZeros(mlir::Value value);

/// An index of a `tile.parallel` body in the form
/// `sum_k coefficients[k] * iv_k + u`, where `u` does not depend on the
/// induction variables `iv_k` and is a multiple of 2^uniformTrailingZeros.
struct AffineIndex {
  llvm::SmallVector<int64_t> coefficients;
  unsigned uniformTrailingZeros = kZeroTrailingZeros;
};

/// Decomposes `index` in terms of `loop`'s induction variables, or returns
/// nullopt if it is not affine with constant coefficients.
std::optional<AffineIndex> decomposeIndex(mlir::Value index,
                                          mlir::tile::ParallelOp loop);

/// True if `value` may depend on the block argument `iv` (values defined in
/// regions nested below `iv`'s block count as dependent).
bool dependsOn(mlir::Value value, mlir::BlockArgument iv);

/// A global access of a `tile.parallel` body whose innermost index is
/// `invariant + innermost induction variable` while no other index depends
/// on the innermost induction variable; consecutive iterations of the
/// innermost variable touch consecutive elements.
struct ContiguousAccess {
  /// log2 of the largest power-of-two element count that the linear offset
  /// of a vector's first element provably is a multiple of, when vectors
  /// start at multiples of the vector width; includes the base alignment.
  unsigned alignmentLog2 = 0;
  /// True if the tensor has rank > 1 and a symbolic innermost extent: row
  /// offsets are multiples of a vector width only if that extent is, which
  /// is checked at run time.
  bool dynamicRowStride = false;
};

/// Analyzes `access` (a `tile.load` or `tile.store` of a global tensor that
/// is directly in `loop`'s body). Returns nullopt if the access is not
/// contiguous, or if computing its indices involves anything but pure ops.
std::optional<ContiguousAccess>
analyzeContiguousAccess(mlir::Operation *access, mlir::tile::ParallelOp loop);

/// The alignment in bytes that code may assume for a vector access of a
/// shared tile at a multiple of its size (tiles start at multiples of
/// kSharedTileAlignment; stages at multiples of their size).
constexpr uint64_t kSharedVectorAlignment = 16;

/// log2 of the largest power-of-two number of consecutive elements of a row
/// of a shared tile of `type` that its layout stores consecutively, at an
/// offset that is a multiple of that number, for runs that start at a
/// column that is a multiple of it: the row stride's and the row's divisor
/// for plain and padded rows (`W + pad`, `W`), at most the swizzled vector
/// for swizzled ones (the XOR moves whole vectors); 0 for an unknown
/// layout. Tiles and their stages start at multiples of 16 bytes
/// (kSharedTileAlignment; a stage is a multiple of the row stride).
unsigned sharedContiguityLog2(mlir::tile::BufferType type);

/// Analyzes `access` (a `tile.load` or `tile.store` of a shared tile that
/// is directly in `loop`'s body) as analyzeContiguousAccess does a global
/// one: contiguous in the innermost induction variable, its alignment
/// bounded by how many consecutive elements of a row the tile's layout
/// keeps consecutive (its row stride; a swizzle's vector). Shared tiles
/// have static shapes: the access is in bounds as its indices are.
std::optional<ContiguousAccess>
analyzeSharedContiguousAccess(mlir::Operation *access,
                              mlir::tile::ParallelOp loop);

/// The widest chunk (in elements, a power of two) in which a contiguous
/// access of `elementType` elements may be vectorized in a loop of vector
/// width `loopWidth`: at most 16 bytes and no wider than its proven
/// alignment. A result of 1 means scalar accesses.
int64_t vectorChunkWidth(const ContiguousAccess &access, mlir::Type elementType,
                         int64_t loopWidth);

/// A contiguous access of a parallel loop and the widest chunk in which it
/// may be vectorized.
struct VectorizableAccess {
  /// The `tile.load` or `tile.store`.
  mlir::Operation *op;
  /// Its analysis (analyzeContiguousAccess).
  ContiguousAccess access;
  /// Its vectorChunkWidth.
  int64_t chunkWidth;
};

/// Returns the loads and stores directly in `loop`'s body that are contiguous
/// (analyzeContiguousAccess), with their chunk width in a loop of vector
/// width `loopWidth`, in body order.
llvm::SmallVector<VectorizableAccess>
findContiguousAccesses(mlir::tile::ParallelOp loop, int64_t loopWidth);

/// Returns the loads and stores of shared tiles directly in `loop`'s body
/// that are contiguous (analyzeSharedContiguousAccess), with their chunk
/// widths in a loop of vector width `loopWidth`, in body order.
llvm::SmallVector<VectorizableAccess>
findSharedContiguousAccesses(mlir::tile::ParallelOp loop, int64_t loopWidth);

/// Returns true if `access`, a `tile.load` or `tile.store` of a fragment
/// nested in `loop`, indexes the fragment the way the elementwise layout
/// distributes both: with the loop's induction variables, the loop's
/// extents being the fragment's shape. Other fragment accesses cannot be
/// lowered yet.
bool isDistributedFragmentAccess(mlir::tile::AccessOpInterface access,
                                 mlir::tile::ParallelOp loop);

/// The dimension of `loop`'s rank-2 iteration space that `access`, of a
/// rank-1 fragment nested in `loop`, slices away: 1 if it indexes the
/// fragment with the loop's first induction variable (a row statistic
/// `m[i]` in a loop over `[i, j]`), 0 if with the second (a column vector
/// `v[j]`), the fragment's extent being the loop's along that variable;
/// std::nullopt for any other access.
std::optional<int64_t> getSlicedDim(mlir::tile::AccessOpInterface access,
                                    mlir::tile::ParallelOp loop);

} // namespace tilec

#endif // TILEC_PASSES_ANALYSIS_ACCESSANALYSIS_H
