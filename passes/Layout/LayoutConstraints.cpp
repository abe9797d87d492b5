//===- LayoutConstraints.cpp - What the layout rules ask for --------------===//

#include "passes/Layout/LayoutConstraints.h"

using namespace mlir;
using namespace tilec;

#include "passes/Layout/LayoutRuleInterface.cpp.inc"

void LayoutConstraints::addHolder(
    Operation *holder, tile::DistributedLayoutAttrInterface preferred) {
  classes.insert(holder);
  auto [entry, inserted] = holders.insert({holder, preferred});
  if (!inserted && preferred)
    entry->second = preferred;
}

void LayoutConstraints::unify(Operation *a, Operation *b) {
  addHolder(a);
  addHolder(b);
  classes.unionSets(a, b);
}

namespace {
/// Combines two preferences of one class, or returns null if they conflict.
tile::DistributedLayoutAttrInterface
combine(tile::DistributedLayoutAttrInterface a,
        tile::DistributedLayoutAttrInterface b) {
  if (!a)
    return b;
  if (!b)
    return a;
  auto flatA = dyn_cast<tile::FlatLayoutAttr>(a);
  auto flatB = dyn_cast<tile::FlatLayoutAttr>(b);
  if (flatA && flatB)
    return flatA.getVec() <= flatB.getVec() ? flatA : flatB;
  // A flat preference only asks for vectorized accesses: the layout an
  // instruction needs (a GEMM's accumulator) wins over it.
  if (flatA)
    return b;
  if (flatB)
    return a;
  return a == b ? a : tile::DistributedLayoutAttrInterface();
}
} // namespace

FailureOr<llvm::MapVector<Operation *, tile::DistributedLayoutAttrInterface>>
LayoutConstraints::solve(MLIRContext *context) const {
  llvm::DenseMap<Operation *, tile::DistributedLayoutAttrInterface> chosen;
  for (auto [holder, preferred] : holders) {
    Operation *leader = classes.getLeaderValue(holder);
    auto [entry, inserted] = chosen.insert({leader, preferred});
    if (inserted)
      continue;
    tile::DistributedLayoutAttrInterface combined =
        combine(entry->second, preferred);
    if (!combined) {
      InFlightDiagnostic diag =
          holder->emitOpError("needs the layout ")
          << preferred << ", which conflicts with the layout " << entry->second
          << " that other ops sharing its fragments need";
      for (auto member = classes.findLeader(holder);
           member != classes.member_end(); ++member)
        if (*member != holder)
          diag.attachNote((*member)->getLoc()) << "shares a layout with this";
      return failure();
    }
    entry->second = combined;
  }

  auto scalar = tile::FlatLayoutAttr::get(context, 1);
  llvm::MapVector<Operation *, tile::DistributedLayoutAttrInterface> result;
  for (auto [holder, preferred] : holders) {
    tile::DistributedLayoutAttrInterface layout =
        chosen.lookup(classes.getLeaderValue(holder));
    result[holder] = layout ? layout : scalar;
  }
  return result;
}
