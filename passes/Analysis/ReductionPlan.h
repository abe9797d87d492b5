//===- ReductionPlan.h - How a tile.reduce is carried out -------*- C++ -*-===//
//
// The one place that decides how the block's threads carry out a
// `tile.reduce`: `tile-plan-reductions` sizes the reduction's shared
// scratch tile from the plan and the lowering emits the plan, so both agree.
//
// * PerThread: the source is a `#tile.replicated` fragment; every thread
//   reduces its own copy.
// * Registers: the source is a distributed fragment in which every register
//   contributes to the same output element in every thread (a `#tile.flat`
//   fragment whose steps each lie in one output's line, as a row of softmax
//   or of a row sum). Each thread folds its registers into one partial per
//   output, the warp combines partials with a butterfly of `shfl.sync.bfly`,
//   lane 0 of every warp writes the warp's partials to scratch
//   ([outputs][warps]) and every thread combines the warps' partials.
// * SharedMemory: anything else (a shared source, a `#tile.mma` fragment, a
//   flat fragment whose steps straddle lines). The fragment is written to
//   scratch row-major (a shared source is read in place); warp `w` reduces
//   outputs `w, w + W, ...`, its lanes striding along the line, and writes
//   each result to the scratch's tail, which every thread then reads.
//
// Partial results are kept in the accumulator type: f32 (f64 if an operand
// is f64) for floats, i32 (i64) for integers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PASSES_ANALYSIS_REDUCTIONPLAN_H
#define TILEC_PASSES_ANALYSIS_REDUCTIONPLAN_H

#include "dialects/Tile/TileOps.h"

namespace tilec {

/// How one `tile.reduce` is carried out (see the file comment).
struct ReductionPlan {
  enum class Strategy { PerThread, Registers, SharedMemory };

  Strategy strategy = Strategy::SharedMemory;
  /// Elements of the result (the source's elements divided by `extent`).
  int64_t outputs = 0;
  /// The source's extent along the reduced dim.
  int64_t extent = 0;
  /// Warps of the block.
  int64_t warps = 0;
  /// Registers: the output each source register adds to, or -1 for a
  /// register that holds no element in any thread.
  llvm::SmallVector<int64_t> registerOutputs;
  /// The type partial results are kept in.
  mlir::Type accumulatorType;
  /// Elements of the source (SharedMemory with a fragment source: written to
  /// scratch first), else 0.
  int64_t stagedElements = 0;

  /// Elements of the shared scratch tile the plan needs (0: none).
  int64_t getScratchElements() const;
};

/// Plans `reduce` for a block of `threads` threads; its fragment operands
/// must have their layouts (tile-infer-layouts).
mlir::FailureOr<ReductionPlan> planReduction(mlir::tile::ReduceOp reduce,
                                             int64_t threads);

/// The index, row-major over the reduction's result, of the output that
/// the source element at `coordinates` belongs to.
int64_t reductionOutputIndex(llvm::ArrayRef<int64_t> sourceShape, int64_t dim,
                             llvm::ArrayRef<int64_t> coordinates);

} // namespace tilec

#endif // TILEC_PASSES_ANALYSIS_REDUCTIONPLAN_H
