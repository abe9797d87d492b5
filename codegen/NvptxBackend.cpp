//===- NvptxBackend.cpp - LLVM IR to PTX with the NVPTX back end ----------===//

#include "codegen/NvptxBackend.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace tilec;

namespace {
constexpr const char *kNvptxTriple = "nvptx64-nvidia-cuda";

llvm::CodeGenOptLevel codeGenOptLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

/// Makes the NVPTX data layout use 32-bit pointers for shared (and const
/// and local) memory, as CUDA's own compilers do: shared-memory addresses
/// and their arithmetic then take one register instead of two. The NVPTX
/// back end offers this only as the command-line option `nvptx-short-ptr`,
/// read when a target machine is created.
void useSharedMemoryShortPointers() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto found = options.find("nvptx-short-ptr");
  if (found == options.end())
    return;
  static_cast<llvm::cl::opt<bool> *>(found->second)->setValue(true);
}

llvm::OptimizationLevel optimizationLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::OptimizationLevel::O0;
  case 1:
    return llvm::OptimizationLevel::O1;
  case 2:
    return llvm::OptimizationLevel::O2;
  default:
    return llvm::OptimizationLevel::O3;
  }
}
} // namespace

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
tilec::createNvptxTargetMachine(const GpuTarget &target, unsigned optLevel,
                                bool contractFloatOps) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    useSharedMemoryShortPointers();
  });

  llvm::Triple triple(kNvptxTriple);
  std::string error;
  const llvm::Target *nvptx = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!nvptx)
    return llvm::createStringError("NVPTX back end unavailable: " + error);
  llvm::TargetOptions options;
  if (contractFloatOps)
    options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  std::unique_ptr<llvm::TargetMachine> machine(nvptx->createTargetMachine(
      triple, target.arch, target.ptxFeature(), options, std::nullopt,
      std::nullopt, codeGenOptLevel(optLevel)));
  if (!machine)
    return llvm::createStringError(
        "cannot create the NVPTX target machine for " + target.arch);
  return machine;
}

void tilec::setModuleTarget(llvm::Module &module,
                            llvm::TargetMachine &machine) {
  module.setTargetTriple(machine.getTargetTriple());
  module.setDataLayout(machine.createDataLayout());
}

void tilec::optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                           unsigned optLevel) {
  llvm::LoopAnalysisManager loopAM;
  llvm::FunctionAnalysisManager functionAM;
  llvm::CGSCCAnalysisManager cgsccAM;
  llvm::ModuleAnalysisManager moduleAM;
  // Constructing the builder with the target machine registers the NVPTX
  // callbacks (NVVMReflect at pipeline start, target transform info).
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(moduleAM);
  builder.registerCGSCCAnalyses(cgsccAM);
  builder.registerFunctionAnalyses(functionAM);
  builder.registerLoopAnalyses(loopAM);
  builder.crossRegisterProxies(loopAM, functionAM, cgsccAM, moduleAM);

  llvm::OptimizationLevel level = optimizationLevel(optLevel);
  llvm::ModulePassManager passes =
      optLevel == 0 ? builder.buildO0DefaultPipeline(level)
                    : builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, moduleAM);
}

llvm::Expected<std::string> tilec::emitPtx(llvm::Module &module,
                                           llvm::TargetMachine &machine) {
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, os, nullptr,
                                  llvm::CodeGenFileType::AssemblyFile))
    return llvm::createStringError("the NVPTX target cannot emit PTX");
  passes.run(module);
  return std::string(ptx);
}
