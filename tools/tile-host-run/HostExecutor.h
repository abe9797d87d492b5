//===- HostExecutor.h - JIT-compiles and runs a kernel's grid ---*- C++ -*-===//
//
// Compiles a HostModule with LLVM's ORC JIT for the machine tile-host-run
// runs on and calls it once per thread of the grid, block after block, the
// threads of a block as fibers of a BlockScheduler (which provides their
// barriers, warp operations and shared memory), with the special registers
// of the thread running.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEHOSTRUN_HOSTEXECUTOR_H
#define TILEC_TOOLS_TILEHOSTRUN_HOSTEXECUTOR_H

#include "BlockScheduler.h"
#include "HostLowering.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/Error.h"

#include <array>
#include <memory>
#include <string>

namespace tilehost {

class AccessChecker;
class HostArguments;

/// A JIT for the host, running one kernel.
class HostExecutor {
public:
  /// Sets up the JIT for the host.
  static llvm::Expected<std::unique_ptr<HostExecutor>> create();

  /// The data layout host modules must have.
  const llvm::DataLayout &getDataLayout() const { return jit->getDataLayout(); }
  /// The target triple host modules must have.
  const llvm::Triple &getTargetTriple() const { return jit->getTargetTriple(); }

  /// Compiles `host` (created in `context`) and runs every thread of
  /// `arguments`' grid on `arguments`, checking global accesses with a new
  /// AccessChecker that knows every tensor. Returns that checker. An
  /// executor runs one module: call this once.
  llvm::Expected<std::unique_ptr<AccessChecker>>
  run(HostModule host, std::unique_ptr<llvm::LLVMContext> context,
      HostArguments &arguments);

  /// Runs the threads of each block in `order` (a shuffle drawn from
  /// `seed`).
  void setThreadOrder(ThreadOrder order, uint64_t seed) {
    threadOrder = order;
    threadOrderSeed = seed;
  }

private:
  explicit HostExecutor(std::unique_ptr<llvm::orc::LLJIT> jit);

  std::unique_ptr<llvm::orc::LLJIT> jit;
  /// What the JIT reported while compiling (such as missing symbols).
  std::string jitErrors;
  std::array<uint32_t, kNumSpecialRegisters> specialRegisters{};
  ThreadOrder threadOrder = ThreadOrder::Forward;
  uint64_t threadOrderSeed = 0;
};

} // namespace tilehost

#endif // TILEC_TOOLS_TILEHOSTRUN_HOSTEXECUTOR_H
