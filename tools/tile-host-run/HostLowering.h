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
// * barriers (`llvm.nvvm.barrier.cta.*`), warp shuffles
//   (`llvm.nvvm.shfl.sync.*`), warp votes, `llvm.nvvm.bar.warp.sync`, and
//   sm_80's `ldmatrix`, `mma.sync` (m16n8k16, f16/bf16) and `cp.async`,
//   sm_90's mbarriers (`init`, `arrive`, `arrive.expect_tx`, the inline
//   `try_wait.parity` loop), TMA (`cp.async.bulk.tensor`, both ways) and
//   the inline `wgmma.mma_async` call the BlockScheduler (kSchedulerSymbol)
//   through the k*Symbol functions below (fragments pass through arrays on
//   the stack); fences, `setmaxnreg`, the wgmma and bulk-copy group
//   operations and the inline `wgmma.fence`/`wait_group` statements that
//   pin registers do nothing on the host (the scheduler completes
//   asynchronous operations as they are issued);
// * the block's shared memory (the arena, an external `addrspace(3)`
//   global) is bound to the scheduler's buffer;
// * PTX approximations (`llvm.nvvm.ex2.approx.*`, `rcp`, `rsqrt`, `lg2`,
//   `sqrt`, `sin`, `cos`, inline `tanh.approx.f32`) become the host's
//   exact functions, and the inline `mov.u32 $0, %tid.x;` reads the thread
//   index.
//
// Kernels that use any other NVVM intrinsic or inline PTX (clusters) are
// rejected with a message naming it; `vprintf` (device `print`) is bound to
// a host version (HostFunctions.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEHOSTRUN_HOSTLOWERING_H
#define TILEC_TOOLS_TILEHOSTRUN_HOSTLOWERING_H

#include "HostFunctions.h"

#include "codegen/GpuTarget.h"
#include "codegen/Metadata.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>

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
/// The BlockScheduler passed as the first argument of the functions below.
constexpr llvm::StringLiteral kSchedulerSymbol = "__tile_host_scheduler";
/// `void (void *scheduler, uint32_t id, uint32_t count, uint32_t wait)`:
/// `bar.sync id, count` (wait = 1) or `bar.arrive id, count`; count 0 is
/// every thread of the block.
constexpr llvm::StringLiteral kBarrierSymbol = "__tile_host_barrier";
/// `uint64_t (void *scheduler, uint32_t mode, uint32_t mask, uint32_t
/// value, uint32_t b, uint32_t c)`: `shfl.sync` (mode a ShuffleMode); the
/// value in the low 32 bits, the predicate in bit 32.
constexpr llvm::StringLiteral kShuffleSymbol = "__tile_host_shuffle";
/// `uint32_t (void *scheduler, uint32_t mode, uint32_t mask, uint32_t
/// predicate)`: `vote.sync` (mode a VoteMode).
constexpr llvm::StringLiteral kVoteSymbol = "__tile_host_vote";
/// `void (void *scheduler, uint32_t mask)`: `bar.warp.sync`.
constexpr llvm::StringLiteral kWarpSyncSymbol = "__tile_host_warp_sync";
/// `void (void *scheduler, uint32_t count, uint32_t transpose, shared
/// void *address, uint32_t *registers)`: `ldmatrix.sync.aligned.m8n8`.
constexpr llvm::StringLiteral kLoadMatricesSymbol = "__tile_host_ldmatrix";
/// `void (void *scheduler, uint32_t kind, const uint32_t *operands,
/// uint32_t *result)`: `mma.sync.aligned.m16n8k16.row.col` (kind a
/// MmaKind; operands A, B, C as words).
constexpr llvm::StringLiteral kMmaSymbol = "__tile_host_mma";
/// `void (void *scheduler, shared void *target, global void *source,
/// uint32_t bytes, uint32_t sourceBytes)`: `cp.async`, whose global read
/// the scheduler checks.
constexpr llvm::StringLiteral kAsyncCopySymbol = "__tile_host_cp_async";
/// `void (void *scheduler)`: `cp.async.commit_group`.
constexpr llvm::StringLiteral kAsyncCommitSymbol =
    "__tile_host_cp_async_commit";
/// `void (void *scheduler, uint32_t pending)`: `cp.async.wait_group`.
constexpr llvm::StringLiteral kAsyncWaitSymbol = "__tile_host_cp_async_wait";
/// `void (void *scheduler, uint32_t n, uint32_t kind, uint32_t
/// *accumulators, const uint32_t *aRegisters, uint64_t descriptorA,
/// uint64_t descriptorB, uint32_t accumulate, int32_t scaleA, int32_t
/// scaleB, uint32_t transposeA, uint32_t transposeB)`: `wgmma.mma_async`
/// (aRegisters null for the SS form).
constexpr llvm::StringLiteral kWgmmaSymbol = "__tile_host_wgmma";
/// `void (void *scheduler, shared void *address, uint32_t count)`.
constexpr llvm::StringLiteral kMBarrierInitSymbol = "__tile_host_mbarrier_init";
/// `uint64_t (void *scheduler, shared void *address, uint32_t
/// transactionBytes)`: `mbarrier.arrive[.expect_tx]`.
constexpr llvm::StringLiteral kMBarrierArriveSymbol =
    "__tile_host_mbarrier_arrive";
/// `void (void *scheduler, shared void *address, uint32_t parity)`: the
/// `mbarrier.try_wait.parity` loop.
constexpr llvm::StringLiteral kMBarrierWaitSymbol = "__tile_host_mbarrier_wait";
/// `void (void *scheduler, shared void *target, shared void *mbarrier,
/// const void *tensorMap, const int32_t *coordinates, uint32_t rank)`.
constexpr llvm::StringLiteral kTensorLoadSymbol = "__tile_host_tma_load";
/// `void (void *scheduler, shared void *source, const void *tensorMap,
/// const int32_t *coordinates, uint32_t rank)`.
constexpr llvm::StringLiteral kTensorStoreSymbol = "__tile_host_tma_store";
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
  /// The metadata tilec would write (tilec::describeKernel after the
  /// tile-gpu phase: parameters, tensor maps included, grid, block).
  nlohmann::ordered_json metadata;
  /// The host code (see the file comment).
  std::unique_ptr<llvm::Module> module;
  /// The libdevice functions it calls and their host versions.
  HostSymbols libdevice;
  /// The external shared memory global (the arena) to bind to the block's
  /// shared memory; empty if the kernel uses none.
  std::string sharedMemory;
};

/// Compiles `kernel` (which is left unchanged) for the host described by
/// `dataLayout` and `triple`, in `context`, as tilec does for `target` (with
/// its `--fast-math` lowering if `fastMath`), and describes it as coming
/// from `source`. Errors are reported through the MLIR diagnostic engine,
/// at the offending op or at the kernel.
mlir::FailureOr<HostModule>
lowerKernelForHost(mlir::tile::KernelOp kernel, llvm::LLVMContext &context,
                   const llvm::DataLayout &layout, const llvm::Triple &triple,
                   const tilec::GpuTarget &target,
                   const tilec::KernelSource &source, bool fastMath);

} // namespace tilehost

#endif // TILEC_TOOLS_TILEHOSTRUN_HOSTLOWERING_H
