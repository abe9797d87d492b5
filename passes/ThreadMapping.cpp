//===- ThreadMapping.cpp - How parallel loops map to threads --------------===//

#include "passes/ThreadMapping.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

std::optional<int64_t> tilec::getVectorWidth(mlir::Operation *op) {
  if (auto width = op->getAttrOfType<mlir::IntegerAttr>(kVectorWidthAttrName))
    return width.getInt();
  return std::nullopt;
}

void tilec::setVectorWidth(mlir::Operation *op, int64_t width) {
  op->setAttr(kVectorWidthAttrName,
              mlir::Builder(op->getContext()).getI64IntegerAttr(width));
}
