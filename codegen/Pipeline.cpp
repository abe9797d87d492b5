//===- Pipeline.cpp - The code generator's pass pipelines ----------------===//

#include "codegen/Pipeline.h"

#include "codegen/Conversion/Passes.h"
#include "dialects/Tile/TileOps.h"
#include "passes/Passes.h"

#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tilec::populateTileGPUPipeline(OpPassManager &pm,
                                    const TileGPUPipelineOptions &options) {
  if (!options.arch.empty())
    pm.addPass(
        createTileSetTarget(TileSetTargetOptions{options.arch, options.ptx}));
  OpPassManager &kernels = pm.nest<tile::KernelOp>();
  kernels.addPass(createTileCheckCodegenSupport());
  kernels.addPass(createTileInferLayouts());
  kernels.addPass(
      createTilePipelineLoops(TilePipelineLoopsOptions{options.clusters}));
  kernels.addPass(createTileStageBroadcastLoads());
  kernels.addPass(createTilePlanReductions());
  kernels.addPass(createTileAllocateSharedMemory());
}

void tilec::populateTileToNVVMPipeline(
    OpPassManager &pm, const TileToNVVMPipelineOptions &options) {
  pm.addPass(createConvertTileToLLVM());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createTileLowerSCFToCF());
  pm.addPass(createTileConvertArithMathToNVVM(
      TileConvertArithMathToNVVMOptions{options.fastMath}));
  // NVVM ops without an LLVM intrinsic (wgmma.mma_async) become inline PTX.
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

namespace {
/// Command-line options of the `tile-gpu` pipeline.
struct TileGPUCommandLineOptions
    : public PassPipelineOptions<TileGPUCommandLineOptions> {
  Option<std::string> arch{
      *this, "arch",
      llvm::cl::desc("Target architecture to set (default: the module's "
                     "tile.target)"),
      llvm::cl::init("")};
  Option<unsigned> ptx{*this, "ptx",
                       llvm::cl::desc("PTX ISA version as two digits (0: the "
                                      "architecture's default)"),
                       llvm::cl::init(0)};
  Option<bool> clusters{
      *this, "clusters",
      llvm::cl::desc("Run warp-specialized launches in thread-block clusters "
                     "with TMA multicast where they qualify"),
      llvm::cl::init(false)};
};

/// Command-line options of the `tile-to-nvvm` pipeline.
struct TileToNVVMCommandLineOptions
    : public PassPipelineOptions<TileToNVVMCommandLineOptions> {
  Option<bool> fastMath{
      *this, "fast-math",
      llvm::cl::desc("Lower f32 transcendentals and division to PTX "
                     "approximations"),
      llvm::cl::init(false)};
};
} // namespace

void tilec::registerTilecPasses() {
  registerTilecTransformsPasses();
  registerTilecConversionPasses();
  PassPipelineRegistration<TileGPUCommandLineOptions>(
      "tile-gpu",
      "Check and lay out tile kernels for the module's target (phase 1)",
      [](OpPassManager &pm, const TileGPUCommandLineOptions &options) {
        populateTileGPUPipeline(pm,
                                {options.arch, options.ptx, options.clusters});
      });
  PassPipelineRegistration<TileToNVVMCommandLineOptions>(
      "tile-to-nvvm",
      "Lower laid-out tile kernels to LLVM/NVVM kernel functions (phase 2)",
      [](OpPassManager &pm, const TileToNVVMCommandLineOptions &options) {
        populateTileToNVVMPipeline(pm, {options.fastMath});
      });
}

void tilec::registerCodegenDialects(DialectRegistry &registry) {
  registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect, scf::SCFDialect,
                  cf::ControlFlowDialect, ub::UBDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}
