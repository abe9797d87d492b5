//===- Pipeline.h - The code generator's pass pipelines ---------*- C++ -*-===//
//
// The code generator runs in two phases, each a reusable pipeline (CIRCT's
// firtool and Triton's ttgir stage are the models):
//
// 1. `tile-gpu`, target-aware, on tile IR: sets the module's #tile.target,
//    then per kernel checks that everything can be lowered and infers the
//    layouts of fragments and parallel loops, and places the shared tiles
//    in the kernel's shared-memory arena. Later: pipelining, before the
//    placement. Its result is still tile IR (`tilec --emit=tile-gpu`).
// 2. `tile-to-nvvm`: tile IR with layouts to `llvm.func`s of the LLVM and NVVM
//    dialects, ready for translation to LLVM IR.
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

/// Options of the tile-gpu phase.
struct TileGPUPipelineOptions {
  /// Target architecture set as the module's `tile.target`; empty to use the
  /// target the module already names.
  std::string arch;
  /// PTX ISA version as two digits; 0 for the architecture's default.
  unsigned ptx = 0;
  /// Let tile-pipeline-loops run warp-specialized launches in thread-block
  /// clusters with TMA multicast (its `clusters` option).
  bool clusters = false;
};

/// Appends the tile-gpu phase to `pm` (on a `builtin.module`):
///   tile-set-target (if options.arch is set), then per kernel
///   tile-check-codegen-support, tile-infer-layouts, tile-pipeline-loops,
///   tile-allocate-shared-memory.
void populateTileGPUPipeline(mlir::OpPassManager &pm,
                             const TileGPUPipelineOptions &options);

/// Options of the lowering to LLVM/NVVM.
struct TileToNVVMPipelineOptions {
  /// Lower f32 transcendentals and division to PTX approximations
  /// (tile-convert-arith-math-to-nvvm's `fast-math`; `tilec --fast-math`).
  bool fastMath = false;
};

/// Appends the lowering of the tile-gpu phase's result to LLVM/NVVM to `pm`
/// (on a `builtin.module`):
///   convert-tile-to-llvm, canonicalize, cse, tile-lower-scf-to-cf,
///   tile-convert-arith-math-to-nvvm, reconcile-unrealized-casts.
void populateTileToNVVMPipeline(mlir::OpPassManager &pm,
                                const TileToNVVMPipelineOptions &options = {});

/// Registers every tilec pass (tile-level transforms and conversions) and
/// the `tile-gpu` (options `arch`, `ptx`, `clusters`) and `tile-to-nvvm`
/// (option `fast-math`) pipelines with the global pass registry, for
/// `tile-opt`.
void registerTilecPasses();

/// Registers the dialects the lowering produces (LLVM, NVVM, SCF, CF, UB)
/// and their LLVM IR translations in `registry`, so that tools can parse,
/// print and translate lowered IR.
void registerCodegenDialects(mlir::DialectRegistry &registry);

} // namespace tilec

#endif // TILEC_CODEGEN_PIPELINE_H
