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
class Operation;
} // namespace mlir

namespace tilec {

/// The discardable attribute (an i64) holding the vector width of a
/// `tile.parallel` loop or a `tile.alloc_fragment`.
constexpr llvm::StringLiteral kVectorWidthAttrName = "tile.vector_width";

/// Returns the vector width recorded on `op`, if any.
std::optional<int64_t> getVectorWidth(mlir::Operation *op);

/// Records `width` as the vector width of `op`.
void setVectorWidth(mlir::Operation *op, int64_t width);

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
