//===- HostLowering.cpp - A tile kernel as host code ----------------------===//

#include "HostLowering.h"

#include "BlockScheduler.h"
#include "HostFunctions.h"
#include "HostTensorMap.h"

#include "codegen/Conversion/Passes.h"
#include "codegen/Pipeline.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilehost;

namespace {

/// Address space of global memory in NVVM.
constexpr unsigned kGlobalAddressSpace = 1;
/// Address space of shared memory in NVVM.
constexpr unsigned kSharedAddressSpace = 3;
/// The inline PTX that reads the thread index (KernelLowering).
constexpr llvm::StringLiteral kThreadIndexAsm = "mov.u32 $0, %tid.x;";
/// The inline PTX of `math.tanh` under fast math (ArithMathToNVVM).
constexpr llvm::StringLiteral kTanhAsm = "tanh.approx.f32 $0, $1;";
/// The instruction of NVVM's inline `try_wait.parity` loop, whose operands
/// are the mbarrier ($0) and the parity ($1).
constexpr llvm::StringLiteral kMBarrierWaitAsm =
    "mbarrier.try_wait.parity.shared.b64 P1, [$0], $1, $2;";
/// The prefix of the special register intrinsics.
constexpr llvm::StringLiteral kSpecialRegisterPrefix =
    "llvm.nvvm.read.ptx.sreg.";

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

/// The libdevice function (bound to the host's, HostFunctions.h) that
/// computes exactly what the NVVM approximation `name` approximates, e.g.
/// `__nv_exp2f` for `llvm.nvvm.ex2.approx.ftz.f32`; empty for `rcp` (a
/// division) and for names that are not approximations.
std::optional<std::string> getExactFunction(llvm::StringRef name,
                                            bool isFloat) {
  if (!name.consume_front("llvm.nvvm."))
    return std::nullopt;
  auto [operation, rest] = name.split('.');
  if (!rest.starts_with("approx."))
    return std::nullopt;
  std::optional<llvm::StringRef> exact =
      llvm::StringSwitch<std::optional<llvm::StringRef>>(operation)
          .Case("ex2", "exp2")
          .Case("lg2", "log2")
          .Case("sqrt", "sqrt")
          .Case("rsqrt", "rsqrt")
          .Case("sin", "sin")
          .Case("cos", "cos")
          .Case("rcp", "")
          .Default(std::nullopt);
  if (!exact)
    return std::nullopt;
  if (exact->empty())
    return std::string();
  return "__nv_" + exact->str() + (isFloat ? "f" : "");
}

/// `text` on one line, its runs of white space made single spaces, cut to
/// about 40 characters.
std::string abbreviate(llvm::StringRef text) {
  constexpr size_t kMaxCharacters = 40;
  llvm::SmallVector<llvm::StringRef> words;
  llvm::SplitString(text, words);
  std::string line;
  for (llvm::StringRef word : words) {
    if (line.size() >= kMaxCharacters)
      return line + " ...";
    line += (line.empty() ? "" : " ") + word.str();
  }
  return line;
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

  llvm::Error run(HostModule &host);

private:
  llvm::Error rewriteInlineAssembly(llvm::Function &kernel);
  void rewriteIntrinsics();
  bool rewriteBarrier(llvm::Function &intrinsic);
  bool rewriteShuffle(llvm::Function &intrinsic);
  bool rewriteVote(llvm::Function &intrinsic);
  bool rewriteApproximation(llvm::Function &intrinsic);
  bool rewriteLoadMatrices(llvm::Function &intrinsic);
  bool rewriteMma(llvm::Function &intrinsic);
  bool rewriteAsyncCopy(llvm::Function &intrinsic);
  bool rewriteMBarrier(llvm::Function &intrinsic);
  bool rewriteTensorCopy(llvm::Function &intrinsic);
  /// The host call for the inline `wgmma.mma_async` statement `call` of
  /// `text`; returns the accumulators it gives back.
  llvm::Expected<llvm::Value *> rewriteWgmma(llvm::IRBuilder<> &builder,
                                             llvm::CallInst &call,
                                             llvm::StringRef text);
  /// The result of an inline statement whose outputs are its inputs, tied.
  llvm::Value *passThrough(llvm::IRBuilder<> &builder, llvm::CallInst &call);
  /// An array of `words` i32 at the start of the function of `call`, for
  /// the fragments passed to the scheduler.
  llvm::Value *wordsBuffer(llvm::CallInst &call, unsigned words);
  llvm::Error findSharedMemory(std::string &name);
  llvm::Error replaceDeclarations(HostSymbols &libdevice);
  void replaceSpecialRegister(llvm::Function &intrinsic, unsigned index);
  llvm::Value *loadSpecialRegister(llvm::IRBuilder<> &builder, unsigned index);
  /// Declares the scheduler function `symbol` (HostLowering.h), whose first
  /// parameter is the scheduler, and returns a call of it with `operands`.
  llvm::Value *callScheduler(llvm::IRBuilder<> &builder, llvm::StringRef symbol,
                             llvm::Type *result,
                             llvm::ArrayRef<llvm::Value *> operands);
  /// Replaces every call of `intrinsic` with what `rewrite` builds before
  /// it (null for a call without result), then erases the declaration.
  void replaceCalls(
      llvm::Function &intrinsic,
      llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &, llvm::CallInst &)>
          rewrite);
  llvm::Error checkGlobalAccesses(llvm::Function &kernel);
  void addEntry(llvm::Function &kernel);

  llvm::Module &module;
  llvm::StringRef kernelName;
  llvm::GlobalVariable *specialRegisters = nullptr;
  llvm::Constant *scheduler = nullptr;
};

llvm::Error HostRewriter::run(HostModule &host) {
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

  if (llvm::Error error = rewriteInlineAssembly(*kernel))
    return error;
  rewriteIntrinsics();
  if (llvm::Error error = findSharedMemory(host.sharedMemory))
    return error;
  if (llvm::Error error = replaceDeclarations(host.libdevice))
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
          "', which needs a GPU (tile-host-run runs barriers, warp "
          "shuffles, votes and sm_80's ldmatrix, mma.sync and cp.async; not "
          "sm_90's wgmma, TMA or mbarriers)");
    if (function.isIntrinsic() || name.starts_with("__tile_host_") ||
        name == "vprintf")
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

llvm::Value *HostRewriter::loadSpecialRegister(llvm::IRBuilder<> &builder,
                                               unsigned index) {
  llvm::Type *i32 = builder.getInt32Ty();
  if (!specialRegisters)
    specialRegisters = new llvm::GlobalVariable(
        module, llvm::ArrayType::get(i32, kNumSpecialRegisters),
        /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage,
        /*Initializer=*/nullptr, kSpecialRegistersSymbol);
  llvm::Value *address = builder.CreateConstInBoundsGEP2_32(
      specialRegisters->getValueType(), specialRegisters, 0, index);
  return builder.CreateLoad(i32, address);
}

void HostRewriter::replaceCalls(
    llvm::Function &intrinsic,
    llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &, llvm::CallInst &)>
        rewrite) {
  for (llvm::User *user : llvm::make_early_inc_range(intrinsic.users())) {
    auto *call = llvm::cast<llvm::CallInst>(user);
    llvm::IRBuilder<> builder(call);
    if (llvm::Value *replacement = rewrite(builder, *call))
      call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
  intrinsic.eraseFromParent();
}

void HostRewriter::replaceSpecialRegister(llvm::Function &intrinsic,
                                          unsigned index) {
  replaceCalls(intrinsic, [&](llvm::IRBuilder<> &builder, llvm::CallInst &) {
    return loadSpecialRegister(builder, index);
  });
}

llvm::Value *
HostRewriter::callScheduler(llvm::IRBuilder<> &builder, llvm::StringRef symbol,
                            llvm::Type *result,
                            llvm::ArrayRef<llvm::Value *> operands) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *pointer = llvm::PointerType::get(context, 0);
  if (!scheduler)
    scheduler = module.getOrInsertGlobal(kSchedulerSymbol,
                                         llvm::Type::getInt8Ty(context));
  llvm::SmallVector<llvm::Type *> types{pointer};
  llvm::SmallVector<llvm::Value *> arguments{scheduler};
  for (llvm::Value *operand : operands) {
    types.push_back(operand->getType());
    arguments.push_back(operand);
  }
  llvm::FunctionCallee callee = module.getOrInsertFunction(
      symbol, llvm::FunctionType::get(result, types, /*isVarArg=*/false));
  return builder.CreateCall(callee, arguments);
}

llvm::Error HostRewriter::rewriteInlineAssembly(llvm::Function &kernel) {
  for (llvm::Instruction &instruction :
       llvm::make_early_inc_range(llvm::instructions(kernel))) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
    if (!call || !call->isInlineAsm())
      continue;
    llvm::StringRef text =
        llvm::cast<llvm::InlineAsm>(call->getCalledOperand())->getAsmString();
    llvm::IRBuilder<> builder(call);
    llvm::Value *replacement;
    if (text == kThreadIndexAsm) {
      replacement = loadSpecialRegister(builder, kTidX);
    } else if (text == kTanhAsm) {
      llvm::FunctionCallee tanh = module.getOrInsertFunction(
          "__nv_tanhf", call->getType(), call->getType());
      replacement = builder.CreateCall(tanh, {call->getArgOperand(0)});
    } else if (text.empty() || text.starts_with("wgmma.fence.sync.aligned;") ||
               text.starts_with("wgmma.wait_group.sync.aligned")) {
      // Statements that pin the accumulator registers (Wgmma.cpp; beside
      // the one with the fence or the wait, empty ones): the registers go
      // through unchanged.
      replacement = passThrough(builder, *call);
    } else if (text.contains(kMBarrierWaitAsm)) {
      replacement =
          callScheduler(builder, kMBarrierWaitSymbol, builder.getVoidTy(),
                        {call->getArgOperand(0), call->getArgOperand(1)});
    } else if (text.contains("wgmma.mma_async")) {
      llvm::Expected<llvm::Value *> result = rewriteWgmma(builder, *call, text);
      if (!result)
        return result.takeError();
      replacement = *result;
    } else {
      return llvm::createStringError(
          "the kernel uses the inline PTX '" + abbreviate(text) +
          "', which needs a GPU (tile-host-run runs barriers, warp "
          "shuffles, votes, sm_80's ldmatrix, mma.sync and cp.async, sm_90's "
          "wgmma, TMA and mbarriers)");
    }
    if (!call->getType()->isVoidTy())
      call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
  return llvm::Error::success();
}

void HostRewriter::rewriteIntrinsics() {
  for (llvm::Function &function : llvm::make_early_inc_range(module)) {
    llvm::StringRef name = function.getName();
    if (!function.isDeclaration() || !name.starts_with("llvm.nvvm."))
      continue;
    if (name.starts_with("llvm.nvvm.membar.") ||
        name.starts_with("llvm.nvvm.fence.") ||
        name.starts_with("llvm.nvvm.setmaxnreg.") ||
        name.starts_with("llvm.nvvm.wgmma.") ||
        name == "llvm.nvvm.cp.async.bulk.commit.group" ||
        name.starts_with("llvm.nvvm.cp.async.bulk.wait.group")) {
      // Threads run one at a time and asynchronous operations complete
      // when issued: fences, register rebalancing and the groups of wgmma
      // and bulk copies have nothing to do.
      replaceCalls(function,
                   [](llvm::IRBuilder<> &, llvm::CallInst &) -> llvm::Value * {
                     return nullptr;
                   });
      continue;
    }
    if (rewriteBarrier(function) || rewriteShuffle(function) ||
        rewriteVote(function) || rewriteLoadMatrices(function) ||
        rewriteMma(function) || rewriteAsyncCopy(function) ||
        rewriteMBarrier(function) || rewriteTensorCopy(function))
      continue;
    rewriteApproximation(function);
  }
}

bool HostRewriter::rewriteBarrier(llvm::Function &intrinsic) {
  // llvm.nvvm.barrier.cta.{sync,arrive}[.aligned].{all,count}(id[, count])
  // and llvm.nvvm.bar.warp.sync(mask).
  llvm::StringRef name = intrinsic.getName();
  if (name == "llvm.nvvm.bar.warp.sync") {
    replaceCalls(
        intrinsic,
        [&](llvm::IRBuilder<> &builder, llvm::CallInst &call) -> llvm::Value * {
          callScheduler(builder, kWarpSyncSymbol, builder.getVoidTy(),
                        {call.getArgOperand(0)});
          return nullptr;
        });
    return true;
  }
  if (!name.consume_front("llvm.nvvm.barrier.cta."))
    return false;
  bool wait = name.consume_front("sync");
  if (!wait && !name.consume_front("arrive"))
    return false;
  name.consume_front(".aligned");
  bool counted = name == ".count";
  if (!counted && name != ".all")
    return false;
  replaceCalls(
      intrinsic,
      [&](llvm::IRBuilder<> &builder, llvm::CallInst &call) -> llvm::Value * {
        llvm::Value *count =
            counted ? call.getArgOperand(1) : builder.getInt32(0);
        callScheduler(builder, kBarrierSymbol, builder.getVoidTy(),
                      {call.getArgOperand(0), count, builder.getInt32(wait)});
        return nullptr;
      });
  return true;
}

bool HostRewriter::rewriteShuffle(llvm::Function &intrinsic) {
  // llvm.nvvm.shfl.sync.{up,down,bfly,idx}.{i32,f32}[p](mask, value, b, c)
  llvm::StringRef name = intrinsic.getName();
  if (!name.consume_front("llvm.nvvm.shfl.sync."))
    return false;
  auto [modeName, type] = name.split('.');
  std::optional<ShuffleMode> mode =
      llvm::StringSwitch<std::optional<ShuffleMode>>(modeName)
          .Case("up", ShuffleMode::Up)
          .Case("down", ShuffleMode::Down)
          .Case("bfly", ShuffleMode::Butterfly)
          .Case("idx", ShuffleMode::Index)
          .Default(std::nullopt);
  bool withPredicate = type.consume_back("p");
  if (!mode || (type != "i32" && type != "f32"))
    return false;
  replaceCalls(
      intrinsic,
      [&](llvm::IRBuilder<> &builder, llvm::CallInst &call) -> llvm::Value * {
        llvm::Value *value = call.getArgOperand(1);
        llvm::Type *valueType = value->getType();
        llvm::Value *result = callScheduler(
            builder, kShuffleSymbol, builder.getInt64Ty(),
            {builder.getInt32(uint32_t(*mode)), call.getArgOperand(0),
             builder.CreateBitCast(value, builder.getInt32Ty()),
             call.getArgOperand(2), call.getArgOperand(3)});
        llvm::Value *read = builder.CreateBitCast(
            builder.CreateTrunc(result, builder.getInt32Ty()), valueType);
        if (!withPredicate)
          return read;
        llvm::Value *inRange = builder.CreateTrunc(
            builder.CreateLShr(result, 32), builder.getInt1Ty());
        llvm::Value *pair = llvm::PoisonValue::get(call.getType());
        pair = builder.CreateInsertValue(pair, read, 0);
        return builder.CreateInsertValue(pair, inRange, 1);
      });
  return true;
}

bool HostRewriter::rewriteVote(llvm::Function &intrinsic) {
  // llvm.nvvm.vote.{all,any,uni,ballot}.sync(mask, predicate)
  llvm::StringRef name = intrinsic.getName();
  if (!name.consume_front("llvm.nvvm.vote.") || !name.consume_back(".sync"))
    return false;
  std::optional<VoteMode> mode =
      llvm::StringSwitch<std::optional<VoteMode>>(name)
          .Case("all", VoteMode::All)
          .Case("any", VoteMode::Any)
          .Case("uni", VoteMode::Uniform)
          .Case("ballot", VoteMode::Ballot)
          .Default(std::nullopt);
  if (!mode)
    return false;
  replaceCalls(
      intrinsic,
      [&](llvm::IRBuilder<> &builder, llvm::CallInst &call) -> llvm::Value * {
        llvm::Value *result = callScheduler(
            builder, kVoteSymbol, builder.getInt32Ty(),
            {builder.getInt32(uint32_t(*mode)), call.getArgOperand(0),
             builder.CreateZExt(call.getArgOperand(1), builder.getInt32Ty())});
        if (*mode == VoteMode::Ballot)
          return result;
        return builder.CreateICmpNE(result, builder.getInt32(0));
      });
  return true;
}

bool HostRewriter::rewriteApproximation(llvm::Function &intrinsic) {
  llvm::Type *type = intrinsic.getReturnType();
  if (!type->isFloatTy() && !type->isDoubleTy())
    return false;
  std::optional<std::string> exact =
      getExactFunction(intrinsic.getName(), type->isFloatTy());
  if (!exact)
    return false;
  replaceCalls(
      intrinsic,
      [&](llvm::IRBuilder<> &builder, llvm::CallInst &call) -> llvm::Value * {
        llvm::Value *operand = call.getArgOperand(0);
        if (exact->empty())
          return builder.CreateFDiv(llvm::ConstantFP::get(type, 1.0), operand);
        llvm::FunctionCallee function =
            module.getOrInsertFunction(*exact, type, type);
        return builder.CreateCall(function, {operand});
      });
  return true;
}

llvm::Value *HostRewriter::wordsBuffer(llvm::CallInst &call, unsigned words) {
  llvm::BasicBlock &entry = call.getFunction()->getEntryBlock();
  llvm::IRBuilder<> builder(&entry, entry.begin());
  return builder.CreateAlloca(
      llvm::ArrayType::get(builder.getInt32Ty(), words));
}

bool HostRewriter::rewriteLoadMatrices(llvm::Function &intrinsic) {
  // llvm.nvvm.ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].b16[.p3](address)
  llvm::StringRef name = intrinsic.getName();
  if (!name.consume_front("llvm.nvvm.ldmatrix.sync.aligned.m8n8.x"))
    return false;
  uint32_t count;
  if (name.consumeInteger(10, count) ||
      (count != 1 && count != 2 && count != 4))
    return false;
  bool transpose = name.consume_front(".trans");
  if (!name.consume_front(".b16") || (!name.empty() && name != ".p3"))
    return false;
  replaceCalls(
      intrinsic,
      [&](llvm::IRBuilder<> &builder, llvm::CallInst &call) -> llvm::Value * {
        llvm::Value *registers = wordsBuffer(call, count);
        callScheduler(builder, kLoadMatricesSymbol, builder.getVoidTy(),
                      {builder.getInt32(count), builder.getInt32(transpose),
                       call.getArgOperand(0), registers});
        llvm::Type *i32 = builder.getInt32Ty();
        auto load = [&](unsigned index) {
          return builder.CreateLoad(
              i32, builder.CreateConstInBoundsGEP1_32(i32, registers, index));
        };
        if (!call.getType()->isStructTy())
          return load(0);
        llvm::Value *result = llvm::PoisonValue::get(call.getType());
        for (unsigned index = 0; index < count; ++index)
          result = builder.CreateInsertValue(result, load(index), index);
        return result;
      });
  return true;
}

bool HostRewriter::rewriteMma(llvm::Function &intrinsic) {
  // llvm.nvvm.mma.m16n8k16.row.col.{f32.f32,f16.f16,bf16}(a0-a3, b0-b1,
  // c...): f16 pairs as <2 x half>, bf16 pairs as i32.
  llvm::StringRef name = intrinsic.getName();
  if (!name.consume_front("llvm.nvvm.mma.m16n8k16.row.col."))
    return false;
  std::optional<MmaKind> kind = llvm::StringSwitch<std::optional<MmaKind>>(name)
                                    .Case("f32.f32", MmaKind::F16F32)
                                    .Case("f16.f16", MmaKind::F16F16)
                                    .Case("bf16", MmaKind::BF16F32)
                                    .Default(std::nullopt);
  if (!kind)
    return false;
  replaceCalls(
      intrinsic,
      [&](llvm::IRBuilder<> &builder, llvm::CallInst &call) -> llvm::Value * {
        llvm::Type *i32 = builder.getInt32Ty();
        unsigned numOperands = call.arg_size();
        llvm::Value *operands =
            wordsBuffer(call, kMmaAWords + kMmaBWords + kMmaCWords);
        llvm::Value *result = wordsBuffer(call, kMmaCWords);
        for (unsigned index = 0; index < numOperands; ++index)
          builder.CreateStore(
              builder.CreateBitCast(call.getArgOperand(index), i32),
              builder.CreateConstInBoundsGEP1_32(i32, operands, index));
        callScheduler(builder, kMmaSymbol, builder.getVoidTy(),
                      {builder.getInt32(uint32_t(*kind)), operands, result});
        auto *type = llvm::cast<llvm::StructType>(call.getType());
        llvm::Value *value = llvm::PoisonValue::get(type);
        for (unsigned index = 0; index < type->getNumElements(); ++index) {
          llvm::Value *word = builder.CreateLoad(
              i32, builder.CreateConstInBoundsGEP1_32(i32, result, index));
          value = builder.CreateInsertValue(
              value, builder.CreateBitCast(word, type->getElementType(index)),
              index);
        }
        return value;
      });
  return true;
}

bool HostRewriter::rewriteAsyncCopy(llvm::Function &intrinsic) {
  // llvm.nvvm.cp.async.{ca,cg}.shared.global.{4,8,16}[.s](target, source
  // [, source bytes]), llvm.nvvm.cp.async.commit.group(),
  // llvm.nvvm.cp.async.wait.group(pending), llvm.nvvm.cp.async.wait.all().
  llvm::StringRef name = intrinsic.getName();
  if (!name.consume_front("llvm.nvvm.cp.async."))
    return false;
  if (name == "commit.group" || name == "wait.group" || name == "wait.all") {
    replaceCalls(
        intrinsic,
        [&](llvm::IRBuilder<> &builder, llvm::CallInst &call) -> llvm::Value * {
          if (name != "wait.group")
            callScheduler(builder, kAsyncCommitSymbol, builder.getVoidTy(), {});
          if (name != "commit.group")
            callScheduler(builder, kAsyncWaitSymbol, builder.getVoidTy(),
                          {name == "wait.all" ? builder.getInt32(0)
                                              : call.getArgOperand(0)});
          return nullptr;
        });
    return true;
  }
  if (!name.consume_front("ca.shared.global.") &&
      !name.consume_front("cg.shared.global."))
    return false;
  uint32_t bytes;
  if (name.consumeInteger(10, bytes) ||
      (bytes != 4 && bytes != 8 && bytes != 16))
    return false;
  bool sized = name == ".s";
  if (!sized && !name.empty())
    return false;
  replaceCalls(
      intrinsic,
      [&](llvm::IRBuilder<> &builder, llvm::CallInst &call) -> llvm::Value * {
        llvm::Value *sourceBytes =
            sized ? call.getArgOperand(2) : builder.getInt32(bytes);
        callScheduler(builder, kAsyncCopySymbol, builder.getVoidTy(),
                      {call.getArgOperand(0), call.getArgOperand(1),
                       builder.getInt32(bytes), sourceBytes});
        return nullptr;
      });
  return true;
}

llvm::Value *HostRewriter::passThrough(llvm::IRBuilder<> &builder,
                                       llvm::CallInst &call) {
  llvm::Type *type = call.getType();
  if (type->isVoidTy())
    return nullptr;
  if (!type->isStructTy())
    return call.getArgOperand(0);
  llvm::Value *result = llvm::PoisonValue::get(type);
  for (unsigned index = 0; index < type->getStructNumElements(); ++index)
    result =
        builder.CreateInsertValue(result, call.getArgOperand(index), index);
  return result;
}

llvm::Expected<llvm::Value *>
HostRewriter::rewriteWgmma(llvm::IRBuilder<> &builder, llvm::CallInst &call,
                           llvm::StringRef text) {
  // wgmma.mma_async.sync.aligned.m64nNk16.D.A.B {d...}, A, descB, p, sA, sB
  // [, tA], tB; with A a descriptor (SS) or {a0..a3} (RS). The operands:
  // the accumulators (tied), A (one i64 or four i32), descB, the scale-d
  // flag, sA, sB, [tA,] tB.
  auto unsupported = [&] {
    return llvm::createStringError("the kernel uses the inline PTX '" +
                                   abbreviate(text) +
                                   "', a wgmma form tile-host-run does not "
                                   "run (it runs m64nNk16 of f16 and bf16)");
  };
  llvm::StringRef rest = text.substr(text.find("wgmma.mma_async"));
  if (!rest.consume_front("wgmma.mma_async.sync.aligned.m64n"))
    return unsupported();
  uint32_t n;
  if (rest.consumeInteger(10, n) || !rest.consume_front("k16.") || n % 8 ||
      n > 256)
    return unsupported();
  std::optional<MmaKind> kind;
  if (rest.starts_with("f32.f16.f16 "))
    kind = MmaKind::F16F32;
  else if (rest.starts_with("f16.f16.f16 "))
    kind = MmaKind::F16F16;
  else if (rest.starts_with("f32.bf16.bf16 "))
    kind = MmaKind::BF16F32;
  if (!kind)
    return unsupported();
  unsigned accumulators = *kind == MmaKind::F16F16 ? n / 4 : n / 2;
  llvm::Type *i32 = builder.getInt32Ty();
  unsigned operand = accumulators;
  bool registerA = call.getArgOperand(operand)->getType()->isIntegerTy(32);
  unsigned expected = accumulators + (registerA ? 4 + 1 + 4 : 1 + 1 + 5);
  if (call.arg_size() != expected)
    return unsupported();

  llvm::Value *words = wordsBuffer(call, accumulators);
  for (unsigned index = 0; index < accumulators; ++index)
    builder.CreateStore(builder.CreateBitCast(call.getArgOperand(index), i32),
                        builder.CreateConstInBoundsGEP1_32(i32, words, index));
  llvm::Value *aRegisters = llvm::ConstantPointerNull::get(builder.getPtrTy());
  llvm::Value *descriptorA = builder.getInt64(0);
  if (registerA) {
    aRegisters = wordsBuffer(call, 4);
    for (unsigned index = 0; index < 4; ++index)
      builder.CreateStore(
          call.getArgOperand(operand + index),
          builder.CreateConstInBoundsGEP1_32(i32, aRegisters, index));
    operand += 4;
  } else {
    descriptorA = call.getArgOperand(operand++);
  }
  llvm::Value *descriptorB = call.getArgOperand(operand++);
  llvm::Value *accumulate = call.getArgOperand(operand++);
  llvm::Value *scaleA = call.getArgOperand(operand++);
  llvm::Value *scaleB = call.getArgOperand(operand++);
  llvm::Value *transposeA =
      registerA ? builder.getInt32(0) : call.getArgOperand(operand++);
  llvm::Value *transposeB = call.getArgOperand(operand++);
  callScheduler(builder, kWgmmaSymbol, builder.getVoidTy(),
                {builder.getInt32(n), builder.getInt32(uint32_t(*kind)), words,
                 aRegisters, descriptorA, descriptorB, accumulate, scaleA,
                 scaleB, transposeA, transposeB});
  auto *type = llvm::cast<llvm::StructType>(call.getType());
  llvm::Value *result = llvm::PoisonValue::get(type);
  for (unsigned index = 0; index < accumulators; ++index) {
    llvm::Value *word = builder.CreateLoad(
        i32, builder.CreateConstInBoundsGEP1_32(i32, words, index));
    result = builder.CreateInsertValue(
        result, builder.CreateBitCast(word, type->getElementType(index)),
        index);
  }
  return result;
}

bool HostRewriter::rewriteMBarrier(llvm::Function &intrinsic) {
  // llvm.nvvm.mbarrier.init.shared(address, count),
  // llvm.nvvm.mbarrier.arrive.shared(address) and
  // llvm.nvvm.mbarrier.arrive.expect.tx.*(address, bytes).
  llvm::StringRef name = intrinsic.getName();
  if (name == "llvm.nvvm.mbarrier.init.shared") {
    replaceCalls(
        intrinsic,
        [&](llvm::IRBuilder<> &builder, llvm::CallInst &call) -> llvm::Value * {
          callScheduler(builder, kMBarrierInitSymbol, builder.getVoidTy(),
                        {call.getArgOperand(0), call.getArgOperand(1)});
          return nullptr;
        });
    return true;
  }
  bool expectTx = name.starts_with("llvm.nvvm.mbarrier.arrive.expect.tx.");
  if (!expectTx && name != "llvm.nvvm.mbarrier.arrive.shared")
    return false;
  replaceCalls(
      intrinsic,
      [&](llvm::IRBuilder<> &builder, llvm::CallInst &call) -> llvm::Value * {
        llvm::Value *bytes =
            expectTx ? call.getArgOperand(1) : builder.getInt32(0);
        return callScheduler(builder, kMBarrierArriveSymbol,
                             builder.getInt64Ty(),
                             {call.getArgOperand(0), bytes});
      });
  return true;
}

bool HostRewriter::rewriteTensorCopy(llvm::Function &intrinsic) {
  // llvm.nvvm.cp.async.bulk.tensor.g2s.tile.Nd(target, mbarrier, map,
  // coordinates..., multicast, cache hint, flags...) and
  // llvm.nvvm.cp.async.bulk.tensor.s2g.tile.Nd(source, map,
  // coordinates..., cache hint, flag).
  llvm::StringRef name = intrinsic.getName();
  if (!name.consume_front("llvm.nvvm.cp.async.bulk.tensor."))
    return false;
  bool load = name.consume_front("g2s.tile.");
  if (!load && !name.consume_front("s2g.tile."))
    return false;
  uint32_t rank;
  if (name.consumeInteger(10, rank) || name != "d" || rank < 1 ||
      rank > kMaxTensorMapRank)
    return false;
  replaceCalls(
      intrinsic,
      [&](llvm::IRBuilder<> &builder, llvm::CallInst &call) -> llvm::Value * {
        unsigned first = load ? 3 : 2;
        llvm::Value *coordinates = wordsBuffer(call, rank);
        for (uint32_t d = 0; d < rank; ++d)
          builder.CreateStore(call.getArgOperand(first + d),
                              builder.CreateConstInBoundsGEP1_32(
                                  builder.getInt32Ty(), coordinates, d));
        if (load)
          callScheduler(builder, kTensorLoadSymbol, builder.getVoidTy(),
                        {call.getArgOperand(0), call.getArgOperand(1),
                         call.getArgOperand(2), coordinates,
                         builder.getInt32(rank)});
        else
          callScheduler(builder, kTensorStoreSymbol, builder.getVoidTy(),
                        {call.getArgOperand(0), call.getArgOperand(1),
                         coordinates, builder.getInt32(rank)});
        return nullptr;
      });
  return true;
}

llvm::Error HostRewriter::findSharedMemory(std::string &name) {
  for (llvm::GlobalVariable &global : module.globals()) {
    if (global.getAddressSpace() != kSharedAddressSpace)
      continue;
    if (!global.isDeclaration() || !name.empty())
      return llvm::createStringError(
          "the kernel's shared memory is not one external arena ('" +
          global.getName().str() + "'), which tile-host-run expects");
    name = global.getName().str();
  }
  return llvm::Error::success();
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
      // The scheduler checks the global reads of cp.async itself.
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
        if (llvm::Function *callee = call->getCalledFunction())
          if (callee->getName() == kAsyncCopySymbol)
            continue;
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
    // A byval parameter (a tensor map) is its bytes' address.
    values.push_back(parameter.hasByValAttr()
                         ? value
                         : builder.CreateLoad(parameter.getType(), value));
  }
  llvm::CallInst *call =
      builder.CreateCall(kernel.getFunctionType(), &kernel, values);
  // The call passes a byval parameter's bytes as the kernel expects them.
  for (llvm::Argument &parameter : kernel.args()) {
    if (!parameter.hasByValAttr())
      continue;
    unsigned index = parameter.getArgNo();
    call->addParamAttr(index,
                       kernel.getParamAttribute(index, llvm::Attribute::ByVal));
    if (llvm::MaybeAlign alignment = parameter.getParamAlign())
      call->addParamAttr(
          index, llvm::Attribute::getWithAlignment(context, *alignment));
  }
  builder.CreateRetVoid();
}

} // namespace

FailureOr<HostModule>
tilehost::lowerKernelForHost(tile::KernelOp kernel, llvm::LLVMContext &context,
                             const llvm::DataLayout &layout,
                             const llvm::Triple &triple,
                             const tilec::GpuTarget &target,
                             const tilec::KernelSource &source, bool fastMath) {
  Location loc = kernel.getLoc();
  MLIRContext *mlirContext = kernel.getContext();
  DialectRegistry registry;
  tilec::registerCodegenDialects(registry);
  mlirContext->appendDialectRegistry(registry);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  module->push_back(kernel->clone());

  // tilec's phases (KernelCompiler): tile-gpu, the metadata of its
  // result, then the lowering to LLVM/NVVM.
  HostModule host;
  PassManager gpu(mlirContext);
  tilec::TileGPUPipelineOptions options;
  options.arch = target.arch;
  tilec::populateTileGPUPipeline(gpu, options);
  if (failed(gpu.run(*module)))
    return failure();
  FailureOr<nlohmann::ordered_json> metadata = tilec::describeKernel(
      *module->getOps<tile::KernelOp>().begin(), target, source);
  if (failed(metadata))
    return failure();
  host.metadata = std::move(*metadata);
  PassManager pm(mlirContext);
  tilec::populateTileToNVVMPipeline(pm, {fastMath});
  if (failed(pm.run(*module)))
    return failure();
  (*module)->removeAttr(
      mlir::tile::TileDialect::CodegenCostAttrHelper::getNameStr());
  (*module)->removeAttr(
      mlir::tile::TileDialect::TargetAttrHelper::getNameStr());

  std::string name = kernel.getSymName().str();
  host.module = translateModuleToLLVMIR(*module, context, name);
  if (!host.module)
    return emitError(loc) << "cannot translate the lowered kernel to LLVM IR";
  host.module->setTargetTriple(triple);
  host.module->setDataLayout(layout);
  if (llvm::Error error = HostRewriter(*host.module, name).run(host))
    return emitError(loc) << "cannot run kernel '" << name << "' on the host: "
                          << llvm::toString(std::move(error));
  return host;
}
