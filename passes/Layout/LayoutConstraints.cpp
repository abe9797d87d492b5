//===- LayoutConstraints.cpp - What the layout rules ask for --------------===//

#include "passes/Layout/LayoutConstraints.h"

using namespace mlir;
using namespace tilec;

#include "passes/Layout/LayoutRuleInterface.cpp.inc"

void LayoutConstraints::addHolder(
    Operation *holder, tile::DistributedLayoutAttrInterface preferred,
    Operation *requester) {
  classes.insert(holder);
  auto &preferences = holders[holder];
  if (preferred)
    preferences.push_back({preferred, requester ? requester : holder});
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
  // Per class: the combined layout and the use whose preference it is.
  llvm::DenseMap<Operation *, Preference> chosen;
  for (auto &[holder, preferences] : holders) {
    Preference &entry = chosen[classes.getLeaderValue(holder)];
    for (const Preference &preferred : preferences) {
      tile::DistributedLayoutAttrInterface combined =
          combine(entry.layout, preferred.layout);
      if (!combined) {
        InFlightDiagnostic diag =
            preferred.requester->emitOpError("needs the layout ")
            << preferred.layout << " for a fragment, which conflicts with the "
            << "layout " << entry.layout << " that another use needs";
        diag.attachNote(entry.requester->getLoc())
            << "the layout " << entry.layout << " is needed here";
        return failure();
      }
      if (combined != entry.layout)
        entry = {combined, combined == preferred.layout ? preferred.requester
                                                        : entry.requester};
    }
  }

  auto scalar = tile::FlatLayoutAttr::get(context, 1);
  llvm::MapVector<Operation *, tile::DistributedLayoutAttrInterface> result;
  for (Operation *holder : llvm::make_first_range(holders)) {
    tile::DistributedLayoutAttrInterface layout =
        chosen.lookup(classes.getLeaderValue(holder)).layout;
    result[holder] = layout ? layout : scalar;
  }
  return result;
}
