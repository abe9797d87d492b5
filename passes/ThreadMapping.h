//===- ThreadMapping.h - How parallel loops map to threads ------*- C++ -*-===//
//
// The contract between `tile-assign-thread-mapping`, which chooses a vector
// width for every `tile.parallel` loop and fragment, and the lowering, which
// distributes the loops (see Passes.td for the mapping itself).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PASSES_THREADMAPPING_H
#define TILEC_PASSES_THREADMAPPING_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
class Block;
class Operation;
namespace tile {
class ParallelOp;
} // namespace tile
} // namespace mlir

namespace tilec {

/// The discardable attribute (an i64) holding the vector width of a
/// `tile.parallel` loop or a `tile.alloc_fragment`.
constexpr llvm::StringLiteral kVectorWidthAttrName = "tile.vector_width";

/// Returns the vector width recorded on `op`, if any.
std::optional<int64_t> getVectorWidth(mlir::Operation *op);

/// Records `width` as the vector width of `op`.
void setVectorWidth(mlir::Operation *op, int64_t width);

/// Returns true if `access`, a `tile.load` or `tile.store` of a fragment
/// nested in `loop`, indexes the fragment the way the thread mapping
/// distributes both: with the loop's induction variables, the loop's
/// extents being the fragment's shape. Other fragment accesses cannot be
/// lowered yet.
bool isDistributedFragmentAccess(mlir::Operation *access,
                                 mlir::tile::ParallelOp loop);

/// What an expensive op costs once emitted (see getEmittedCost), and in 64
/// bits.
constexpr int64_t kExpensiveOpCost = 16;
constexpr int64_t kWideExpensiveOpCost = 64;

/// What `op` costs the back end once emitted, the unit of the code
/// generator's size limits: 1, or more for transcendental functions
/// (inlined libdevice calls) and divisions by a value that is not a
/// constant (long instruction sequences).
int64_t getEmittedCost(mlir::Operation *op);

/// What emitting `block` once costs, estimated from its ops: a guarded
/// access of global memory emits about 8 ops, an `unroll` loop its body once
/// per trip. Saturates.
uint64_t estimateEmittedCost(mlir::Block &block);

/// The distribution of `total` flat elements over `threads` threads that
/// take `width` consecutive elements per step.
struct ThreadDistribution {
  int64_t total = 0;
  int64_t threads = 0;
  int64_t width = 1;

  /// Elements the whole block covers in one step.
  int64_t elementsPerStep() const { return threads * width; }
  /// Steps needed to cover every element.
  int64_t steps() const {
    return (total + elementsPerStep() - 1) / elementsPerStep();
  }
  /// Elements each thread owns (the per-thread storage of a fragment).
  int64_t elementsPerThread() const { return steps() * width; }
  /// True if the last step leaves some threads without elements.
  bool hasPartialStep() const { return total % elementsPerStep() != 0; }
};

} // namespace tilec

#endif // TILEC_PASSES_THREADMAPPING_H
