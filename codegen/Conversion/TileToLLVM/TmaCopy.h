//===- TmaCopy.h - Tile copies with the tensor memory accelerator -*- C++
//-*-===//
//
// The TMA form of `tile.copy` (a copy with an mbarrier, made by
// tile-pipeline-loops for the producer of a warp-specialized loop), emitted
// by WarpSpecialize.cpp and dispatched to by the copy lowering (Copy.cpp).
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

} // namespace tilec

#endif // TILEC_CODEGEN_CONVERSION_TILETOLLVM_TMACOPY_H
