//===- TensorCoreGemm.h - The tensor-core paths of tile.gemm ----*- C++ -*-===//
//
// `tile.gemm` has one lowering per tensor-core instruction family;
// tile-infer-layouts chose which by the accumulator's layout
// (passes/Layout/GemmRule.cpp): `#tile.mma<..., warpgroup = true>` takes
// wgmma, every other `#tile.mma` mma.sync.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_CONVERSION_TILETOLLVM_TENSORCOREGEMM_H
#define TILEC_CODEGEN_CONVERSION_TILETOLLVM_TENSORCOREGEMM_H

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"

namespace tilec {

/// Emits `gemm` with ldmatrix and mma.sync.m16n8k16 (MmaSync.cpp).
mlir::LogicalResult emitMmaSyncGemm(KernelLowering &lowering,
                                    mlir::tile::GemmOp gemm);

/// Emits `gemm` with wgmma.mma_async.m64nNk16 on shared-memory descriptors
/// (Wgmma.cpp).
mlir::LogicalResult emitWgmmaGemm(KernelLowering &lowering,
                                  mlir::tile::GemmOp gemm);

} // namespace tilec

#endif // TILEC_CODEGEN_CONVERSION_TILETOLLVM_TENSORCOREGEMM_H
