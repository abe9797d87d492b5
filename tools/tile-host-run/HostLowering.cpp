//===- HostLowering.cpp - A tile kernel as host code ----------------------===//

#include "HostLowering.h"

#include "HostFunctions.h"

#include "codegen/Conversion/Passes.h"
#include "codegen/Pipeline.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilehost;

namespace {

/// Address space of global memory in NVVM.
constexpr unsigned kGlobalAddressSpace = 1;
/// The prefix of the special register intrinsics.
constexpr llvm::StringLiteral kSpecialRegisterPrefix =
    "llvm.nvvm.read.ptx.sreg.";

/// Appends the code generator's lowering from the tile dialect to LLVM/NVVM
/// to `pm`: the one place where tile-host-run follows tilec's pipeline.
void populateLowering(PassManager &pm, llvm::StringRef arch) {
  tilec::TileGPUPipelineOptions options;
  options.arch = arch.str();
  tilec::populateTileGPUPipeline(pm, options);
  tilec::populateTileToNVVMPipeline(pm);
}

/// Returns the SpecialRegister an intrinsic named `name` reads, if it is
/// one of `llvm.nvvm.read.ptx.sreg.{tid,ntid,ctaid,nctaid}.{x,y,z}`.
std::optional<unsigned> getSpecialRegister(llvm::StringRef name) {
  if (!name.consume_front(kSpecialRegisterPrefix))
    return std::nullopt;
  auto [kind, axis] = name.split('.');
  std::optional<unsigned> first =
      llvm::StringSwitch<std::optional<unsigned>>(kind)
          .Case("tid", kTidX)
          .Case("ntid", kNtidX)
          .Case("ctaid", kCtaidX)
          .Case("nctaid", kNctaidX)
          .Default(std::nullopt);
  std::optional<unsigned> offset =
      llvm::StringSwitch<std::optional<unsigned>>(axis)
          .Case("x", 0)
          .Case("y", 1)
          .Case("z", 2)
          .Default(std::nullopt);
  if (!first || !offset)
    return std::nullopt;
  return *first + *offset;
}

/// True if `type` is a pointer to global memory.
bool isGlobalPointer(llvm::Type *type) {
  auto *pointer = llvm::dyn_cast<llvm::PointerType>(type);
  return pointer && pointer->getAddressSpace() == kGlobalAddressSpace;
}

/// Rewrites the translated kernel into host code (see HostLowering.h).
class HostRewriter {
public:
  HostRewriter(llvm::Module &module, llvm::StringRef kernelName)
      : module(module), kernelName(kernelName) {}

  llvm::Error run(HostSymbols &libdevice);

private:
  llvm::Error replaceDeclarations(HostSymbols &libdevice);
  void replaceSpecialRegister(llvm::Function &intrinsic, unsigned index);
  llvm::Error checkGlobalAccesses(llvm::Function &kernel);
  void addEntry(llvm::Function &kernel);

  llvm::Module &module;
  llvm::StringRef kernelName;
  llvm::GlobalVariable *specialRegisters = nullptr;
};

llvm::Error HostRewriter::run(HostSymbols &libdevice) {
  llvm::Function *kernel = module.getFunction(kernelName);
  if (!kernel || kernel->isDeclaration())
    return llvm::createStringError("the lowered module does not define '" +
                                   kernelName.str() + "'");
  // NVVM's calling convention and attributes ("nvvm.maxntid") mean nothing
  // on the host.
  kernel->setCallingConv(llvm::CallingConv::C);
  llvm::AttributeList attributes = kernel->getAttributes();
  for (const llvm::Attribute &attribute : attributes.getFnAttrs())
    if (attribute.isStringAttribute() &&
        attribute.getKindAsString().starts_with("nvvm."))
      kernel->removeFnAttr(attribute.getKindAsString());

  if (llvm::Error error = replaceDeclarations(libdevice))
    return error;
  if (llvm::Error error = checkGlobalAccesses(*kernel))
    return error;
  addEntry(*kernel);
  return llvm::Error::success();
}

llvm::Error HostRewriter::replaceDeclarations(HostSymbols &libdevice) {
  for (llvm::Function &function : llvm::make_early_inc_range(module)) {
    if (!function.isDeclaration())
      continue;
    llvm::StringRef name = function.getName();
    if (std::optional<unsigned> index = getSpecialRegister(name)) {
      replaceSpecialRegister(function, *index);
      continue;
    }
    if (name.starts_with("llvm.nvvm."))
      return llvm::createStringError(
          "the kernel uses '" + name.str() +
          "', which needs a GPU (tile-host-run runs one thread at a time: "
          "barriers, warp shuffles and other NVVM intrinsics are not "
          "supported)");
    if (function.isIntrinsic())
      continue;
    if (!name.starts_with("__nv_"))
      return llvm::createStringError(
          "the kernel calls the external function '" + name.str() +
          "', which tile-host-run cannot provide");
    llvm::Expected<llvm::orc::ExecutorAddr> address =
        findHostLibdeviceFunction(name, function.getFunctionType());
    if (!address)
      return address.takeError();
    libdevice.emplace_back(name.str(), *address);
  }
  return llvm::Error::success();
}

void HostRewriter::replaceSpecialRegister(llvm::Function &intrinsic,
                                          unsigned index) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  if (!specialRegisters)
    specialRegisters = new llvm::GlobalVariable(
        module, llvm::ArrayType::get(i32, kNumSpecialRegisters),
        /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage,
        /*Initializer=*/nullptr, kSpecialRegistersSymbol);
  for (llvm::User *user : llvm::make_early_inc_range(intrinsic.users())) {
    auto *call = llvm::cast<llvm::CallInst>(user);
    llvm::IRBuilder<> builder(call);
    llvm::Value *address = builder.CreateConstInBoundsGEP2_32(
        specialRegisters->getValueType(), specialRegisters, 0, index);
    call->replaceAllUsesWith(builder.CreateLoad(i32, address));
    call->eraseFromParent();
  }
  intrinsic.eraseFromParent();
}

llvm::Error HostRewriter::checkGlobalAccesses(llvm::Function &kernel) {
  llvm::LLVMContext &context = module.getContext();
  const llvm::DataLayout &layout = module.getDataLayout();
  llvm::Type *global = llvm::PointerType::get(context, kGlobalAddressSpace);
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  llvm::Type *pointer = llvm::PointerType::get(context, 0);
  llvm::FunctionCallee check = module.getOrInsertFunction(
      kAccessCheckSymbol,
      llvm::FunctionType::get(global, {pointer, global, i64, i64, i32},
                              /*isVarArg=*/false));
  llvm::Constant *checker = module.getOrInsertGlobal(
      kAccessCheckerSymbol, llvm::Type::getInt8Ty(context));

  for (llvm::Instruction &instruction : llvm::instructions(kernel)) {
    auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
    auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
    if (!load && !store) {
      // Anything else touching global memory would escape the check.
      bool global = llvm::any_of(instruction.operands(), [](llvm::Use &use) {
        return isGlobalPointer(use->getType());
      });
      if (global && (instruction.mayReadOrWriteMemory() ||
                     llvm::isa<llvm::AddrSpaceCastInst>(instruction))) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << instruction;
        return llvm::createStringError(
            "the kernel accesses global memory with '" + text +
            "', which tile-host-run cannot check");
      }
      continue;
    }
    unsigned operand =
        load ? load->getPointerOperandIndex() : store->getPointerOperandIndex();
    llvm::Value *address = instruction.getOperand(operand);
    if (!isGlobalPointer(address->getType()))
      continue;
    llvm::Type *accessed =
        load ? load->getType() : store->getValueOperand()->getType();
    uint64_t bytes = layout.getTypeStoreSize(accessed);
    if (bytes > kMaxAccessBytes)
      return llvm::createStringError(
          "the kernel accesses " + std::to_string(bytes) +
          " bytes of global memory at once; tile-host-run checks accesses "
          "of at most " +
          std::to_string(kMaxAccessBytes));
    uint64_t alignment = (load ? load->getAlign() : store->getAlign()).value();
    llvm::IRBuilder<> builder(&instruction);
    llvm::Value *checked =
        builder.CreateCall(check, {checker, address, builder.getInt64(bytes),
                                   builder.getInt64(alignment),
                                   builder.getInt32(store != nullptr)});
    instruction.setOperand(operand, checked);
  }
  return llvm::Error::success();
}

void HostRewriter::addEntry(llvm::Function &kernel) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *pointer = llvm::PointerType::get(context, 0);
  auto *entry = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {pointer},
                              /*isVarArg=*/false),
      llvm::GlobalValue::ExternalLinkage, kEntrySymbol, module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "", entry));
  llvm::Value *args = entry->getArg(0);
  llvm::SmallVector<llvm::Value *> values;
  for (llvm::Argument &parameter : kernel.args()) {
    llvm::Value *slot =
        builder.CreateConstInBoundsGEP1_64(pointer, args, parameter.getArgNo());
    llvm::Value *value = builder.CreateLoad(pointer, slot);
    values.push_back(builder.CreateLoad(parameter.getType(), value));
  }
  builder.CreateCall(kernel.getFunctionType(), &kernel, values);
  builder.CreateRetVoid();
}

} // namespace

FailureOr<HostModule>
tilehost::lowerKernelForHost(tile::KernelOp kernel, llvm::LLVMContext &context,
                             const llvm::DataLayout &layout,
                             const llvm::Triple &triple) {
  Location loc = kernel.getLoc();
  MLIRContext *mlirContext = kernel.getContext();
  DialectRegistry registry;
  tilec::registerCodegenDialects(registry);
  mlirContext->appendDialectRegistry(registry);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  module->push_back(kernel->clone());

  // The elementwise code is the same for every architecture; the host run
  // checks sm_90a's.
  PassManager pm(mlirContext);
  populateLowering(pm, "sm_90a");
  if (failed(pm.run(*module)))
    return failure();
  (*module)->removeAttr(
      mlir::tile::TileDialect::CodegenCostAttrHelper::getNameStr());
  (*module)->removeAttr(
      mlir::tile::TileDialect::TargetAttrHelper::getNameStr());

  std::string name = kernel.getSymName().str();
  HostModule host;
  host.module = translateModuleToLLVMIR(*module, context, name);
  if (!host.module)
    return emitError(loc) << "cannot translate the lowered kernel to LLVM IR";
  host.module->setTargetTriple(triple);
  host.module->setDataLayout(layout);
  if (llvm::Error error = HostRewriter(*host.module, name).run(host.libdevice))
    return emitError(loc) << "cannot run kernel '" << name << "' on the host: "
                          << llvm::toString(std::move(error));
  return host;
}
