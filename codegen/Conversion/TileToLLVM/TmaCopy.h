//===- TmaCopy.h - Tile copies with the tensor memory accelerator -*- C++
//-*-===//
//
// The TMA forms of `tile.copy`, made by tile-pipeline-loops for a
// warp-specialized loop, which the copy lowering (Copy.cpp) dispatches to:
// the producer's loads (a copy with an mbarrier, WarpSpecialize.cpp) and the
// consumers' epilogue stores (a copy with a staging tile, TmaStore.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_CONVERSION_TILETOLLVM_TMACOPY_H
#define TILEC_CODEGEN_CONVERSION_TILETOLLVM_TMACOPY_H

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"

namespace tilec {

/// Emits the TMA copy `copy` (it has a barrier) for the one thread that
/// runs it: expect its bytes on the barrier, arrive, and start one
/// `cp.async.bulk.tensor` per column panel of the target tile.
mlir::LogicalResult emitTmaCopy(KernelLowering &lowering,
                                mlir::tile::CopyOp copy, Lane &lane);

/// Emits the TMA store `copy` (it has a staging tile) for every consumer
/// thread: band by band, the fragment's elements into the staging tile and
/// one `cp.async.bulk.tensor` store per column panel of it (TmaStore.cpp).
mlir::LogicalResult emitTmaStore(KernelLowering &lowering,
                                 mlir::tile::CopyOp copy, Lane &lane);

} // namespace tilec

#endif // TILEC_CODEGEN_CONVERSION_TILETOLLVM_TMACOPY_H
