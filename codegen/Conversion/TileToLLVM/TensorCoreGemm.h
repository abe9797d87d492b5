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

/// The A registers (4 x i32) of the 16-row tile `m`, k columns `kBase`
/// (a multiple of 16), of a 16-bit fragment `a` laid out as an accumulator
/// with `nTiles` 8-column tiles per row: the registers of its tiles
/// (m, kBase/8) and (m, kBase/8 + 1) in pairs (rows g and g + 8 of the low,
/// then of the high k half). It is the A operand of mma.sync m16n8k16 and of
/// wgmma's RS form alike (../shared/design/TENSORCORES.md §1, §5).
llvm::SmallVector<mlir::Value>
packAccumulatorOperandA(KernelLowering &lowering, mlir::Location loc,
                        const PrivateBuffer &a, int64_t m, int64_t nTiles,
                        int64_t kBase);

/// Emits `gemm` with wgmma.mma_async.m64nNk16 on shared-memory descriptors
/// (SS), or with A from registers (RS) when A is a fragment (Wgmma.cpp).
mlir::LogicalResult emitWgmmaGemm(KernelLowering &lowering,
                                  mlir::tile::GemmOp gemm);

} // namespace tilec

#endif // TILEC_CODEGEN_CONVERSION_TILETOLLVM_TENSORCOREGEMM_H
