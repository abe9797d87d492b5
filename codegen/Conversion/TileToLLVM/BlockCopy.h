//===- BlockCopy.h - Copies shared by the block's threads -------*- C++ -*-===//
//
// The forms of `tile.copy` between global tensors and shared tiles, and
// between shared tiles, that the GEMM path's copies (Copy.cpp) do not take,
// and the copies to and from local buffers: the copy lowering dispatches
// them here (BlockCopy.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_CONVERSION_TILETOLLVM_BLOCKCOPY_H
#define TILEC_CODEGEN_CONVERSION_TILETOLLVM_BLOCKCOPY_H

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"

namespace tilec {

/// True for a copy that emitBlockCopy lowers: from a global tensor region
/// into a shared tile (region), from a shared tile (region) into a global
/// tensor region or another shared tile (region), and between a local
/// buffer (region) and a global tensor region, a shared tile (region) or
/// another local buffer (region), with equal element types or two float
/// types.
bool isBlockCopy(mlir::tile::CopyOp copy);

/// Emits `copy` (isBlockCopy) for the block's threads, which share the
/// region's elements in row-major order: out-of-bounds reads (outside the
/// tensor, or outside an indexed shared tile) give 0 and out-of-bounds
/// writes are dropped. Where the region's rows are whole 16-byte chunks, the
/// shared operands whole tiles whose layout keeps those chunks contiguous,
/// and the tensor aligned for them, the threads move whole chunks when the
/// tensor's rows and the region's first column are multiples of a chunk at
/// run time, and elements otherwise. Barriers fence the copy on both sides
/// where it reads or writes a shared tile. A copy with a local buffer is
/// made by every thread for its own buffer, element by element over the
/// whole region (unrolled up to kMaxUnrolledFill elements, so that the
/// buffer may stay in registers).
mlir::LogicalResult emitBlockCopy(KernelLowering &lowering,
                                  mlir::tile::CopyOp copy, Lane &lane);

} // namespace tilec

#endif // TILEC_CODEGEN_CONVERSION_TILETOLLVM_BLOCKCOPY_H
