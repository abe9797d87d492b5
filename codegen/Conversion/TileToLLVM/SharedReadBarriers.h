//===- SharedReadBarriers.h - Barriers after shared reads -------*- C++ -*-===//
//
// A `parallel` loop that accesses a shared tile is followed by a barrier
// (the block's threads run its iterations; docs/codegen.md, "Barriers").
// After a loop that only reads shared memory, the barrier keeps a later
// write from overwriting what slower threads still read; until such a write
// there is nothing to keep, so the barrier may wait: where the next op that
// touches shared memory is another loop that only reads it, that loop's
// barrier covers both, and a `serial` loop whose body touches shared memory
// only with such loops needs one barrier after its last iteration instead
// of one per loop per iteration (a row staged in shared memory, reduced in
// chunks).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_CONVERSION_TILETOLLVM_SHAREDREADBARRIERS_H
#define TILEC_CODEGEN_CONVERSION_TILETOLLVM_SHAREDREADBARRIERS_H

#include "dialects/Tile/TileOps.h"

namespace tilec {

/// True if the barrier after `loop`, which accesses shared memory, can be
/// left to a later op: `loop` only reads shared tiles, and the next op of
/// its block that touches shared memory is a loop that only reads them, or
/// there is none and the block is the body of a `serial` loop that
/// endsDeferredBarriers.
bool defersBarrier(mlir::tile::ParallelOp loop);

/// True if `loop`'s body touches shared memory only with `parallel` loops
/// that only read it (and at least one): their barriers wait for the end of
/// the loop, which must be followed by one.
bool endsDeferredBarriers(mlir::tile::SerialOp loop);

} // namespace tilec

#endif // TILEC_CODEGEN_CONVERSION_TILETOLLVM_SHAREDREADBARRIERS_H
