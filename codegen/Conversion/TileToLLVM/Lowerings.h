//===- Lowerings.h - The registry of tile op lowerings ----------*- C++ -*-===//
//
// `convert-tile-to-llvm` emits a kernel op by op (KernelLowering.h); what it
// emits for each tile op comes from this registry, which one populate
// function per op family fills in (one file per family in this folder).
// `tile-check-codegen-support` asks the same registry which ops can be
// lowered, so that "supported" and "lowered" cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_CONVERSION_TILETOLLVM_LOWERINGS_H
#define TILEC_CODEGEN_CONVERSION_TILETOLLVM_LOWERINGS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>

namespace tilec {

class KernelLowering;
struct Lane;

/// Emits `op` (of the registered kind) for one lane (or for the whole thread
/// outside parallel loops) at the lowering's insertion point.
using OpLowering = std::function<mlir::LogicalResult(
    KernelLowering &lowering, mlir::Operation *op, Lane &lane)>;

/// Says whether an op (of the registered kind) can be lowered.
using OpSupport = std::function<bool(mlir::Operation *op)>;

/// The lowerings of tile ops, by op kind.
class LoweringSet {
public:
  /// Registers `lower` for ops of kind `OpT`, which `lower` receives as such.
  /// Every op of the kind can be lowered.
  template <typename OpT, typename Fn> void add(Fn lower) {
    add<OpT>(lower, [](OpT) { return true; });
  }

  /// Registers `lower` for the ops of kind `OpT` for which `supports` is
  /// true; `tile-check-codegen-support` reports the others.
  template <typename OpT, typename Fn, typename SupportFn>
  void add(Fn lower, SupportFn supports) {
    entries[mlir::TypeID::get<OpT>()] = {
        [lower](KernelLowering &lowering, mlir::Operation *op, Lane &lane) {
          return lower(lowering, mlir::cast<OpT>(op), lane);
        },
        [supports](mlir::Operation *op) {
          return supports(mlir::cast<OpT>(op));
        }};
  }

  /// Returns the lowering of `op`'s kind, or null if there is none.
  const OpLowering *lookup(mlir::Operation *op) const {
    auto found = entries.find(op->getName().getTypeID());
    return found == entries.end() ? nullptr : &found->second.lower;
  }

  /// Returns true if `op` has a lowering that supports it.
  bool supports(mlir::Operation *op) const {
    auto found = entries.find(op->getName().getTypeID());
    return found != entries.end() && found->second.supports(op);
  }

private:
  /// A registered lowering and the ops it supports.
  struct Entry {
    OpLowering lower;
    OpSupport supports;
  };
  llvm::DenseMap<mlir::TypeID, Entry> entries;
};

/// Kernel structure: allocations, which the kernel's setup emits.
void populateKernelLowerings(LoweringSet &set);
/// Element accesses and fills of global tensors and per-thread buffers.
void populateMemoryLowerings(LoweringSet &set);
/// `tile.if`, `tile.serial`, `tile.pipelined` and `tile.unroll`.
void populateControlFlowLowerings(LoweringSet &set);
/// `tile.parallel` loops (per-lane emission and vectorization).
void populateParallelLowerings(LoweringSet &set);
/// Shared tiles: `tile.alloc_shared` (their accesses and fills are handed
/// over by the memory lowerings).
void populateSharedMemoryLowerings(LoweringSet &set);

/// `tile.copy` between global, shared and fragment tiles (Copy.cpp).
void populateCopyLowerings(LoweringSet &set);
/// `tile.gemm` on the tensor-core path its accumulator's layout chose
/// (Gemm.cpp: mma.sync or wgmma).
void populateGemmLowerings(LoweringSet &set);
/// `tile.reduce` (Reduce.cpp: per thread, warp shuffles, shared memory).
void populateReduceLowerings(LoweringSet &set);
/// `tile.print` (Print.cpp: a vprintf call guarded to block (0, 0, 0)).
void populatePrintLowerings(LoweringSet &set);
/// `tile.use_swizzle` (thread-block rasterization, Rasterization.h).
void populateRasterizationLowerings(LoweringSet &set);

/// The warp-specialized schedule: `tile.warp_specialize`, the mbarrier ops
/// and `tile.tma_ready` (WarpSpecialize.cpp).
void populateWarpSpecializationLowerings(LoweringSet &set);
/// `tile.tma_store_wait` (TmaStore.cpp; the stores themselves are copies).
void populateTmaStoreLowerings(LoweringSet &set);

/// Every lowering of the code generator, built once.
const LoweringSet &getTileLowerings();

} // namespace tilec

#endif // TILEC_CODEGEN_CONVERSION_TILETOLLVM_LOWERINGS_H
