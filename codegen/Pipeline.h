//===- Pipeline.h - The tile-to-NVVM pass pipeline --------------*- C++ -*-===//
//
// The lowering from the `tile` dialect to LLVM/NVVM as a reusable pipeline,
// and the registration hooks for `tile-opt` and `tilec`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_PIPELINE_H
#define TILEC_CODEGEN_PIPELINE_H

#include <string>

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace tilec {

/// Options of the tile-to-NVVM pipeline.
struct TileToNVVMPipelineOptions {
  /// Target architecture; only named in diagnostics so far.
  std::string arch = "sm_90a";
};

/// Appends the lowering of every `tile.kernel` of a module to LLVM/NVVM
/// (`llvm.func`s ready for translation to LLVM IR) to `pm`, which must run on
/// a `builtin.module`:
///   tile-check-codegen-support, tile-assign-thread-mapping (per kernel),
///   convert-tile-to-llvm, canonicalize, cse, convert-scf-to-cf,
///   convert-std-to-nvvm, reconcile-unrealized-casts.
void populateTileToNVVMPipeline(mlir::OpPassManager &pm,
                                const TileToNVVMPipelineOptions &options);

/// Registers every tilec pass (tile-level transforms and conversions) and
/// the `tile-to-nvvm` pipeline (option `arch`) with the global pass
/// registry, for `tile-opt`.
void registerTilecPasses();

/// Registers the dialects the lowering produces (LLVM, NVVM, SCF, CF, UB)
/// and their LLVM IR translations in `registry`, so that tools can parse,
/// print and translate lowered IR.
void registerCodegenDialects(mlir::DialectRegistry &registry);

} // namespace tilec

#endif // TILEC_CODEGEN_PIPELINE_H
