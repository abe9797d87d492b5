//===- AssignThreadMapping.cpp - Vector widths of parallel loops ----------===//
//
// Implements `tile-assign-thread-mapping` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/Tile/TileOps.h"
#include "passes/AccessAnalysis.h"
#include "passes/ThreadMapping.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <string>

namespace tilec {
#define GEN_PASS_DEF_TILEASSIGNTHREADMAPPING
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {
/// The most the copies of a vectorized loop body, one per lane, may cost
/// together (see estimateEmittedCost).
constexpr uint64_t kMaxVectorizedBodyCost = 4096;

/// Returns the buffer and indices of a `tile.load` or `tile.store`.
std::pair<Value, OperandRange> accessOperands(Operation *op) {
  if (auto load = dyn_cast<tile::LoadOp>(op))
    return {load.getBuffer(), load.getIndices()};
  auto store = cast<tile::StoreOp>(op);
  return {store.getBuffer(), store.getIndices()};
}

std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (auto [i, extent] : llvm::enumerate(shape))
    text += (i ? ", " : "") + std::to_string(extent);
  return text + "]";
}

/// True if `loop`'s body writes a per-thread (`local`) buffer: its
/// iterations then must run one after the other in every thread.
bool writesLocalBuffer(tile::ParallelOp loop) {
  auto isLocal = [](Value buffer) {
    return cast<tile::BufferType>(buffer.getType()).isLocal();
  };
  WalkResult result = loop.getBody().walk([&](Operation *op) {
    if (auto store = dyn_cast<tile::StoreOp>(op);
        store && isLocal(store.getBuffer()))
      return WalkResult::interrupt();
    if (auto fill = dyn_cast<tile::FillOp>(op);
        fill && isLocal(fill.getBuffer()))
      return WalkResult::interrupt();
    if (auto clear = dyn_cast<tile::ClearOp>(op);
        clear && isLocal(clear.getBuffer()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The vector width `loop` would like on its own: the widest chunk among
/// its contiguous global accesses, shrunk until it divides the innermost
/// extent.
int64_t preferredWidth(tile::ParallelOp loop) {
  if (writesLocalBuffer(loop))
    return 1;
  int64_t width = 1;
  for (const VectorizableAccess &access :
       findContiguousAccesses(loop, kMaxVectorBytes))
    width = std::max(width, access.chunkWidth);
  // Every lane gets its own copy of the body: a long body gets fewer lanes.
  uint64_t bodyCost = estimateEmittedCost(loop.getBody().front());
  int64_t innermostExtent = loop.getExtents().back();
  while (width > 1 && (innermostExtent % width != 0 ||
                       llvm::SaturatingMultiply(bodyCost, uint64_t(width)) >
                           kMaxVectorizedBodyCost))
    width /= 2;
  return width;
}

struct AssignThreadMapping
    : public tilec::impl::TileAssignThreadMappingBase<AssignThreadMapping> {
  void runOnOperation() override {
    tile::KernelOp kernel = getOperation();

    // Loops and the fragments they share form classes that must agree on
    // the vector width.
    llvm::EquivalenceClasses<Operation *> classes;
    llvm::DenseMap<Operation *, int64_t> preferred;
    bool failed = false;

    kernel.walk([&](tile::ParallelOp loop) {
      if (loop->getParentOfType<tile::ParallelOp>()) {
        loop.emitOpError("nested inside another 'tile.parallel' is not "
                         "supported by the code generator");
        failed = true;
        return;
      }
      classes.insert(loop);
      preferred[loop] = preferredWidth(loop);
    });
    kernel.walk([&](tile::AllocFragmentOp alloc) { classes.insert(alloc); });

    kernel.walk([&](Operation *op) {
      if (!isa<tile::LoadOp, tile::StoreOp>(op))
        return;
      Value buffer = accessOperands(op).first;
      auto type = cast<tile::BufferType>(buffer.getType());
      if (!type.isFragment())
        return;
      auto loop = op->getParentOfType<tile::ParallelOp>();
      if (!loop) {
        op->emitOpError("of a fragment outside a 'tile.parallel' loop is not "
                        "supported by the code generator");
        failed = true;
        return;
      }
      Operation *alloc = buffer.getDefiningOp<tile::AllocFragmentOp>();
      if (!isDistributedFragmentAccess(op, loop) || !alloc) {
        op->emitOpError("of a fragment must be indexed by the induction "
                        "variables of its 'tile.parallel' loop, whose extents "
                        "must equal the fragment's shape ")
            << formatShape(type.getShape())
            << " (other fragment access patterns are not supported by the "
               "code generator yet)";
        failed = true;
        return;
      }
      classes.unionSets(loop.getOperation(), alloc);
    });
    if (failed)
      return signalPassFailure();

    for (auto it = classes.begin(); it != classes.end(); ++it) {
      if (!(*it)->isLeader())
        continue;
      // A fragment no loop accesses keeps width 1.
      std::optional<int64_t> width;
      for (auto member = classes.member_begin(**it);
           member != classes.member_end(); ++member)
        if (auto loopWidth = preferred.find(*member);
            loopWidth != preferred.end())
          width =
              std::min(width.value_or(loopWidth->second), loopWidth->second);
      for (auto member = classes.member_begin(**it);
           member != classes.member_end(); ++member)
        setVectorWidth(*member, width.value_or(1));
    }
  }
};
} // namespace
