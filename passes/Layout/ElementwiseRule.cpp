//===- ElementwiseRule.cpp - Layouts of parallel loops and fragments ------===//
//
// The elementwise layout rule: every `tile.parallel` loop and every fragment
// it accesses get one `#tile.flat<vec>` layout. A loop prefers the widest
// 16-byte vector among its contiguous global and shared-memory accesses
// (a row staged in a shared tile is read in vectors), shrunk until it
// divides the innermost extent and the body, emitted once per vector lane,
// stays short; loops that write per-thread `local` buffers use `vec = 1`
// because their iterations must not interleave. A fragment that a loop
// indexes with its induction variables over the fragment's shape shares the
// loop's layout; a rank-1 fragment read at one induction variable of a loop
// in an accumulator's `#tile.mma` layout (a row statistic) is that layout's
// `#tile.slice`; one indexed otherwise is `#tile.replicated`. Fragments may
// be accessed only inside parallel loops.
//
//===----------------------------------------------------------------------===//

#include "passes/Layout/LayoutConstraints.h"
#include "passes/Layout/LayoutRules.h"

#include "codegen/CodegenLimits.h"
#include "passes/Analysis/AccessAnalysis.h"
#include "passes/Analysis/CodeSize.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace tilec;

namespace {

/// True if `loop`'s body writes a per-thread (`local`) buffer: its
/// iterations then must run one after the other in every thread.
bool writesLocalBuffer(tile::ParallelOp loop) {
  WalkResult result = loop.getBody().walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      Value buffer = effect.getValue();
      if (isa<MemoryEffects::Write>(effect.getEffect()) && buffer &&
          cast<tile::BufferType>(buffer.getType()).isLocal())
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The vector width `loop` would like on its own, or 0 if any would do (it
/// has no contiguous global or shared accesses and its body is short enough
/// to be emitted once per lane of the widest vector).
int64_t preferredVectorWidth(tile::ParallelOp loop) {
  if (writesLocalBuffer(loop))
    return 1;
  SmallVector<VectorizableAccess> accesses =
      findContiguousAccesses(loop, kMaxVectorBytes);
  llvm::append_range(accesses,
                     findSharedContiguousAccesses(loop, kMaxVectorBytes));
  // Without accesses of its own, the widest vector (one byte elements) is
  // only capped by the body's size.
  int64_t width = accesses.empty() ? kMaxVectorBytes : 1;
  for (const VectorizableAccess &access : accesses)
    width = std::max(width, access.chunkWidth);
  // Every lane gets its own copy of the body: a long body gets fewer lanes.
  uint64_t bodyCost = estimateEmittedCost(loop.getBody().front());
  int64_t innermostExtent = loop.getExtents().back();
  while (width > 1 && (innermostExtent % width != 0 ||
                       llvm::SaturatingMultiply(bodyCost, uint64_t(width)) >
                           kMaxVectorizedBodyCost))
    width /= 2;
  return accesses.empty() && width == kMaxVectorBytes ? 0 : width;
}

/// The rule of `tile.parallel`: the loop and its fragments share a layout.
struct ParallelLayoutRule
    : public LayoutRuleOpInterface::ExternalModel<ParallelLayoutRule,
                                                  tile::ParallelOp> {
  LogicalResult addLayoutConstraints(Operation *op,
                                     LayoutConstraints &constraints) const {
    auto loop = cast<tile::ParallelOp>(op);
    if (loop->getParentOfType<tile::ParallelOp>())
      return loop.emitOpError("nested inside another 'tile.parallel' is not "
                              "supported by the code generator");
    int64_t width = preferredVectorWidth(loop);
    constraints.addHolder(
        loop, width ? tile::FlatLayoutAttr::get(loop.getContext(), width)
                    : tile::FlatLayoutAttr());
    WalkResult result =
        loop.getBody().walk([&](tile::AccessOpInterface access) {
          auto type = cast<tile::BufferType>(access.getBuffer().getType());
          if (!type.isFragment())
            return WalkResult::advance();
          Operation *alloc =
              access.getBuffer().getDefiningOp<tile::AllocFragmentOp>();
          if (!alloc) {
            access->emitOpError("of a fragment that is not a "
                                "'tile.alloc_fragment' is not supported by the "
                                "code generator");
            return WalkResult::interrupt();
          }
          if (isDistributedFragmentAccess(access, loop)) {
            constraints.unify(loop, alloc);
            return WalkResult::advance();
          }
          // A row statistic m[i] read in a loop over [i, j] is held as the
          // loop's rows are: the slice of an accumulator's layout.
          std::optional<int64_t> slicedDim = getSlicedDim(access, loop);
          if (slicedDim && !access.isWrite()) {
            constraints.addDerivedHolder(
                alloc, loop,
                sliceOrReplicated(loop.getContext(), *slicedDim,
                                  /*oneWarpPerLine=*/false),
                access);
            return WalkResult::advance();
          }
          // A fragment read at other indices than the loop's (a broadcast m[i]
          // in a flat loop over [i, j], a constant index, a transpose) is held
          // whole by every thread. Written so, every thread must run every
          // iteration to keep its copy whole: the loop is replicated too.
          constraints.addHolder(
              alloc, tile::ReplicatedLayoutAttr::get(loop.getContext()),
              access);
          if (access.isWrite())
            constraints.unify(loop, alloc);
          return WalkResult::advance();
        });
    return failure(result.wasInterrupted());
  }
};

/// The rule of `tile.alloc_fragment`: a fragment holds a layout, and only
/// parallel loops may access it (their rule ties the layouts together).
struct FragmentLayoutRule
    : public LayoutRuleOpInterface::ExternalModel<FragmentLayoutRule,
                                                  tile::AllocFragmentOp> {
  LogicalResult addLayoutConstraints(Operation *op,
                                     LayoutConstraints &constraints) const {
    constraints.addHolder(op);
    for (Operation *user : op->getResult(0).getUsers())
      if (isa<tile::AccessOpInterface>(user) &&
          !user->getParentOfType<tile::ParallelOp>())
        return user->emitOpError("of a fragment outside a 'tile.parallel' "
                                 "loop is not supported by the code "
                                 "generator");
    return success();
  }
};

} // namespace

void tilec::registerElementwiseLayoutRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tile::TileDialect *) {
    tile::ParallelOp::attachInterface<ParallelLayoutRule>(*context);
    tile::AllocFragmentOp::attachInterface<FragmentLayoutRule>(*context);
  });
}
