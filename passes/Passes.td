//===- Passes.td - Tile-level transformations --------------*- tablegen -*-===//

#ifndef TILEC_PASSES_PASSES_TD
#define TILEC_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileAssignThreadMapping
    : Pass<"tile-assign-thread-mapping", "::mlir::tile::KernelOp"> {
  let summary = "Chooses how tile.parallel loops and fragments map to threads";
  let description = [{
    A `tile.parallel` loop over extents `E0 x ... x En` is flattened row-major
    and distributed over the launch's `T` threads: each thread handles `vec`
    consecutive elements per step, thread `t` in step `s` covering flat
    elements `(s*T + t)*vec ... (s*T + t)*vec + vec-1`, for
    `ceil(E0*...*En / (T*vec))` steps.

    This pass chooses `vec` for every loop and records it as the
    `tile.vector_width` attribute of the loop. `vec` is the widest 16-byte
    access among the loop's contiguous global accesses (`vec` elements of the
    innermost index, which must be the innermost induction variable plus an
    invariant part), provided it divides the innermost extent and the body,
    emitted once per element of the vector, stays short (its estimated cost
    times `vec` at most 4096); loops that write per-thread `local` buffers
    use `vec = 1` because their iterations must not interleave.

    A fragment lives in the registers of the threads that own its elements.
    Every loop that accesses a fragment must index it with its induction
    variables (and have the fragment's shape); all loops sharing a fragment
    get the same (smallest) `vec`, which is also recorded on the fragment's
    `tile.alloc_fragment`, so that every thread owns the same elements in all
    of them. Other fragment accesses are reported as errors.
  }];
}

#endif // TILEC_PASSES_PASSES_TD
