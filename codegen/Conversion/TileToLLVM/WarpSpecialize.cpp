//===- WarpSpecialize.cpp - Producer/consumer roles, mbarriers and TMA ----===//
//
// The lowerings of the warp-specialized schedule of tile-pipeline-loops
// (passes/Pipeliner/WarpSpecialize.cpp) on sm_90a:
//
// * `tile.warp_specialize`: the block has G groups of T consumer threads
//   (the launch's; G = `consumer_groups`) followed by the producer
//   warpgroup(s). `tid >= G T` takes the producer role: the producers give
//   registers away (`setmaxnreg.dec 40`) and the consumers take them
//   (`setmaxnreg.inc 232` with two or more consumer warpgroups, CUTLASS's split
//   for 384 threads; 216 for one, two blocks per multiprocessor;
//   KernelLowering::getRegisterSplit); thread G T alone runs the producer
//   region. The other threads run the consumer region, group g = tid / T with
//   thread index tid - g T, whose barriers are `bar.sync 1 + g, T`
//   (KernelLowering::emitBarrier). With `cluster N`, every thread passes
//   `barrier.cluster.arrive` and `wait` after both roles, so that no block
//   exits while another of its cluster may still arrive on its mbarriers.
// * `tile.consumer_group`: g; `tile.named_barrier`: `barrier.cta.sync` or
//   `barrier.cta.arrive` (`.aligned`: whole warps reach it together).
// * `tile.mbarrier_init`: thread 0 initializes each mbarrier, then
//   `fence.mbarrier_init` and a barrier of the whole block (all roles), or
//   of the whole cluster in a launch of clusters (its blocks arrive on each
//   other's mbarriers).
// * `tile.mbarrier_wait`: `mbarrier.try_wait.parity` in a loop;
//   `tile.mbarrier_arrive`: `bar.warp.sync`, then `mbarrier.arrive` by lane 0
//   of each warp; with `{cluster}`, on the mbarrier of each block r of the
//   cluster (`mapa` r, `mbarrier.arrive.shared::cluster`).
// * `tile.copy ... barrier` (TMA): `mbarrier.arrive.expect_tx` with the
//   bytes of the tile, then one `cp.async.bulk.tensor.2d` per column panel
//   of the tile's layout, at coordinates (column, row) of the region's
//   origin, through the kernel's tensor map parameter (TensorMaps.h).
//   Out-of-bounds elements are filled with zeros by TMA and count towards
//   the bytes. With `{multicast}` in clusters of N blocks, block r issues
//   rows [r R / N, (r + 1) R / N) of each box of R rows (the tensor map's
//   box has R / N rows) with `.multicast::cluster` to every block; the
//   expected bytes are still the whole tile's, which lands in each block.
// * `tile.tile_loop` (a persistent launch): the block takes tiles b, b + B,
//   ... of the launch grid (b its linear index, B the blocks launched) and
//   rebinds the launch's block indices to each tile's; with `from f step
//   s`, only the tiles f, f + s, ... of that sequence. `tile.tile_count` is
//   the length of the sequence. With `cluster N`, b and B count clusters
//   (`%clusterid`, `%nclusterid`) over the grid of X by ceil(Y / N) tiles,
//   and the block of rank r (`%cluster_ctarank`) takes row N y + r of each
//   (after `tile.use_swizzle`'s rasterization of that grid, if any).
// * `tile.tma_ready`: the rules the runtime checks before it encodes a map
//   (docs/runtime.md), so that the kernel copies with TMA only through maps
//   the runtime encoded (it passes zeros for a tensor that breaks them).
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/TmaCopy.h"

#include "codegen/Conversion/TileToLLVM/Rasterization.h"

#include "passes/Analysis/AccessAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;

namespace {

/// Suspend-time hint of an mbarrier wait, in nanoseconds (CUTLASS's).
constexpr int32_t kWaitHintNanoseconds = 0x989680;

Value i32Constant(OpBuilder &builder, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                  builder.getI32IntegerAttr(value));
}

Value toI32(OpBuilder &builder, Location loc, Value index) {
  return arith::IndexCastOp::create(builder, loc, builder.getI32Type(), index);
}

/// The address of mbarrier `index` of `barriers` for `lane`.
FailureOr<Value> barrierPointer(KernelLowering &lowering, Operation *op,
                                Value barriers, Value index, Lane &lane) {
  const SharedBuffer *buffer = lowering.findShared(barriers);
  if (!buffer)
    return op->emitOpError("uses unknown mbarriers");
  return lowering.sharedElementPointer(op->getLoc(), *buffer,
                                       {lane.map.lookup(index)});
}

LogicalResult lowerWarpSpecialize(KernelLowering &lowering,
                                  tile::WarpSpecializeOp roles, Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = roles.getLoc();
  Value consumers = lowering.indexConstant(loc, lowering.getConsumerThreads());
  Value isProducer =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::uge,
                            lowering.getThreadIndex(), consumers);
  auto split = scf::IfOp::create(builder, loc, isProducer,
                                 /*withElseRegion=*/true);
  std::optional<KernelLowering::RegisterSplit> registers =
      lowering.getRegisterSplit();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(split.thenBlock()->getTerminator());
  if (registers)
    NVVM::SetMaxRegisterOp::create(builder, loc, registers->producerRegisters,
                                   NVVM::SetMaxRegisterAction::decrease);
  Value isIssuer = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         lowering.getThreadIndex(), consumers);
  auto issuer = scf::IfOp::create(builder, loc, isIssuer,
                                  /*withElseRegion=*/false);
  builder.setInsertionPoint(issuer.thenBlock()->getTerminator());
  // The roles see the same values; the producer's own (its loop, its
  // rasterization) stay its own.
  Lane producer = lane;
  if (failed(lowering.emitBlock(roles.getProducer().front(), producer)))
    return failure();
  builder.setInsertionPoint(split.elseBlock()->getTerminator());
  if (registers)
    NVVM::SetMaxRegisterOp::create(builder, loc, registers->consumerRegisters,
                                   NVVM::SetMaxRegisterAction::increase);
  auto emitConsumers = [&] {
    return lowering.emitBlock(roles.getConsumer().front(), lane);
  };
  if (failed(roles.getConsumerGroups() == 1
                 ? emitConsumers()
                 : lowering.asConsumerGroup(loc, emitConsumers)))
    return failure();
  if (roles.getClusterBlocks() > 1) {
    // No block of the cluster exits while another may still arrive on its
    // mbarriers or write into its stages.
    builder.setInsertionPointAfter(split);
    NVVM::ClusterArriveOp::create(builder, loc, /*aligned=*/nullptr);
    NVVM::ClusterWaitOp::create(builder, loc, /*aligned=*/nullptr);
  }
  return success();
}

/// The tiles of the launch grid that the block takes (see lowerTileLoop).
struct BlockTiles {
  /// The grid's extents.
  SmallVector<Value> grid;
  /// The block's first tile (its linear index) and the blocks launched.
  Value first, blocks;
  /// How many tiles the block takes.
  Value count;
};

/// Emits the tiles that the block of `op`'s persistent launch takes.
BlockTiles emitBlockTiles(KernelLowering &lowering, Operation *op, Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = op->getLoc();
  auto launch = op->getParentOfType<tile::LaunchOp>();
  BlockTiles tiles;
  tiles.grid = lowering.lookup(lane, launch.getGrid());
  auto mul = [&](Value a, Value b) {
    return arith::MulIOp::create(builder, loc, a, b).getResult();
  };
  auto add = [&](Value a, Value b) {
    return arith::AddIOp::create(builder, loc, a, b).getResult();
  };
  // In a launch of clusters, the clusters take the tiles of a grid of
  // ceil(Y / N) rows, and b and B count clusters.
  int64_t cluster = getClusterBlocks(op);
  if (cluster > 1)
    tiles.grid[1] = emitClusterGridRows(builder, loc, tiles.grid[1], cluster);
  // b = x + X * (y + Y * z), B = X * Y * Z over the blocks (or clusters)
  // launched.
  for (unsigned dim = 3; dim-- > 0;) {
    Value index = cluster > 1 ? lowering.emitClusterIndex(loc, dim)
                              : lowering.emitBlockIndex(loc, dim);
    Value extent = cluster > 1 ? lowering.emitClusterCount(loc, dim)
                               : lowering.emitGridExtent(loc, dim);
    tiles.first = tiles.first ? add(mul(tiles.first, extent), index) : index;
    tiles.blocks = tiles.blocks ? mul(tiles.blocks, extent) : extent;
  }
  Value total = tiles.grid[0];
  for (size_t dim = 1; dim < tiles.grid.size(); ++dim)
    total = mul(total, tiles.grid[dim]);
  // ceil((tiles - b) / B) tiles, none if b >= tiles.
  Value one = lowering.indexConstant(loc, 1);
  Value left = arith::SubIOp::create(builder, loc, total, tiles.first);
  Value count = arith::DivUIOp::create(
      builder, loc,
      add(left, arith::SubIOp::create(builder, loc, tiles.blocks, one)),
      tiles.blocks);
  Value any = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                    tiles.first, total);
  tiles.count = arith::SelectOp::create(builder, loc, any, count,
                                        lowering.indexConstant(loc, 0));
  return tiles;
}

/// The tiles of the launch grid that the block takes: tile b + i * B for
/// i = 0, 1, ... while below the grid's size, with b the block's linear
/// index and B the blocks launched; the tile's indices are row-major over
/// the grid (x fastest).
LogicalResult lowerTileLoop(KernelLowering &lowering, tile::TileLoopOp loop,
                            Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = loop.getLoc();
  auto launch = loop->getParentOfType<tile::LaunchOp>();
  BlockTiles tiles = emitBlockTiles(lowering, loop, lane);
  SmallVector<Value> &grid = tiles.grid;
  Value first = loop.getFirst() ? lane.map.lookup(loop.getFirst())
                                : lowering.indexConstant(loc, 0);
  auto serial = scf::ForOp::create(builder, loc, first, tiles.count,
                                   lowering.indexConstant(loc, loop.getStep()));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(serial.getBody()->getTerminator());
  Value iteration = serial.getInductionVar();
  Value tile = arith::AddIOp::create(
      builder, loc, tiles.first,
      arith::MulIOp::create(builder, loc, iteration, tiles.blocks));
  Lane inner = lane;
  inner.map.map(loop.getIteration(), iteration);
  for (auto [dim, index] : llvm::enumerate(launch.getBlockIndices())) {
    Value coordinate = tile;
    if (dim + 1 < grid.size())
      coordinate = arith::RemUIOp::create(builder, loc, tile, grid[dim]);
    inner.map.map(index, coordinate);
    if (dim + 1 < grid.size())
      tile = arith::DivUIOp::create(builder, loc, tile, grid[dim]);
  }
  // In a launch of clusters, the y index so far is the row of the grid of
  // clusters; the rasterization, if any, makes it the block's own.
  int64_t cluster = getClusterBlocks(loop);
  if (cluster > 1 &&
      loop.getBody().front().getOps<tile::UseSwizzleOp>().empty()) {
    Value row = launch.getBlockIndices()[1];
    inner.map.map(row,
                  emitClusterBlockRow(builder, loc, inner.map.lookup(row),
                                      lowering.emitClusterRank(loc), cluster));
  }
  // A tile whose epilogue is staged for a TMA store reads the thread index
  // afresh: otherwise LLVM hoists the addresses of the register-store
  // fallback out of the tile loop, and the accumulators of a large tile
  // spill beside them.
  bool staged = loop.getBody()
                    .walk([](tile::CopyOp copy) {
                      return copy.getStaging() ? WalkResult::interrupt()
                                               : WalkResult::advance();
                    })
                    .wasInterrupted();
  auto emitBody = [&] {
    return lowering.emitBlock(loop.getBody().front(), inner);
  };
  return staged ? lowering.withPinnedThreadIndex(loc, emitBody) : emitBody();
}

LogicalResult lowerTileCount(KernelLowering &lowering, tile::TileCountOp count,
                             Lane &lane) {
  lane.map.map(count.getResult(), emitBlockTiles(lowering, count, lane).count);
  return success();
}

LogicalResult lowerConsumerGroup(KernelLowering &lowering,
                                 tile::ConsumerGroupOp group, Lane &lane) {
  Value number = lowering.getConsumerGroup();
  lane.map.map(group.getResult(),
               number ? number : lowering.indexConstant(group.getLoc(), 0));
  return success();
}

LogicalResult lowerNamedBarrier(KernelLowering &lowering,
                                tile::NamedBarrierOp barrier, Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = barrier.getLoc();
  Value id = toI32(builder, loc, lane.map.lookup(barrier.getId()));
  Value threads = i32Constant(builder, loc, barrier.getThreads());
  if (barrier.getArrive()) {
    LLVM::CallIntrinsicOp::create(
        builder, loc,
        builder.getStringAttr("llvm.nvvm.barrier.cta.arrive.aligned.count"),
        ValueRange{id, threads});
    return success();
  }
  NVVM::BarrierOp::create(builder, loc, TypeRange(), id, threads,
                          /*reductionOp=*/nullptr,
                          /*reductionPredicate=*/nullptr);
  return success();
}

LogicalResult lowerMbarrierInit(KernelLowering &lowering,
                                tile::MbarrierInitOp init, Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = init.getLoc();
  const SharedBuffer *buffer = lowering.findShared(init.getBarriers());
  if (!buffer)
    return init.emitOpError("initializes unknown mbarriers");
  Value first = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                      lowering.getThreadIndex(),
                                      lowering.indexConstant(loc, 0));
  lowering.emitGuarded(loc, first, [&] {
    Value count = i32Constant(builder, loc, init.getCount());
    for (int64_t i = 0; i < buffer->shape[0]; ++i)
      NVVM::MBarrierInitOp::create(
          builder, loc,
          lowering.sharedElementPointer(loc, *buffer,
                                        {lowering.indexConstant(loc, i)}),
          count, /*predicate=*/Value());
  });
  NVVM::FenceMbarrierInitOp::create(builder, loc);
  auto launch = init->getParentOfType<tile::LaunchOp>();
  tile::WarpSpecializeOp roles = launch.getWarpSpecialize();
  if (roles && roles.getClusterBlocks() > 1) {
    // Every role of every block of the cluster waits for the
    // initialization: the blocks arrive on each other's mbarriers.
    NVVM::ClusterArriveOp::create(builder, loc, builder.getUnitAttr());
    NVVM::ClusterWaitOp::create(builder, loc, builder.getUnitAttr());
  } else {
    // Every role waits for the initialization (barrier 0: the whole block).
    NVVM::Barrier0Op::create(builder, loc);
  }
  return success();
}

LogicalResult lowerMbarrierWait(KernelLowering &lowering,
                                tile::MbarrierWaitOp wait, Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = wait.getLoc();
  FailureOr<Value> pointer =
      barrierPointer(lowering, wait, wait.getBarriers(), wait.getIndex(), lane);
  if (failed(pointer))
    return failure();
  NVVM::MBarrierTryWaitParityOp::create(
      builder, loc, *pointer,
      toI32(builder, loc, lane.map.lookup(wait.getParity())),
      i32Constant(builder, loc, kWaitHintNanoseconds));
  return success();
}

LogicalResult lowerMbarrierArrive(KernelLowering &lowering,
                                  tile::MbarrierArriveOp arrive, Lane &lane) {
  FailureOr<Value> pointer = barrierPointer(
      lowering, arrive, arrive.getBarriers(), arrive.getIndex(), lane);
  if (failed(pointer))
    return failure();
  OpBuilder &builder = lowering.getBuilder();
  Location loc = arrive.getLoc();
  // The warp's threads have all finished what came before (and their
  // shared-memory accesses are ordered before lane 0's release).
  NVVM::SyncWarpOp::create(builder, loc, i32Constant(builder, loc, -1));
  Value laneId = arith::RemUIOp::create(builder, loc, lowering.getThreadIndex(),
                                        lowering.indexConstant(loc, 32));
  Value first = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                      laneId, lowering.indexConstant(loc, 0));
  int64_t cluster = getClusterBlocks(arrive);
  lowering.emitGuarded(loc, first, [&] {
    if (!arrive.getCluster()) {
      NVVM::MBarrierArriveOp::create(builder, loc, builder.getI64Type(),
                                     *pointer, /*count=*/Value());
      return;
    }
    // Release at CTA scope, as a local arrival: what the warp did before
    // (its wgmma reads of the stage, waited for) is complete; a release at
    // cluster scope would wait for the warp's wgmma still in flight.
    auto clusterPointer = LLVM::LLVMPointerType::get(builder.getContext(),
                                                     /*shared::cluster=*/7);
    for (int64_t rank = 0; rank < cluster; ++rank) {
      Value remote =
          NVVM::MapaOp::create(builder, loc, clusterPointer, *pointer,
                               i32Constant(builder, loc, rank));
      NVVM::MBarrierArriveOp::create(builder, loc, /*res=*/Type(), remote,
                                     /*count=*/Value());
    }
  });
  return success();
}

LogicalResult lowerTmaReady(KernelLowering &lowering, tile::TmaReadyOp ready,
                            Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = ready.getLoc();
  Value all = arith::ConstantIntOp::create(builder, loc, 1, 1);
  auto conjoin = [&](Value condition) {
    all = arith::AndIOp::create(builder, loc, all, condition);
  };
  Type i64 = builder.getI64Type();
  for (Value value : ready.getTensors()) {
    const Tensor *tensor = lowering.findTensor(value);
    if (!tensor)
      return ready.emitOpError("checks an unknown tensor");
    // The address is 16-byte aligned.
    Value address = LLVM::PtrToIntOp::create(builder, loc, i64, tensor->base);
    Value low = arith::AndIOp::create(
        builder, loc, address,
        arith::ConstantIntOp::create(builder, loc, i64, 15));
    conjoin(arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, low,
        arith::ConstantIntOp::create(builder, loc, i64, 0)));
    // Every extent is in [1, 2^32]: extent - 1 < 2^32, unsigned.
    for (Value dim : tensor->dims) {
      Value lessOne = arith::SubIOp::create(builder, loc, dim,
                                            lowering.indexConstant(loc, 1));
      conjoin(arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, lessOne,
          lowering.indexConstant(loc, int64_t(1) << 32)));
    }
    // Every row (every stride but the innermost) is a multiple of 16 bytes.
    if (tensor->dims.size() > 1) {
      Value rowBytes = arith::MulIOp::create(
          builder, loc, tensor->dims.back(),
          lowering.indexConstant(loc, storageBytes(tensor->elementType)));
      conjoin(arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(builder, loc, rowBytes,
                                 lowering.indexConstant(loc, 16)),
          lowering.indexConstant(loc, 0)));
    }
  }
  lane.map.map(ready.getResult(), all);
  return success();
}

} // namespace

LogicalResult tilec::emitTmaCopy(KernelLowering &lowering, tile::CopyOp copy,
                                 Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = copy.getLoc();
  Value map = lowering.findTensorMap(copy);
  const SharedBuffer *tile = lowering.findShared(copy.getTarget());
  if (!map || !tile)
    return copy.emitOpError("is a TMA copy without a tensor map; its tile's "
                            "layout must be one a TMA box writes");
  FailureOr<Value> barrier = barrierPointer(lowering, copy, copy.getBarrier(),
                                            copy.getBarrierIndex(), lane);
  if (failed(barrier))
    return failure();
  std::optional<TmaBoxes> boxes =
      describeTmaBoxes(cast<tile::BufferType>(copy.getTarget().getType()));
  int64_t bytes =
      tile->shape[0] * tile->shape[1] * storageBytes(tile->elementType);
  NVVM::MBarrierArriveExpectTxOp::create(
      builder, loc, /*res=*/Type(), *barrier, i32Constant(builder, loc, bytes),
      NVVM::MemScopeKind::CTA, /*relaxed=*/false, /*predicate=*/Value());
  SmallVector<Value> origin = lowering.lookup(lane, copy.getSourceIndices());
  // A multicast copy: this block's band of rows of each box, into every
  // block of the cluster.
  Value firstRow = lowering.indexConstant(loc, 0);
  Value multicastMask;
  if (copy.getMulticast()) {
    int64_t cluster = getClusterBlocks(copy);
    firstRow = arith::MulIOp::create(
        builder, loc, lowering.emitClusterRank(loc),
        lowering.indexConstant(loc, boxes->boxRows / cluster));
    multicastMask =
        LLVM::ConstantOp::create(builder, loc, builder.getI16Type(),
                                 builder.getI16IntegerAttr((1 << cluster) - 1));
  }
  Value row = toI32(builder, loc,
                    arith::AddIOp::create(builder, loc, origin[0], firstRow));
  auto clusterPointer =
      LLVM::LLVMPointerType::get(builder.getContext(), /*shared::cluster=*/7);
  for (int64_t panel = 0; panel < boxes->panels; ++panel) {
    Value firstColumn = lowering.indexConstant(loc, panel * boxes->boxColumns);
    Value column =
        toI32(builder, loc,
              arith::AddIOp::create(builder, loc, origin[1], firstColumn));
    Value destination =
        lowering.sharedElementPointer(loc, *tile, {firstRow, firstColumn});
    destination = LLVM::AddrSpaceCastOp::create(builder, loc, clusterPointer,
                                                destination);
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        builder, loc, destination, map, ValueRange{column, row}, *barrier,
        /*im2colOffsets=*/ValueRange(), multicastMask,
        /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
        /*isCTAOnly=*/false, /*group=*/nullptr, /*predicate=*/Value());
  }
  return success();
}

void tilec::populateWarpSpecializationLowerings(LoweringSet &set) {
  set.add<tile::WarpSpecializeOp>(lowerWarpSpecialize);
  set.add<tile::MbarrierInitOp>(lowerMbarrierInit);
  set.add<tile::MbarrierWaitOp>(lowerMbarrierWait);
  set.add<tile::MbarrierArriveOp>(lowerMbarrierArrive);
  set.add<tile::TmaReadyOp>(lowerTmaReady);
  set.add<tile::TileLoopOp>(lowerTileLoop);
  set.add<tile::TileCountOp>(lowerTileCount);
  set.add<tile::ConsumerGroupOp>(lowerConsumerGroup);
  set.add<tile::NamedBarrierOp>(lowerNamedBarrier);
}
