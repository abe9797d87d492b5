//===- Pipeline.cpp - The tile-to-NVVM pass pipeline ----------------------===//

#include "codegen/Pipeline.h"

#include "codegen/Conversion/Passes.h"
#include "dialects/Tile/TileOps.h"
#include "passes/Passes.h"

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

void tilec::populateTileToNVVMPipeline(
    OpPassManager &pm, const TileToNVVMPipelineOptions &options) {
  OpPassManager &kernels = pm.nest<tile::KernelOp>();
  kernels.addPass(createTileCheckCodegenSupport(
      TileCheckCodegenSupportOptions{options.arch}));
  kernels.addPass(createTileAssignThreadMapping());
  pm.addPass(createConvertTileToLLVM());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLowerSCFToCF());
  pm.addPass(createConvertStdToNVVM());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

namespace {
/// Command-line options of the `tile-to-nvvm` pipeline.
struct PipelineCommandLineOptions
    : public PassPipelineOptions<PipelineCommandLineOptions> {
  Option<std::string> arch{*this, "arch", llvm::cl::desc("Target architecture"),
                           llvm::cl::init("sm_90a")};
};
} // namespace

void tilec::registerTilecPasses() {
  registerTilecTransformsPasses();
  registerTilecConversionPasses();
  PassPipelineRegistration<PipelineCommandLineOptions>(
      "tile-to-nvvm", "Lower tile kernels to LLVM/NVVM kernel functions",
      [](OpPassManager &pm, const PipelineCommandLineOptions &options) {
        TileToNVVMPipelineOptions pipelineOptions;
        pipelineOptions.arch = options.arch;
        populateTileToNVVMPipeline(pm, pipelineOptions);
      });
}

void tilec::registerCodegenDialects(DialectRegistry &registry) {
  registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect, scf::SCFDialect,
                  cf::ControlFlowDialect, ub::UBDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}
