//===- HostLowering.h - A tile kernel as host code --------------*- C++ -*-===//
//
// Compiles a `tile.kernel` exactly as tilec does up to the LLVM IR of the
// kernel (the tile-gpu and tile-to-nvvm phases, then translation; before
// libdevice is linked and before any NVPTX optimization) and rewrites that
// per-thread NVVM kernel into host code that tile-host-run can JIT and call
// once per thread:
//
// * reads of the special registers `tid`, `ntid`, `ctaid` and `nctaid` load
//   from the host array kSpecialRegistersSymbol (SpecialRegister order);
// * every load and store of global memory first calls kAccessCheckSymbol,
//   which checks the access against the tensors and returns the address to
//   use;
// * libdevice declarations are bound to host functions (HostFunctions.h);
// * NVVM's calling convention and attributes go, the module gets the host's
//   triple and data layout;
// * kEntrySymbol, `void (void **args)`, calls the kernel with the values
//   `args[i]` points to (CUDA's kernelParams convention).
//
// Kernels that need more than one thread at a time (barriers, warp
// shuffles, any other NVVM intrinsic) are rejected.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEHOSTRUN_HOSTLOWERING_H
#define TILEC_TOOLS_TILEHOSTRUN_HOSTLOWERING_H

#include "HostFunctions.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>

namespace llvm {
class DataLayout;
class LLVMContext;
class Module;
class Triple;
} // namespace llvm

namespace mlir::tile {
class KernelOp;
} // namespace mlir::tile

namespace tilehost {

/// `void (void **args)`: runs the kernel for one thread.
constexpr llvm::StringLiteral kEntrySymbol = "__tile_host_entry";
/// `uint32_t[kNumSpecialRegisters]`: the special registers of the thread
/// about to run, indexed by SpecialRegister.
constexpr llvm::StringLiteral kSpecialRegistersSymbol =
    "__tile_host_special_registers";
/// `void *(void *checker, void *address, uint64_t bytes, uint64_t alignment,
/// uint32_t isStore)`: called before every global access with
/// kAccessCheckerSymbol; returns the address to access.
constexpr llvm::StringLiteral kAccessCheckSymbol = "__tile_host_check_access";
/// The object passed as kAccessCheckSymbol's first argument.
constexpr llvm::StringLiteral kAccessCheckerSymbol =
    "__tile_host_access_checker";
/// The widest global access the lowering emits (a 16-byte vector).
constexpr uint64_t kMaxAccessBytes = 16;

/// The special registers of a thread, in x, y, z order each.
enum SpecialRegister : unsigned {
  kTidX,
  kTidY,
  kTidZ,
  kNtidX,
  kNtidY,
  kNtidZ,
  kCtaidX,
  kCtaidY,
  kCtaidZ,
  kNctaidX,
  kNctaidY,
  kNctaidZ,
  kNumSpecialRegisters
};

/// A kernel compiled for the host.
struct HostModule {
  /// The host code (see the file comment).
  std::unique_ptr<llvm::Module> module;
  /// The libdevice functions it calls and their host versions.
  HostSymbols libdevice;
};

/// Compiles `kernel` (which is left unchanged) for the host described by
/// `dataLayout` and `triple`, in `context`. Errors are reported through the
/// MLIR diagnostic engine, at the offending op or at the kernel.
mlir::FailureOr<HostModule> lowerKernelForHost(mlir::tile::KernelOp kernel,
                                               llvm::LLVMContext &context,
                                               const llvm::DataLayout &layout,
                                               const llvm::Triple &triple);

} // namespace tilehost

#endif // TILEC_TOOLS_TILEHOSTRUN_HOSTLOWERING_H
