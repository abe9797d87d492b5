//===- CodeSize.cpp - What tile IR costs once emitted ---------------------===//

#include "passes/Analysis/CodeSize.h"

#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

int64_t tilec::getEmittedCost(mlir::Operation *op) {
  using namespace mlir;
  bool expensive =
      isa<math::MathDialect>(op->getDialect()) ||
      (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
           arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp,
           arith::DivFOp, arith::RemFOp>(op) &&
       !matchPattern(op->getOperand(1), m_Constant()));
  if (!expensive)
    return 1;
  bool wide = llvm::any_of(op->getResultTypes(), [](Type type) {
    return type.isF64() || type.isInteger(64) || type.isIndex();
  });
  return wide ? kWideExpensiveOpCost : kExpensiveOpCost;
}

uint64_t tilec::estimateEmittedCost(mlir::Block &block) {
  using namespace mlir;
  uint64_t cost = 0;
  for (Operation &op : block) {
    uint64_t opCost;
    if (auto loop = dyn_cast<tile::UnrollOp>(op)) {
      APInt tripCount;
      uint64_t trips =
          matchPattern(loop.getUpperBound(), m_ConstantInt(&tripCount))
              ? std::max<int64_t>(tripCount.getSExtValue(), 0)
              : 1;
      opCost = llvm::SaturatingMultiply(
          trips, estimateEmittedCost(loop.getBody().front()));
    } else if (isa<tile::LoadOp, tile::StoreOp>(op)) {
      opCost = 8;
    } else {
      opCost = getEmittedCost(&op);
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          opCost = llvm::SaturatingAdd(opCost, estimateEmittedCost(nested));
    }
    cost = llvm::SaturatingAdd(cost, opCost);
  }
  return cost;
}
