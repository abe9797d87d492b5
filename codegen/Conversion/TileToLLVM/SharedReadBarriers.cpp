//===- SharedReadBarriers.cpp - Barriers after shared reads ---------------===//

#include "codegen/Conversion/TileToLLVM/SharedReadBarriers.h"

using namespace mlir;
using namespace tilec;

namespace {

bool isSharedBuffer(Value value) {
  auto type = dyn_cast<tile::BufferType>(value.getType());
  return type && type.isShared();
}

/// True if `op` or an op nested in it has a shared buffer operand (an
/// access, a copy, a fill, a reduction's scratch, a barrier on shared
/// mbarriers, ...) or synchronizes the block.
bool touchesSharedMemory(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    if (isa<tile::BarrierOp, tile::NamedBarrierOp>(nested) ||
        llvm::any_of(nested->getOperands(), isSharedBuffer))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// True if `op` is a `parallel` loop that reads shared tiles and does
/// nothing else with shared memory.
bool onlyReadsSharedMemory(Operation *op) {
  auto loop = dyn_cast<tile::ParallelOp>(op);
  if (!loop)
    return false;
  bool reads = false;
  WalkResult result = loop.getBody().walk([&](Operation *nested) {
    if (!touchesSharedMemory(nested) || !nested->getRegions().empty())
      return WalkResult::advance();
    auto access = dyn_cast<tile::AccessOpInterface>(nested);
    if (!access || access.isWrite() || !isSharedBuffer(access.getBuffer()))
      return WalkResult::interrupt();
    reads = true;
    return WalkResult::advance();
  });
  return reads && !result.wasInterrupted();
}

} // namespace

bool tilec::endsDeferredBarriers(tile::SerialOp loop) {
  bool reads = false;
  for (Operation &op : loop.getBody().front().without_terminator()) {
    if (!touchesSharedMemory(&op))
      continue;
    if (!onlyReadsSharedMemory(&op))
      return false;
    reads = true;
  }
  return reads;
}

bool tilec::defersBarrier(tile::ParallelOp loop) {
  if (!onlyReadsSharedMemory(loop))
    return false;
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
    if (op->hasTrait<OpTrait::IsTerminator>())
      break;
    if (touchesSharedMemory(op))
      return onlyReadsSharedMemory(op);
  }
  auto serial = dyn_cast<tile::SerialOp>(loop->getParentOp());
  return serial && endsDeferredBarriers(serial);
}
