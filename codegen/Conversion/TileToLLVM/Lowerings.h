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

/// The lowerings of tile ops, by op kind.
class LoweringSet {
public:
  /// Registers `lower` for ops of kind `OpT`, which `lower` receives as such.
  template <typename OpT, typename Fn> void add(Fn lower) {
    lowerings[mlir::TypeID::get<OpT>()] =
        [lower](KernelLowering &lowering, mlir::Operation *op, Lane &lane) {
          return lower(lowering, mlir::cast<OpT>(op), lane);
        };
  }

  /// Returns the lowering of `op`'s kind, or null if there is none.
  const OpLowering *lookup(mlir::Operation *op) const {
    auto found = lowerings.find(op->getName().getTypeID());
    return found == lowerings.end() ? nullptr : &found->second;
  }

private:
  llvm::DenseMap<mlir::TypeID, OpLowering> lowerings;
};

/// Kernel structure: allocations, which the kernel's setup emits.
void populateKernelLowerings(LoweringSet &set);
/// Element accesses and fills of global tensors and per-thread buffers.
void populateMemoryLowerings(LoweringSet &set);
/// `tile.if`, `tile.serial` and `tile.unroll`.
void populateControlFlowLowerings(LoweringSet &set);
/// `tile.parallel` loops (per-lane emission and vectorization).
void populateParallelLowerings(LoweringSet &set);
/// `tile.use_swizzle` (thread-block rasterization, Rasterization.h).
void populateRasterizationLowerings(LoweringSet &set);

/// Every lowering of the code generator, built once.
const LoweringSet &getTileLowerings();

} // namespace tilec

#endif // TILEC_CODEGEN_CONVERSION_TILETOLLVM_LOWERINGS_H
