//===- ConvertTileToLLVM.cpp - tile kernels to NVVM kernel functions ------===//
//
// Implements `convert-tile-to-llvm` (see Passes.td): lowers every kernel of
// the module with the registered lowerings and records what the emitted
// code costs.
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/Passes.h"

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilec {
#define GEN_PASS_DEF_CONVERTTILETOLLVM
#include "codegen/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {
struct ConvertTileToLLVM
    : public tilec::impl::ConvertTileToLLVMBase<ConvertTileToLLVM> {
  void runOnOperation() override {
    SmallVector<tile::KernelOp> kernels(
        getOperation().getOps<tile::KernelOp>());
    int64_t cost = 0;
    for (tile::KernelOp kernel : kernels) {
      KernelLowering lowering(kernel, getTileLowerings());
      if (failed(lowering.run()))
        return signalPassFailure();
      cost += lowering.getCost();
    }
    getOperation()->setAttr(
        tile::TileDialect::CodegenCostAttrHelper::getNameStr(),
        IntegerAttr::get(IntegerType::get(&getContext(), 64), cost));
  }
};
} // namespace
