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

void LayoutConstraints::addDerivedHolder(Operation *holder, Operation *source,
                                         Derivation derive,
                                         Operation *requester) {
  addHolder(holder);
  addHolder(source);
  derived.push_back({holder, source, std::move(derive), requester});
}

LayoutConstraints::Derivation tilec::sliceOrReplicated(MLIRContext *context,
                                                       int64_t dim,
                                                       bool oneWarpPerLine) {
  return [context, dim,
          oneWarpPerLine](tile::DistributedLayoutAttrInterface source)
             -> tile::DistributedLayoutAttrInterface {
    auto mma = dyn_cast_or_null<tile::MmaLayoutAttr>(source);
    int64_t warpsAlongLine =
        mma ? (dim == 1 ? mma.getWarpsN() : mma.getWarpsM()) : 0;
    if (!mma || (oneWarpPerLine && warpsAlongLine != 1))
      return tile::ReplicatedLayoutAttr::get(context);
    return tile::SliceLayoutAttr::get(context, mma, dim);
  };
}

namespace {
/// The most rounds of resolving derived preferences (each round can only
/// turn a slice into `#tile.replicated`, so few are ever needed).
constexpr int kMaxDerivationRounds = 8;

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
  if (a == b)
    return a;
  // Every thread holding every element serves any reader of a slice.
  bool sliceOrReplicatedA =
      isa<tile::SliceLayoutAttr, tile::ReplicatedLayoutAttr>(a);
  bool sliceOrReplicatedB =
      isa<tile::SliceLayoutAttr, tile::ReplicatedLayoutAttr>(b);
  if (sliceOrReplicatedA && sliceOrReplicatedB)
    return tile::ReplicatedLayoutAttr::get(a.getContext());
  return tile::DistributedLayoutAttrInterface();
}
} // namespace

FailureOr<llvm::MapVector<Operation *, tile::DistributedLayoutAttrInterface>>
LayoutConstraints::solve(MLIRContext *context) const {
  SmallVector<tile::DistributedLayoutAttrInterface> resolved(derived.size());
  FailureOr<Solution> solution = solveClasses(context, resolved);
  for (int round = 0;
       round < kMaxDerivationRounds && succeeded(solution) && !derived.empty();
       ++round) {
    SmallVector<tile::DistributedLayoutAttrInterface> next;
    for (const DerivedPreference &preference : derived)
      next.push_back(preference.derive(solution->lookup(preference.source)));
    if (next == resolved)
      break;
    resolved = std::move(next);
    solution = solveClasses(context, resolved);
  }
  return solution;
}

FailureOr<LayoutConstraints::Solution> LayoutConstraints::solveClasses(
    MLIRContext *context,
    ArrayRef<tile::DistributedLayoutAttrInterface> resolved) const {
  // Every holder's preferences, the resolved derived ones included.
  llvm::MapVector<Operation *, SmallVector<Preference, 1>> all = holders;
  for (auto [preference, layout] : llvm::zip(derived, resolved))
    if (layout)
      all[preference.holder].push_back({layout, preference.requester});
  // Per class: the combined layout and the use whose preference it is.
  llvm::DenseMap<Operation *, Preference> chosen;
  for (auto &[holder, preferences] : all) {
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
  Solution result;
  for (Operation *holder : llvm::make_first_range(holders)) {
    tile::DistributedLayoutAttrInterface layout =
        chosen.lookup(classes.getLeaderValue(holder)).layout;
    result[holder] = layout ? layout : scalar;
  }
  return result;
}
