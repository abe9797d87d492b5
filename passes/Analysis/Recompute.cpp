//===- Recompute.cpp - Pure computations cloned to another place ----------===//

#include "passes/Analysis/Recompute.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tilec;

bool Recomputability::canRecompute(Value value) {
  if (isAvailable(value))
    return true;
  auto it = known.find(value);
  if (it != known.end())
    return it->second;
  Operation *def = value.getDefiningOp();
  bool result = def && def->getNumRegions() == 0 && isMemoryEffectFree(def) &&
                llvm::all_of(def->getOperands(), [&](Value operand) {
                  return canRecompute(operand);
                });
  known[value] = result;
  return result;
}

Value tilec::recompute(Value value, function_ref<bool(Value)> isAvailable,
                       OpBuilder &builder, IRMapping &mapping) {
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  if (isAvailable(value))
    return value;
  Operation *def = value.getDefiningOp();
  assert(def && "a value that is not available must have an op to clone");
  for (Value operand : def->getOperands())
    recompute(operand, isAvailable, builder, mapping);
  Operation *clone = builder.clone(*def, mapping);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}
