//===- HostExecutor.cpp - JIT-compiles and runs a kernel's grid -----------===//

#include "HostExecutor.h"

#include "AccessChecker.h"
#include "BlockScheduler.h"
#include "HostArguments.h"
#include "HostFunctions.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"

using namespace tilehost;

llvm::Expected<std::unique_ptr<HostExecutor>> HostExecutor::create() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
      llvm::orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  return std::unique_ptr<HostExecutor>(new HostExecutor(std::move(*jit)));
}

HostExecutor::HostExecutor(std::unique_ptr<llvm::orc::LLJIT> jit)
    : jit(std::move(jit)) {
  // Keep the JIT's own reports for the error that follows them.
  this->jit->getExecutionSession().setErrorReporter([this](llvm::Error error) {
    jitErrors += llvm::toString(std::move(error)) + "; ";
  });
}

llvm::Expected<std::unique_ptr<AccessChecker>>
HostExecutor::run(HostModule host, std::unique_ptr<llvm::LLVMContext> context,
                  HostArguments &arguments) {
  auto checker = std::make_unique<AccessChecker>(specialRegisters);
  for (HostTensor &tensor : arguments.getTensors())
    checker->addTensor(tensor.name, formatTensorType(tensor), tensor.data.get(),
                       tensor.bytes, tensor.elementBytes);

  // The host side of the interface of HostLowering.h.
  llvm::orc::MangleAndInterner mangle(jit->getExecutionSession(),
                                      jit->getDataLayout());
  auto exported = [](auto *pointer) {
    return llvm::orc::ExecutorSymbolDef(
        llvm::orc::ExecutorAddr::fromPtr(pointer),
        llvm::JITSymbolFlags::Exported);
  };
  llvm::orc::SymbolMap symbols;
  symbols[mangle(kSpecialRegistersSymbol)] = exported(specialRegisters.data());
  symbols[mangle(kAccessCheckerSymbol)] = exported(checker.get());
  auto callable = [](llvm::orc::ExecutorAddr address) {
    return llvm::orc::ExecutorSymbolDef(address,
                                        llvm::JITSymbolFlags::Exported |
                                            llvm::JITSymbolFlags::Callable);
  };
  symbols[mangle(kAccessCheckSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&checkAccess));
  BlockScheduler scheduler(specialRegisters);
  scheduler.setThreadOrder(threadOrder, threadOrderSeed);
  symbols[mangle(kSchedulerSymbol)] = exported(&scheduler);
  symbols[mangle(kBarrierSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostBarrier));
  symbols[mangle(kShuffleSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostShuffle));
  symbols[mangle(kVoteSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostVote));
  symbols[mangle(kWarpSyncSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostSyncWarp));
  symbols[mangle(kLoadMatricesSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostLoadMatrices));
  symbols[mangle(kMmaSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostMultiplyAccumulate));
  symbols[mangle(kAsyncCopySymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostCopyAsync));
  symbols[mangle(kAsyncCommitSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostCommitAsyncCopies));
  symbols[mangle(kAsyncWaitSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostWaitAsyncCopies));
  symbols[mangle(kWgmmaSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostWarpgroupMma));
  symbols[mangle(kMBarrierInitSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostMBarrierInit));
  symbols[mangle(kMBarrierArriveSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostMBarrierArrive));
  symbols[mangle(kMBarrierWaitSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostMBarrierWait));
  symbols[mangle(kTensorLoadSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostLoadTensorBox));
  symbols[mangle(kTensorStoreSymbol)] =
      callable(llvm::orc::ExecutorAddr::fromPtr(&hostStoreTensorBox));
  scheduler.setAccessChecker(checker.get());
  if (!host.sharedMemory.empty())
    symbols[mangle(host.sharedMemory)] = exported(scheduler.getSharedMemory());
  for (const auto &[name, address] : host.libdevice)
    symbols[mangle(name)] = callable(address);
  for (const auto &[name, address] : getHostRuntimeHelpers())
    symbols[mangle(name)] = callable(address);
  llvm::orc::JITDylib &library = jit->getMainJITDylib();
  if (llvm::Error error =
          library.define(llvm::orc::absoluteSymbols(std::move(symbols))))
    return std::move(error);
  if (llvm::Error error = jit->addIRModule(llvm::orc::ThreadSafeModule(
          std::move(host.module), std::move(context))))
    return std::move(error);
  llvm::Expected<llvm::orc::ExecutorAddr> entry = jit->lookup(kEntrySymbol);
  if (!entry)
    return llvm::createStringError(jitErrors +
                                   llvm::toString(entry.takeError()));
  auto *run = entry->toPtr<void (*)(void **)>();

  llvm::Expected<std::vector<void *>> params = arguments.getKernelParams();
  if (!params)
    return params.takeError();
  const std::array<uint32_t, 3> &grid = arguments.getGrid();
  specialRegisters = {};
  specialRegisters[kNtidX] = arguments.getThreads();
  specialRegisters[kNtidY] = specialRegisters[kNtidZ] = 1;
  specialRegisters[kNctaidX] = grid[0];
  specialRegisters[kNctaidY] = grid[1];
  specialRegisters[kNctaidZ] = grid[2];
  for (uint32_t z = 0; z < grid[2]; ++z) {
    for (uint32_t y = 0; y < grid[1]; ++y) {
      for (uint32_t x = 0; x < grid[0]; ++x) {
        specialRegisters[kCtaidX] = x;
        specialRegisters[kCtaidY] = y;
        specialRegisters[kCtaidZ] = z;
        if (llvm::Error error = scheduler.runBlock(
                arguments.getThreads(), [&] { run(params->data()); }))
          return std::move(error);
      }
    }
  }
  return checker;
}
