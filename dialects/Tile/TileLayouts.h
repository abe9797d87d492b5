//===- TileLayouts.h - The maths of the tile layouts ------------*- C++ -*-===//
//
// Value types that the layout attributes (TileLayoutAttrs.td) hand to the
// passes and the lowering, so that the thread <-> element mapping of a
// layout is computed in one place (TileLayouts.cpp) and unit-tested.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECTS_TILE_TILELAYOUTS_H
#define TILEC_DIALECTS_TILE_TILELAYOUTS_H

#include <cstdint>

namespace mlir::tile {

/// The distribution of `total` flat elements over `threads` threads that
/// take `vec` consecutive elements per step (`#tile.flat<vec>`).
struct FlatDistribution {
  int64_t total = 0;
  int64_t threads = 0;
  int64_t vec = 1;

  /// Elements the whole block covers in one step.
  int64_t elementsPerStep() const { return threads * vec; }
  /// Steps needed to cover every element.
  int64_t steps() const {
    return (total + elementsPerStep() - 1) / elementsPerStep();
  }
  /// Registers each thread needs (the per-thread storage of a fragment).
  int64_t elementsPerThread() const { return steps() * vec; }
  /// True if the last step leaves some threads without elements.
  bool hasPartialStep() const { return total % elementsPerStep() != 0; }
  /// The flat element that register `reg` of thread `thread` holds, or -1
  /// if it holds none.
  int64_t flatElement(int64_t thread, int64_t reg) const {
    int64_t step = reg / vec;
    int64_t element = (step * threads + thread) * vec + reg % vec;
    return element < total ? element : -1;
  }
};

} // namespace mlir::tile

#endif // TILEC_DIALECTS_TILE_TILELAYOUTS_H
