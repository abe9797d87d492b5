//===- ReductionPlan.h - How a tile.reduce is carried out -------*- C++ -*-===//
//
// The one place that decides how the block's threads carry out a
// `tile.reduce`: `tile-plan-reductions` sizes the reduction's shared
// scratch tile from the plan and the lowering emits the plan, so both agree.
//
// * PerThread: the source is a `#tile.replicated` fragment; every thread
//   reduces its own copy.
// * Registers: the source is a distributed fragment whose registers can be
//   sorted into "slots" such that, in every aligned group of `groupSize`
//   lanes (a power of two up to 32), all lanes' registers of one slot hold
//   elements of one output (a `#tile.flat` fragment whose steps each lie in
//   a line, or cover whole lines a warp or a lane group each; a `#tile.mma`
//   accumulator, whose rows are held by lane quads). Each thread folds its
//   registers into one partial per slot, the group combines its partials
//   with a `shfl.sync.bfly` butterfly, and, if the block has several groups,
//   the first lane of every group writes its partials to scratch
//   ([slots][groups]), from which every thread combines the entries of
//   every output. Into a `#tile.slice` target whose every output lies in
//   one group (an accumulator's rows, each in one lane quad), the group's
//   partials are the results: each target register takes the partial of
//   one slot and nothing is exchanged.
// * SharedMemory: anything else (a shared source, a `#tile.slice` fragment,
//   whose elements several threads hold, a flat fragment whose steps
//   straddle lines). The fragment is written to
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
  /// Threads of the block.
  int64_t threads = 0;
  /// Registers: lanes of a group (a power of two, at most 32).
  int64_t groupSize = 0;
  /// Registers: the slot of every source register, or -1 for a register
  /// that holds no element in any thread.
  llvm::SmallVector<int64_t> registerSlots;
  /// Registers: the number of slots.
  int64_t slots = 0;
  /// Registers: the output that slot `s` of group `g` holds, at
  /// `s * getGroups() + g`, or -1 if it holds none.
  llvm::SmallVector<int64_t> entryOutputs;
  /// Registers into a `#tile.slice` target held within groups: the slot
  /// whose partial is the result in target register `r`, at `r` (empty
  /// otherwise).
  llvm::SmallVector<int64_t> targetSlots;

  /// Registers: lane groups in the block.
  int64_t getGroups() const { return groupSize ? threads / groupSize : 0; }
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

/// The one output that the non-negative entries of `outputs` hold (-1 if
/// there are none), or std::nullopt if two of them differ.
std::optional<int64_t> commonOutput(llvm::ArrayRef<int64_t> outputs);

/// The index, row-major over the reduction's result, of the output that
/// the source element at `coordinates` belongs to.
int64_t reductionOutputIndex(llvm::ArrayRef<int64_t> sourceShape, int64_t dim,
                             llvm::ArrayRef<int64_t> coordinates);

} // namespace tilec

#endif // TILEC_PASSES_ANALYSIS_REDUCTIONPLAN_H
