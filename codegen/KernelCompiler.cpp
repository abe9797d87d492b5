//===- KernelCompiler.cpp - tile kernel -> PTX, cubin and metadata --------===//

#include "codegen/KernelCompiler.h"

#include "codegen/Conversion/Passes.h"
#include "codegen/CudaToolkit.h"
#include "codegen/Libdevice.h"
#include "codegen/NvptxBackend.h"
#include "codegen/Occupancy.h"
#include "codegen/Pipeline.h"
#include "codegen/Ptxas.h"
#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/TileTarget.h"

#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace mlir;
using namespace tilec;

namespace {
/// What compiling a kernel costs besides the operations it is made of (see
/// KernelArtifacts::cost): about as much time as that many operations.
constexpr uint64_t kFixedCost = 1024;

/// Reports `error` at `loc` and returns failure.
LogicalResult report(Location loc, llvm::Error error) {
  emitError(loc) << llvm::toString(std::move(error));
  return failure();
}

/// The LLVM function attribute of `.minnctapersm`, the resident blocks the
/// registers must leave room for.
constexpr llvm::StringLiteral kMinBlocksAttr = "nvvm.minctasm";

/// Returns true if `kernel`, lowered to `function`, is assembled again for
/// more resident blocks (codegen/Occupancy.h): it is assembled and
/// optimized, has no tensor-core GEMM (whose schedule fixes its registers)
/// and no `.minnctapersm` of its own (a warp-specialized register split).
bool searchesResidentBlocks(tile::KernelOp kernel,
                            const llvm::Function &function,
                            const CodegenOptions &options) {
  if (!options.assemble || options.optLevel == 0 ||
      function.hasFnAttribute(kMinBlocksAttr))
    return false;
  return !kernel.walk([](tile::GemmOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
}

/// Prints `module` to `os` under a banner like MLIR's IR printer's.
void dumpLLVMIR(llvm::raw_ostream &os, const llvm::Module &module,
                llvm::StringRef stage) {
  os << "// -----// LLVM IR " << stage << " //----- //\n" << module << "\n";
}

/// Finds ptxas and checks that it accepts the PTX version of `target`.
FailureOr<std::pair<std::string, PtxasVersion>>
findPtxas(Location loc, const CodegenOptions &options,
          const GpuTarget &target) {
  llvm::Expected<std::string> path =
      findCudaTool("ptxas", options.ptxasPath, options.cudaPath);
  if (!path)
    return report(loc, path.takeError());
  llvm::Expected<PtxasVersion> version = queryPtxasVersion(*path);
  if (!version)
    return report(loc, version.takeError());
  PtxVersion accepted =
      maxPtxVersionForCudaRelease(version->major, version->minor);
  if (target.ptxVersion > accepted) {
    emitError(loc) << "ptxas " << version->text << " accepts PTX ISA up to "
                   << formatPtxVersion(accepted) << ", but " << target.arch
                   << " code would use PTX ISA "
                   << formatPtxVersion(target.ptxVersion)
                   << "; request a lower PTX version or use a newer CUDA "
                      "toolkit";
    return failure();
  }
  return std::make_pair(std::move(*path), std::move(*version));
}
} // namespace

FailureOr<KernelArtifacts> tilec::compileKernel(tile::KernelOp kernel,
                                                const CodegenOptions &options,
                                                const KernelSource &source) {
  Location loc = kernel.getLoc();
  if (options.optLevel > 3)
    return emitError(loc) << "optimization level must be 0 to 3, got "
                          << options.optLevel;
  llvm::Expected<GpuTarget> target =
      resolveGpuTarget(options.arch, options.ptxVersion);
  if (!target)
    return report(loc, target.takeError());

  std::string ptxasPath;
  PtxasVersion ptxasVersion;
  if (options.assemble && !options.stopAfterTileGPU) {
    auto ptxas = findPtxas(loc, options, *target);
    if (failed(ptxas))
      return failure();
    std::tie(ptxasPath, ptxasVersion) = std::move(*ptxas);
  }

  // Lower a copy, so that the caller's kernel serves every architecture.
  MLIRContext *context = kernel.getContext();
  DialectRegistry registry;
  registerCodegenDialects(registry);
  context->appendDialectRegistry(registry);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  module->push_back(kernel->clone());

  llvm::raw_ostream &dumpStream =
      options.irDumpStream ? *options.irDumpStream : llvm::errs();
  auto runPhase = [&](llvm::function_ref<void(PassManager &)> populate) {
    PassManager pm(context);
    if (options.printIRAfterAll)
      pm.enableIRPrinting(
          /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
          /*shouldPrintAfterPass=*/[](Pass *, Operation *) { return true; },
          /*printModuleScope=*/false, /*printAfterOnlyOnChange=*/false,
          /*printAfterOnlyOnFailure=*/false, dumpStream);
    populate(pm);
    return pm.run(*module);
  };

  KernelArtifacts artifacts;
  artifacts.kernelName = kernel.getSymName().str();
  artifacts.target = *target;
  tile::setTarget(*module, tile::TargetAttr::get(context, target->arch,
                                                 target->ptxVersion));
  if (failed(runPhase([&](PassManager &pm) {
        TileGPUPipelineOptions gpu;
        gpu.clusters = options.clusters;
        populateTileGPUPipeline(pm, gpu);
      })))
    return failure();
  if (options.keepTileGPU) {
    llvm::raw_string_ostream os(artifacts.tileGPU);
    module->print(os, OpPrintingFlags()
                          .enableDebugInfo(/*enable=*/true,
                                           /*prettyForm=*/false)
                          .printNameLocAsPrefix());
  }
  if (options.stopAfterTileGPU)
    return artifacts;
  // The tile-gpu phase decided what the metadata reports (the shared memory
  // of the launch); the lowering then replaces the kernel.
  FailureOr<nlohmann::ordered_json> metadata = describeKernel(
      *module->getOps<tile::KernelOp>().begin(), *target, source);
  if (failed(metadata))
    return failure();
  if (failed(runPhase([&](PassManager &pm) {
        populateTileToNVVMPipeline(pm, {options.fastMath});
      })))
    return failure();
  // Line tables from the locations: a DISubprogram per function, and
  // directives only (.file/.loc), no DWARF sections.
  if (options.lineInfo && failed(runPhase([](PassManager &pm) {
        LLVM::DIScopeForLLVMFuncOpPassOptions debugInfo;
        debugInfo.emissionKind = LLVM::DIEmissionKind::DebugDirectivesOnly;
        pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(debugInfo));
      })))
    return failure();

  StringRef costName = tile::TileDialect::CodegenCostAttrHelper::getNameStr();
  auto cost = (*module)->getAttrOfType<IntegerAttr>(costName);
  artifacts.cost = kFixedCost + (cost ? cost.getInt() : 0);
  (*module)->removeAttr(costName);
  (*module)->removeAttr(tile::TileDialect::TargetAttrHelper::getNameStr());

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext, artifacts.kernelName);
  if (!llvmModule)
    return emitError(loc) << "cannot translate the lowered kernel to LLVM IR";
  auto machine =
      createNvptxTargetMachine(*target, options.optLevel,
                               /*contractFloatOps=*/options.fastMath);
  if (!machine)
    return report(loc, machine.takeError());
  setModuleTarget(*llvmModule, **machine);
  if (options.printIRAfterAll)
    dumpLLVMIR(dumpStream, *llvmModule, "after translation");

  if (referencesLibdevice(*llvmModule)) {
    llvm::Expected<std::string> libdevice =
        findLibdevice(options.cudaPath, ptxasPath);
    if (!libdevice)
      return report(loc, libdevice.takeError());
    if (llvm::Error error = linkLibdevice(*llvmModule, *libdevice))
      return report(loc, std::move(error));
    if (options.printIRAfterAll)
      dumpLLVMIR(dumpStream, *llvmModule, "after linking libdevice");
  }

  optimizeModule(*llvmModule, **machine, options.optLevel);
  if (options.printIRAfterAll)
    dumpLLVMIR(dumpStream, *llvmModule,
               "after optimization (O" + std::to_string(options.optLevel) +
                   ")");
  llvm::raw_string_ostream irStream(artifacts.llvmIR);
  irStream << *llvmModule;

  // Kept unemitted (code generation changes the module) for assembling the
  // kernel again under a resident-block count.
  bool searchOccupancy = searchesResidentBlocks(
      kernel, *llvmModule->getFunction(artifacts.kernelName), options);
  std::unique_ptr<llvm::Module> unemitted =
      searchOccupancy ? llvm::CloneModule(*llvmModule) : nullptr;

  llvm::Expected<std::string> ptx = emitPtx(*llvmModule, **machine);
  if (!ptx)
    return report(loc, ptx.takeError());
  artifacts.ptx = std::move(*ptx);

  if (options.assemble) {
    auto assemble = [&](std::string ptx) -> llvm::Expected<AssembledKernel> {
      llvm::Expected<PtxasOutput> assembled =
          runPtxas(ptxasPath, ptx, *target, options.optLevel, options.lineInfo);
      if (!assembled)
        return assembled.takeError();
      llvm::StringMap<PtxasResources> report =
          parsePtxasReport(assembled->report);
      auto entry = report.find(artifacts.kernelName);
      if (entry == report.end())
        return llvm::createStringError(
            "ptxas reported no resource usage for '" + artifacts.kernelName +
            "':\n" + assembled->report);
      return AssembledKernel{std::move(ptx), std::move(assembled->cubin),
                             entry->second};
    };
    llvm::Expected<AssembledKernel> assembled = assemble(artifacts.ptx);
    if (!assembled)
      return report(loc, assembled.takeError());
    if (searchOccupancy) {
      auto assembleForBlocks =
          [&](unsigned blocks) -> llvm::Expected<AssembledKernel> {
        std::unique_ptr<llvm::Module> trial = llvm::CloneModule(*unemitted);
        trial->getFunction(artifacts.kernelName)
            ->addFnAttr(kMinBlocksAttr, std::to_string(blocks));
        llvm::Expected<std::string> trialPtx = emitPtx(*trial, **machine);
        if (!trialPtx)
          return trialPtx.takeError();
        llvm::Expected<AssembledKernel> trialKernel =
            assemble(std::move(*trialPtx));
        if (trialKernel)
          trialKernel->minBlocks = blocks;
        return trialKernel;
      };
      const nlohmann::ordered_json &launch = (*metadata)["launch"];
      llvm::Expected<std::optional<AssembledKernel>> raised =
          raiseResidentBlocks(*lookupTarget(target->arch),
                              launch["block"][0].get<unsigned>(),
                              launch["dynamic_smem"].get<std::int64_t>(),
                              *assembled, assembleForBlocks);
      if (!raised)
        return report(loc, raised.takeError());
      if (*raised) {
        *assembled = std::move(**raised);
        // The LLVM IR emitted is the one the kept PTX came from.
        unemitted->getFunction(artifacts.kernelName)
            ->addFnAttr(kMinBlocksAttr, std::to_string(assembled->minBlocks));
        artifacts.llvmIR.clear();
        llvm::raw_string_ostream(artifacts.llvmIR) << *unemitted;
      }
    }
    artifacts.ptx = std::move(assembled->ptx);
    artifacts.cubin = std::move(assembled->cubin);
    artifacts.ptxasVersion = ptxasVersion.text;
    artifacts.resources = std::move(assembled->resources);
    setPtxasResults(*metadata, artifacts.ptxasVersion, artifacts.resources);
  }
  artifacts.metadata = std::move(*metadata);
  return artifacts;
}

std::string tilec::formatResourceReport(const KernelArtifacts &artifacts) {
  const PtxasResources &used = artifacts.resources;
  const nlohmann::ordered_json &launch = artifacts.metadata["launch"];
  uint64_t dynamicSmem = launch["dynamic_smem"].get<uint64_t>();
  std::string grid;
  for (const nlohmann::ordered_json &extent : launch["grid"])
    grid += (grid.empty() ? "" : ", ") + extent.get<std::string>();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << artifacts.kernelName << " " << artifacts.target.arch << ": "
     << used.registers << " registers, " << used.spillStores
     << " B spill stores, " << used.spillLoads << " B spill loads, "
     << used.localBytes << " B stack, " << used.staticSmem + dynamicSmem
     << " B shared (" << used.staticSmem << " static + " << dynamicSmem
     << " dynamic), " << used.barriers << " barriers, grid (" << grid << ") x "
     << launch["block"][0].get<int64_t>() << " threads, "
     << getResidentBlocks(*lookupTarget(artifacts.target.arch),
                          {launch["block"][0].get<unsigned>(), used.registers,
                           static_cast<int64_t>(used.staticSmem + dynamicSmem)})
     << " resident blocks per multiprocessor";
  return text;
}
