//===- ControlFlow.cpp - Conditionals and sequential loops ----------------===//
//
// The lowerings of `tile.if` (scf.if), `tile.serial` and `tile.pipelined`
// (scf.for) and `tile.unroll` (the body emitted once per trip).
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"
#include "codegen/Conversion/TileToLLVM/SharedReadBarriers.h"

#include "codegen/CodegenLimits.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tilec;

namespace {

LogicalResult lowerIf(KernelLowering &lowering, tile::IfOp ifOp, Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  bool hasElse = !ifOp.getElseRegion().empty();
  auto lowered = scf::IfOp::create(builder, ifOp.getLoc(),
                                   lane.map.lookup(ifOp.getCondition()),
                                   /*withElseRegion=*/hasElse);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(lowered.thenBlock()->getTerminator());
  if (failed(lowering.emitBlock(ifOp.getThenRegion().front(), lane)))
    return failure();
  if (!hasElse)
    return success();
  builder.setInsertionPoint(lowered.elseBlock()->getTerminator());
  return lowering.emitBlock(ifOp.getElseRegion().front(), lane);
}

/// Emits a loop from 0 to `upperBound` by 1: an scf.for, or the body once
/// per trip if `unroll` (the trip count is then a constant).
LogicalResult lowerCountedLoop(KernelLowering &lowering, Operation *op,
                               Value upperBound, BlockArgument iv, Block &body,
                               bool unroll, Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = op->getLoc();
  if (unroll) {
    // `tile.unroll` has a constant trip count (its verifier checks it).
    APInt tripCount;
    if (!matchPattern(upperBound, m_ConstantInt(&tripCount)))
      return op->emitOpError("trip count must be a compile-time constant");
    // Even an empty body must not spin for 2^62 trips.
    if (tripCount.getSExtValue() > kMaxKernelCost)
      return lowering.reportTooLarge(*op);
    for (int64_t i = 0, e = tripCount.getSExtValue(); i < e; ++i) {
      lane.map.map(iv, lowering.indexConstant(loc, i));
      if (failed(lowering.emitBlock(body, lane)))
        return failure();
    }
    return success();
  }
  auto loop = scf::ForOp::create(builder, loc, lowering.indexConstant(loc, 0),
                                 lane.map.lookup(upperBound),
                                 lowering.indexConstant(loc, 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  lane.map.map(iv, loop.getInductionVar());
  return lowering.emitBlock(body, lane);
}

} // namespace

void tilec::populateControlFlowLowerings(LoweringSet &set) {
  set.add<tile::IfOp>(lowerIf);
  set.add<tile::SerialOp>([](KernelLowering &lowering, tile::SerialOp loop,
                             Lane &lane) {
    if (failed(lowerCountedLoop(lowering, loop, loop.getUpperBound(),
                                loop.getInductionVar(), loop.getBody().front(),
                                /*unroll=*/false, lane)))
      return failure();
    // The barrier its loops that only read shared memory left to it.
    if (endsDeferredBarriers(loop))
      lowering.emitBarrier(loop.getLoc());
    return success();
  });
  // Until software pipelining rewrites them, pipelined loops run their
  // iterations one after the other.
  set.add<tile::PipelinedOp>(
      [](KernelLowering &lowering, tile::PipelinedOp loop, Lane &lane) {
        return lowerCountedLoop(lowering, loop, loop.getUpperBound(),
                                loop.getInductionVar(), loop.getBody().front(),
                                /*unroll=*/false, lane);
      });
  set.add<tile::UnrollOp>(
      [](KernelLowering &lowering, tile::UnrollOp loop, Lane &lane) {
        return lowerCountedLoop(lowering, loop, loop.getUpperBound(),
                                loop.getInductionVar(), loop.getBody().front(),
                                /*unroll=*/true, lane);
      });
}
