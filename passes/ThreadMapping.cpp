//===- ThreadMapping.cpp - How parallel loops map to threads --------------===//

#include "passes/ThreadMapping.h"

#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/MathExtras.h"

std::optional<int64_t> tilec::getVectorWidth(mlir::Operation *op) {
  if (auto width = op->getAttrOfType<mlir::IntegerAttr>(kVectorWidthAttrName))
    return width.getInt();
  return std::nullopt;
}

void tilec::setVectorWidth(mlir::Operation *op, int64_t width) {
  op->setAttr(kVectorWidthAttrName,
              mlir::Builder(op->getContext()).getI64IntegerAttr(width));
}

bool tilec::isDistributedFragmentAccess(mlir::Operation *access,
                                        mlir::tile::ParallelOp loop) {
  mlir::Value buffer;
  mlir::ValueRange indices;
  if (auto load = mlir::dyn_cast<mlir::tile::LoadOp>(access)) {
    buffer = load.getBuffer();
    indices = load.getIndices();
  } else {
    auto store = mlir::cast<mlir::tile::StoreOp>(access);
    buffer = store.getBuffer();
    indices = store.getIndices();
  }
  auto type = mlir::cast<mlir::tile::BufferType>(buffer.getType());
  return loop.getExtents() == type.getShape() &&
         llvm::equal(indices, loop.getInductionVars());
}

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
