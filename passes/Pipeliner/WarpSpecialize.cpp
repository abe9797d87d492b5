//===- WarpSpecialize.cpp - The TMA + mbarrier producer/consumer schedule -===//
//
// The schedule of `tile-pipeline-loops` for a `tile.pipelined` loop on a
// target with TMA and wgmma, when every GEMM of the loop runs on wgmma and
// every producer copies a rank-2 global region into a tile whose layout a
// TMA box writes (a swizzle of 32, 64 or 128 bytes, rows of one swizzle span
// per panel). The launch becomes persistent, and its body
//
//   <the allocations before the first other op>
//   full  = alloc_shared [S] i64;  mbarrier_init full  count P
//   empty = alloc_shared [S] i64;  mbarrier_init empty count T / 32
//   ok    = tma_ready <the producers' tensors>
//   warp_specialize producer_threads 128 persistent {   // one thread
//     if ok { tile_loop t { <use_swizzle>; n = <trip count>
//               serial k < n { g = t * n + k; s = g % S; j = (g / S) % 2
//                              mbarrier_wait empty[s], 1 - j
//                              copy ... -> stage s barrier full[s] (each P) } }
//                              }
//   } consumer {                                        // the T threads
//     tile_loop t {
//       <the rest of the launch body before the loop>
//       if ok { serial k < n { g, s, j as above; mbarrier_wait full[s], j
//                              the consumers of iteration k on stage s
//                              mbarrier_arrive empty[stage of g - 1] } }
//       else  { <the cp.async schedule of PipelineLoops.cpp> }
//       <the rest of the launch body after the loop> }
//     tma_store_wait
//   }
//
// P is the number of producers (each TMA copy arrives once, with its bytes),
// T the launch's threads (each consumer warp arrives once on `empty`). Each
// block takes tiles of the grid until none is left (`tile.tile_loop`), and
// the iteration count g runs on across its tiles, so the producer fills the
// stages of the next tile while the consumers finish the current one (its
// epilogue included). The GEMMs are `async` with lag 1: each waits for the
// previous one only, so iteration k releases the stage of g - 1, and the
// last iteration of a tile is peeled with synchronous GEMMs inside `0 < n`,
// then releases the stages of its last two iterations. The producer runs up
// to S iterations ahead: the empty barrier of a stage completes once every
// consumer warp is done with it, the full barrier once its bytes landed.
// Phase parities follow TENSORCORES.md §7 (a fresh barrier counts its
// phase of parity 1 as completed, so the producer's first S waits pass).
//
// The epilogue's stores of a whole accumulator fragment into a global tensor
// region (`copy C_f, C[..]` after the loop) of at most 128 elements per
// consumer thread (64 in a block that fits twice on a multiprocessor)
// become TMA stores where shared memory has room for a
// staging tile of a band of its rows (the whole fragment, else half of it,
// ...): `if ok { copy C_f, C[..] staged C_s }
// else { copy C_f, C[..] }`, with C among the tensors `tma_ready` checks.
// The stores complete while the consumers go on with their next tile; they
// wait for them before they end (`tma_store_wait`).
//
// Where the tensors break TMA's rules at run time (`tma_ready` false: a row
// that is not a multiple of 16 bytes, a misaligned address, an empty tensor),
// the producer does nothing and the consumers take the cp.async schedule.
//
// Consumer ping-pong. A launch of one warpgroup (T = 128) whose shared tiles
// are all filled by the loop's producers, whose stages do not fit twice on
// a multiprocessor (else two blocks run side by side) and whose
// accumulators have at most 128 elements per thread gets two consumer
// groups of T threads (`consumer_groups 2`, 2T + 128 threads): group g takes
// the tiles g, g + 2, ... of the block's sequence (`tile_loop %i from g step
// 2`), so that one group's epilogue runs while the other's GEMMs keep the
// tensor cores busy. The groups take turns at their main loops:
//
//     if 0 < i { named_barrier turn[g], 2T }              // wait for it
//     more = i + 1 < tile_count
//     if ok { <main loop: after the last full-barrier wait,
//              if more { named_barrier turn[1 - g], 2T arrive }> }
//     else  { <cp.async main loop, ending in a barrier of the group>
//             if more { named_barrier turn[1 - g], 2T arrive } }
//
// so that the stages go to the groups in the producer's order (a group
// that ran ahead could wait on a full barrier two phases early, which
// `try_wait.parity` cannot tell from the phase it wants), and the cp.async
// fallback's stages are used by one group at a time. The empty barrier
// counts one group's warps. Each group has its own staging tile for the
// TMA stores (one stage per group of a tile staged twice).
//
// Clusters. Where the loop's trip count does not depend on the y block
// index, nothing but copies (which read zeros and drop writes outside their
// tensors) uses it, and a producer's region does not depend on it (B of
// C = A B: the same for every block of a grid column), the launch runs in
// clusters of two blocks (`cluster 2`) that take the tiles (x, 2q) and
// (x, 2q + 1) together. That producer's copy is `multicast`: each block
// loads half of the rows of each of its TMA boxes into the stage of both
// blocks, so the cluster reads the shared operand from L2 once. A stage is
// free once the consumers of both blocks released it, so the consumers
// arrive on the empty mbarrier of every block of the cluster (`{cluster}`,
// each counting twice the warps).
//
//===----------------------------------------------------------------------===//

#include "passes/Pipeliner/Pipelining.h"

#include "dialects/Tile/TileTarget.h"
#include "passes/Analysis/AccessAnalysis.h"
#include "passes/Analysis/Recompute.h"
#include "passes/Analysis/TensorMaps.h"
#include "passes/Layout/SharedLayoutChoice.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;

namespace {

/// Threads added for the producer role: one warpgroup (setmaxnreg works on
/// whole warpgroups).
constexpr int64_t kProducerThreads = 128;
/// The threads of a warpgroup: a launch of one gets consumer ping-pong.
constexpr int64_t kWarpgroupThreads = 128;
/// The consumer groups of a ping-pong launch.
constexpr int64_t kPingPongGroups = 2;
/// The most accumulator elements per thread of a ping-pong group: the 128
/// registers that fit beside the rest in the 232 each consumer gets.
constexpr int64_t kMaxPingPongElementsPerThread = 128;
/// The named barriers before the groups' turns: 0 for the block, 1 + g for
/// the threads of consumer group g (KernelLowering::emitBarrier).
constexpr int64_t kFirstTurnBarrier = 1 + kPingPongGroups;

/// The blocks of a cluster whose producers share a load.
constexpr int64_t kClusterBlocks = 2;
/// The rows of a swizzle pattern (1024, 512 or 256 bytes): each block's
/// band of a multicast TMA box starts at a whole pattern.
constexpr int64_t kSwizzlePatternRows = 8;

/// The fewest rows a TMA store's staging tile holds.
constexpr int64_t kMinStagingRows = 8;
/// The most accumulator elements per consumer thread whose epilogue becomes
/// a TMA store: the 128 registers of a 128x256 tile on 256 threads. Staged,
/// such a tile runs at 0.91-0.96x of cuBLAS at 4096^3 on the H200 against
/// 0.88x with the stores from registers, and 0.90x against 0.68x at
/// 8192x8192x1024 (docs/performance.md, session 7).
constexpr int64_t kMaxStagedElementsPerThread = 128;
/// The most accumulator elements per consumer thread staged in a kernel
/// that runs two blocks per multiprocessor: its consumers get 216 registers
/// (KernelLowering::getRegisterSplit), and beside 128 accumulator registers
/// the staging code spills (40 bytes for 128x128 tiles on 128 threads,
/// 0.57-0.65x of cuBLAS at 4096^3 against 0.70x with stores from registers).
constexpr int64_t kMaxStagedElementsTwoBlocks = 64;

/// sharedArenaBound of the tiles under `root`, those `plan` fills counted
/// `copies` times (for the stages they are yet to get).
uint64_t arenaBound(Operation *root, const PipelinePlan &plan, int64_t copies) {
  return sharedArenaBound(root, [&](tile::AllocSharedOp alloc) -> uint64_t {
    return plan.tiles.contains(alloc.getResult()) ? copies : 1;
  });
}

/// True if `value` is computed from `index`.
bool dependsOn(Value value, Value index) {
  llvm::SmallPtrSet<Value, 16> seen;
  SmallVector<Value> work = {value};
  while (!work.empty()) {
    Value next = work.pop_back_val();
    if (next == index)
      return true;
    if (!seen.insert(next).second)
      continue;
    if (Operation *def = next.getDefiningOp())
      llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// True if only copies (through pure ops) use `index`: a block whose index
/// is past the grid then reads zeros and writes nothing.
bool onlyCopiesUse(Value index) {
  llvm::SmallPtrSet<Value, 16> seen;
  SmallVector<Value> work = {index};
  while (!work.empty()) {
    Value next = work.pop_back_val();
    if (!seen.insert(next).second)
      continue;
    for (Operation *user : next.getUsers()) {
      if (isa<tile::CopyOp>(user))
        continue;
      if (user->getNumRegions() != 0 || !isMemoryEffectFree(user))
        return false;
      llvm::append_range(work, user->getResults());
    }
  }
  return true;
}

/// True if `op` stays before the roles: an allocation (the roles and their
/// tiles share it).
bool isAllocation(Operation &op) {
  return isa<tile::AllocSharedOp, tile::AllocFragmentOp, tile::AllocLocalOp,
             tile::AllocVarOp>(op);
}

/// Rewrites one loop; `qualifies` first.
class WarpSpecializer {
public:
  WarpSpecializer(tile::PipelinedOp loop, const PipelinePlan &plan)
      : loop(loop), plan(plan), builder(loop), loc(loop.getLoc()),
        stages(loop.getStages()) {}

  /// True if the loop can take this schedule.
  bool qualifies();
  /// Picks the producer whose copies a cluster shares (`multicast`), if
  /// the launch can run in clusters (see the header).
  void chooseCluster();
  void run();

private:
  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }
  /// True if the producer region sees `value`: defined before the split, a
  /// kernel argument or block index, or the loop's induction variable
  /// (which the producer maps to its own). The producer recomputes from
  /// such values, by pure ops, a copy's indices and the trip count
  /// (passes/Analysis/Recompute.h).
  bool isVisibleToProducer(Value value);
  /// Returns `value` in the producer region (its ops after the split cloned
  /// there, by `qualifies` pure), with `mapping`.
  Value cloneForProducer(Value value, IRMapping &mapping);
  /// Stage and phase parity of the `k`-th iteration of the block's loops,
  /// counted across its tiles.
  std::pair<Value, Value> stageAndParity(Value k);
  /// The iteration count, across the block's tiles, of iteration `k` of
  /// tile `tile` (`trips` iterations per tile).
  Value blockIteration(Value tile, Value trips, Value k);
  void emitProducer(tile::WarpSpecializeOp roles, Value ready);
  /// Emits iteration `k` (iteration `g` of the block) of the consumers; if
  /// `steady`, their GEMMs are async and the stage of iteration g - 1 is
  /// released (the last, peeled iteration of a tile waits for every GEMM
  /// and releases its stage and the previous one).
  void emitConsumerIteration(Value k, Value g, bool steady);
  /// Emits `mbarrier_arrive empty[stage of g - 1]` if `k > 0`.
  void releasePrevious(Value k, Value g);
  /// Picks the epilogue copies that become TMA stores while shared memory
  /// has room (`epilogue`), and allocates their staging tiles at the
  /// builder's insertion point.
  void planEpilogueStores();
  /// Makes each planned epilogue copy a TMA store where `ready` holds.
  void stageEpilogueStores(Value ready);
  /// True if the launch gets two consumer groups (see the header).
  bool choosePingPong();
  /// Emits `mbarrier_arrive empty[stage]`, on every block of the cluster.
  void releaseStage(Value stage);
  /// Emits `if condition { named_barrier turn[g], 2T }` for the group g
  /// running the consumers or, with `arrive`, arrives on the next group's.
  void emitTurn(Value condition, bool arrive);

  tile::PipelinedOp loop;
  const PipelinePlan &plan;
  OpBuilder builder;
  Location loc;
  int64_t stages;
  /// The first op of the launch body that runs in the roles.
  Operation *split = nullptr;
  /// The launch body's rasterization, which both roles repeat per tile.
  tile::UseSwizzleOp swizzle;
  Value full, empty;
  /// The consumer groups (kPingPongGroups or 1).
  int64_t groups = 1;
  /// The blocks of a cluster (kClusterBlocks or 1), and the producer whose
  /// copies they share.
  int64_t clusterBlocks = 1;
  tile::CopyOp multicast;
  /// In the consumer region of a ping-pong launch, its group's number, and
  /// whether the block has a tile after the group's current one.
  Value group, hasNextTile;
  /// The epilogue copies that become TMA stores, with their staging tiles.
  SmallVector<std::pair<tile::CopyOp, Value>> epilogue;
};

/// The staging tile's type for a TMA store of the whole fragment `source`
/// into a region of the tensor `target` in bands of `rows` rows, or null if
/// no TMA box reads it.
tile::BufferType stagingType(tile::BufferType source, tile::BufferType target,
                             int64_t rows) {
  SmallVector<int64_t> shape = {rows, source.getDimSize(1)};
  Type element = target.getElementType();
  auto layout =
      chooseSharedLayout(source.getContext(), shape, storageBytes(element) * 8,
                         tile::LayoutKind::Swizzled);
  if (!layout)
    return nullptr;
  auto type =
      tile::BufferType::get(shape, element, tile::MemoryScope::Shared, layout);
  return describeTmaBoxes(type) ? type : nullptr;
}

/// True for a copy of a whole rank-2 fragment into a region of a rank-2
/// float tensor argument: one a TMA store can make.
bool isFragmentStore(tile::CopyOp copy) {
  auto source = cast<tile::BufferType>(copy.getSource().getType());
  auto target = cast<tile::BufferType>(copy.getTarget().getType());
  return source.isFragment() && source.getRank() == 2 &&
         source.hasStaticShape() && copy.getSourceIndices().empty() &&
         target.isGlobal() && target.getRank() == 2 &&
         isa<BlockArgument>(copy.getTarget()) &&
         isa<FloatType>(source.getElementType()) &&
         isa<FloatType>(target.getElementType()) && !copy.getStaging();
}

bool WarpSpecializer::isVisibleToProducer(Value value) {
  if (value == loop.getInductionVar())
    return true;
  Operation *def = value.getDefiningOp();
  Block *body = &loop->getParentOfType<tile::LaunchOp>().getBody().front();
  if (!def) {
    // Kernel arguments and block indices are visible everywhere.
    auto argument = cast<BlockArgument>(value);
    return argument.getOwner() == body ||
           isa<tile::KernelOp>(argument.getOwner()->getParentOp());
  }
  Operation *ancestor = body->findAncestorOpInBlock(*def);
  return ancestor && ancestor->isBeforeInBlock(split);
}

bool WarpSpecializer::qualifies() {
  tile::TargetAttr target = tile::getTarget(loop);
  auto launch = dyn_cast<tile::LaunchOp>(loop->getParentOp());
  if (!target || !target.hasFeature(TargetFeature::Tma) ||
      !target.hasFeature(TargetFeature::Wgmma) ||
      !target.hasFeature(TargetFeature::Mbarrier))
    return false;
  if (!launch || launch.getWarpSpecialize() ||
      launch.getThreads() + kProducerThreads > 1024)
    return false;
  // Every GEMM of the loop runs on wgmma; at least one.
  bool hasGemm = false;
  loop.walk([&](tile::GemmOp) { hasGemm = true; });
  if (!hasGemm || plan.asyncCapableGemms.empty())
    return false;
  for (tile::CopyOp producer : plan.producers) {
    auto source = cast<tile::BufferType>(producer.getSource().getType());
    if (source.getRank() != 2 || !isa<BlockArgument>(producer.getSource()) ||
        !describeTmaBoxes(
            cast<tile::BufferType>(producer.getTarget().getType())))
      return false;
  }
  Block &body = launch.getBody().front();
  for (Operation &op : body.without_terminator())
    if (!isAllocation(op)) {
      split = &op;
      break;
    }
  auto visible = [&](Value value) { return isVisibleToProducer(value); };
  Recomputability producerValues(visible);
  if (!producerValues.canRecompute(loop.getUpperBound()))
    return false;
  for (tile::CopyOp producer : plan.producers)
    for (Value index : producer.getSourceIndices())
      if (!producerValues.canRecompute(index))
        return false;
  if (choosePingPong())
    groups = kPingPongGroups;
  return true;
}

void WarpSpecializer::chooseCluster() {
  auto launch = cast<tile::LaunchOp>(loop->getParentOp());
  if (!tile::getTarget(loop).hasFeature(TargetFeature::Clusters) ||
      launch.getBlockIndices().size() < 2)
    return;
  // A grid of one row (or a body that ignores the row) would leave every
  // cluster's second block without a tile.
  Value row = launch.getBlockIndices()[1];
  if (row.use_empty() || matchPattern(launch.getGrid()[1], m_One()))
    return;
  if (dependsOn(loop.getUpperBound(), row) || !onlyCopiesUse(row))
    return;
  // The largest tile whose region is the same in every row of the grid and
  // whose boxes split into whole swizzle patterns.
  uint64_t largest = 0;
  for (tile::CopyOp producer : plan.producers) {
    if (llvm::any_of(producer.getSourceIndices(),
                     [&](Value index) { return dependsOn(index, row); }))
      continue;
    auto type = cast<tile::BufferType>(producer.getTarget().getType());
    std::optional<TmaBoxes> boxes = describeTmaBoxes(type);
    if (!boxes ||
        boxes->boxRows % (kClusterBlocks * kSwizzlePatternRows) != 0 ||
        sharedTileBytes(type) <= largest)
      continue;
    largest = sharedTileBytes(type);
    multicast = producer;
  }
  if (multicast)
    clusterBlocks = kClusterBlocks;
}

void WarpSpecializer::releaseStage(Value stage) {
  auto arrive = tile::MbarrierArriveOp::create(builder, loc, empty, stage);
  arrive.setCluster(clusterBlocks > 1);
}

bool WarpSpecializer::choosePingPong() {
  auto launch = cast<tile::LaunchOp>(loop->getParentOp());
  if (launch.getThreads() != kWarpgroupThreads ||
      kPingPongGroups * launch.getThreads() + kProducerThreads > 1024)
    return false;
  // Every shared tile is one the producers fill: the groups share no other.
  WalkResult shared = launch.walk([&](tile::AllocSharedOp alloc) {
    return plan.tiles.contains(alloc.getResult()) ? WalkResult::advance()
                                                  : WalkResult::interrupt();
  });
  // A block whose stages fit twice on a multiprocessor runs as two blocks
  // of one consumer warpgroup each instead, with twice the stages in
  // flight: 128x128x32 on 3 stages runs at 0.54-0.83x of cuBLAS as two
  // blocks on an H100 and at 0.38-0.57x as ping-pong, where 128x128x64 on
  // 4 stages (one block either way) goes from 0.82-0.93x to 0.82-0.97x
  // (docs/performance.md, session 16).
  if (tile::getTarget(loop).getDescription().fitsBlocksPerMultiprocessor(
          2, arenaBound(launch, plan, stages)))
    return false;
  // Each group's accumulators fit the registers the producers leave it.
  WalkResult wide = loop.walk([&](tile::GemmOp gemm) {
    auto c = cast<tile::BufferType>(gemm.getC().getType());
    return c.getNumElements() / launch.getThreads() >
                   kMaxPingPongElementsPerThread
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return !shared.wasInterrupted() && !wide.wasInterrupted();
}

void WarpSpecializer::emitTurn(Value condition, bool arrive) {
  auto guard = tile::IfOp::create(builder, loc, condition, /*withElse=*/false);
  OpBuilder::InsertionGuard insertion(builder);
  builder.setInsertionPoint(guard.getThenRegion().front().getTerminator());
  Value turn = group;
  if (arrive)
    turn = arith::RemUIOp::create(
        builder, loc, arith::AddIOp::create(builder, loc, group, constant(1)),
        constant(groups));
  // Both groups' threads: the waiting group's and the arriving one's.
  tile::NamedBarrierOp::create(
      builder, loc,
      arith::AddIOp::create(builder, loc, turn, constant(kFirstTurnBarrier)),
      2 * kWarpgroupThreads, arrive);
}

Value WarpSpecializer::cloneForProducer(Value value, IRMapping &mapping) {
  return recompute(
      value, [&](Value visible) { return isVisibleToProducer(visible); },
      builder, mapping);
}

Value WarpSpecializer::blockIteration(Value tile, Value trips, Value k) {
  return arith::AddIOp::create(
      builder, loc, arith::MulIOp::create(builder, loc, tile, trips), k);
}

std::pair<Value, Value> WarpSpecializer::stageAndParity(Value k) {
  Value stage = arith::RemUIOp::create(builder, loc, k, constant(stages));
  Value round = arith::DivUIOp::create(builder, loc, k, constant(stages));
  Value parity = arith::RemUIOp::create(builder, loc, round, constant(2));
  return {stage, parity};
}

void WarpSpecializer::emitProducer(tile::WarpSpecializeOp roles, Value ready) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(roles.getProducer().front().getTerminator());
  auto ifReady = tile::IfOp::create(builder, loc, ready, /*withElse=*/false);
  builder.setInsertionPoint(ifReady.getThenRegion().front().getTerminator());
  auto tiles = tile::TileLoopOp::create(builder, loc);
  builder.setInsertionPoint(tiles.getBody().front().getTerminator());
  if (swizzle)
    builder.clone(*swizzle);
  IRMapping outside;
  Value trips = cloneForProducer(loop.getUpperBound(), outside);
  auto serial = tile::SerialOp::create(builder, loc, trips);
  builder.setInsertionPoint(serial.getBody().front().getTerminator());
  Value k = serial.getInductionVar();
  auto [stage, parity] =
      stageAndParity(blockIteration(tiles.getIteration(), trips, k));
  // The stage is free once the consumers released its previous round.
  Value freeParity = arith::SubIOp::create(builder, loc, constant(1), parity);
  tile::MbarrierWaitOp::create(builder, loc, empty, stage, freeParity);
  IRMapping mapping = outside;
  mapping.map(loop.getInductionVar(), k);
  mapStages(builder, loc, plan, mapping, stage);
  for (tile::CopyOp producer : plan.producers) {
    SmallVector<Value> indices;
    for (Value index : producer.getSourceIndices())
      indices.push_back(cloneForProducer(index, mapping));
    auto copy = tile::CopyOp::create(
        builder, producer.getLoc(), producer.getSource(), indices,
        mapping.lookup(producer.getTarget()), ValueRange(), full, stage,
        /*staging=*/nullptr, /*async=*/false);
    copy.setMulticast(producer == multicast);
  }
}

void WarpSpecializer::releasePrevious(Value k, Value g) {
  Value later = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                      constant(0), k);
  auto guard = tile::IfOp::create(builder, loc, later, /*withElse=*/false);
  OpBuilder::InsertionGuard insertion(builder);
  builder.setInsertionPoint(guard.getThenRegion().front().getTerminator());
  Value previous = arith::SubIOp::create(builder, loc, g, constant(1));
  releaseStage(
      arith::RemUIOp::create(builder, loc, previous, constant(stages)));
}

void WarpSpecializer::emitConsumerIteration(Value k, Value g, bool steady) {
  auto [stage, parity] = stageAndParity(g);
  tile::MbarrierWaitOp::create(builder, loc, full, stage, parity);
  // The group has waited for its last full stage of the tile: the next
  // group may wait for the following ones (its GEMMs queue behind these).
  if (!steady && groups > 1)
    emitTurn(hasNextTile, /*arrive=*/true);
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), k);
  mapStages(builder, loc, plan, mapping, stage);
  for (Operation &op : loop.getBody().front().without_terminator()) {
    auto copy = dyn_cast<tile::CopyOp>(op);
    if (copy && llvm::is_contained(plan.producers, copy))
      continue;
    // The producers' index arithmetic is dead here; canonicalization
    // removes what is not used.
    Operation *clone = builder.clone(op, mapping);
    if (auto gemm = dyn_cast<tile::GemmOp>(clone); gemm && steady)
      gemm.setAsync(true);
  }
  // The previous iteration's GEMMs are done reading their stage (and, after
  // the last iteration's synchronous GEMMs, its own is free too).
  releasePrevious(k, g);
  if (!steady)
    releaseStage(stage);
}

void WarpSpecializer::planEpilogueStores() {
  auto launch = cast<tile::LaunchOp>(loop->getParentOp());
  tile::TargetAttr target = tile::getTarget(loop);
  // Every shared tile, the mbarrier rings (already allocated) included and
  // the producers' tiles already staged.
  uint64_t arena = arenaBound(launch->getParentOp(), plan, /*copies=*/1);
  uint64_t limit = target.getDescription().MaxSharedMemoryPerBlock;
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
    auto copy = dyn_cast<tile::CopyOp>(op);
    if (!copy || !isFragmentStore(copy))
      continue;
    auto source = cast<tile::BufferType>(copy.getSource().getType());
    auto tensor = cast<tile::BufferType>(copy.getTarget().getType());
    int64_t elementsPerThread = source.getNumElements() / launch.getThreads();
    if (elementsPerThread > kMaxStagedElementsPerThread)
      continue;
    // The widest band of rows (a power-of-two part of them) that fits.
    for (int64_t rows = source.getDimSize(0);
         rows >= kMinStagingRows && source.getDimSize(0) % rows == 0;
         rows /= 2) {
      tile::BufferType type = stagingType(source, tensor, rows);
      if (!type)
        break;
      if (groups > 1) {
        SmallVector<int64_t> shape = {groups};
        llvm::append_range(shape, type.getShape());
        type = tile::BufferType::get(shape, type.getElementType(),
                                     type.getScope(), type.getLayout());
      }
      uint64_t bytes = alignedSharedBytes(type);
      // One consumer warpgroup: two blocks per multiprocessor if they fit.
      bool twoBlocks =
          groups == 1 && launch.getThreads() == 128 &&
          target.getDescription().fitsBlocksPerMultiprocessor(2, arena + bytes);
      if (twoBlocks && elementsPerThread > kMaxStagedElementsTwoBlocks)
        break;
      if (arena + bytes <= limit) {
        arena += bytes;
        epilogue.push_back(
            {copy, tile::AllocSharedOp::create(builder, copy.getLoc(), type,
                                               /*offset=*/nullptr)});
        break;
      }
    }
  }
}

void WarpSpecializer::stageEpilogueStores(Value ready) {
  OpBuilder::InsertionGuard guard(builder);
  for (auto [copy, staging] : epilogue) {
    builder.setInsertionPoint(copy);
    auto paths = tile::IfOp::create(builder, copy.getLoc(), ready,
                                    /*withElse=*/true);
    builder.setInsertionPoint(paths.getThenRegion().front().getTerminator());
    if (groups > 1) {
      // The group's own stage of the staging tile.
      auto type = cast<tile::BufferType>(staging.getType());
      staging = tile::StageViewOp::create(
          builder, copy.getLoc(),
          tile::BufferType::get(type.getShape().drop_front(),
                                type.getElementType(), type.getScope(),
                                type.getLayout()),
          staging, group);
    }
    tile::CopyOp::create(builder, copy.getLoc(), copy.getSource(), ValueRange(),
                         copy.getTarget(), copy.getTargetIndices(),
                         /*barrier=*/nullptr,
                         /*barrierIndex=*/nullptr, staging, /*async=*/false);
    copy->moveBefore(paths.getElseRegion().front().getTerminator());
  }
}

void WarpSpecializer::run() {
  auto launch = cast<tile::LaunchOp>(loop->getParentOp());
  Block &body = launch.getBody().front();
  for (Operation &op : body)
    if (auto rasterization = dyn_cast<tile::UseSwizzleOp>(op))
      swizzle = rasterization;
  builder.setInsertionPoint(split);
  auto barrierType = tile::BufferType::get({stages}, builder.getI64Type(),
                                           tile::MemoryScope::Shared);
  full = tile::AllocSharedOp::create(builder, loc, barrierType,
                                     /*offset=*/nullptr);
  empty = tile::AllocSharedOp::create(builder, loc, barrierType,
                                      /*offset=*/nullptr);
  tile::MbarrierInitOp::create(builder, loc, full,
                               static_cast<int64_t>(plan.producers.size()));
  tile::MbarrierInitOp::create(builder, loc, empty,
                               launch.getThreads() / 32 * clusterBlocks);
  llvm::SetVector<Value> tensors;
  for (tile::CopyOp producer : plan.producers)
    tensors.insert(producer.getSource());
  planEpilogueStores();
  for (auto [copy, staging] : epilogue)
    tensors.insert(copy.getTarget());
  Value ready = tile::TmaReadyOp::create(builder, loc, builder.getI1Type(),
                                         tensors.getArrayRef());
  auto roles = tile::WarpSpecializeOp::create(builder, loc, kProducerThreads);
  roles.setPersistent(true);
  roles.setConsumerGroups(groups);
  roles.setClusterBlocks(clusterBlocks);

  // Everything from the split on runs in the consumers, once per tile (per
  // tile of the group's share).
  builder.setInsertionPoint(roles.getConsumer().front().getTerminator());
  tile::TileLoopOp consumerTiles;
  if (groups > 1) {
    group = tile::ConsumerGroupOp::create(builder, loc, builder.getIndexType());
    consumerTiles = tile::TileLoopOp::create(builder, loc, group, groups);
  } else {
    consumerTiles = tile::TileLoopOp::create(builder, loc);
  }
  Block &consumer = consumerTiles.getBody().front();
  while (roles->getNextNode() != body.getTerminator())
    roles->getNextNode()->moveBefore(consumer.getTerminator());
  if (!epilogue.empty())
    tile::TmaStoreWaitOp::create(builder, loc);
  emitProducer(roles, ready);
  stageEpilogueStores(ready);

  builder.setInsertionPoint(loop);
  Value tile = consumerTiles.getIteration();
  if (groups > 1) {
    emitTurn(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                   constant(0), tile),
             /*arrive=*/false);
    Value next = arith::AddIOp::create(builder, loc, tile, constant(1));
    Value count =
        tile::TileCountOp::create(builder, loc, builder.getIndexType());
    hasNextTile = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                        next, count);
  }
  auto paths = tile::IfOp::create(builder, loc, ready, /*withElse=*/true);
  loop->moveBefore(paths.getElseRegion().front().getTerminator());
  {
    OpBuilder::InsertionGuard insertion(builder);
    builder.setInsertionPoint(paths.getThenRegion().front().getTerminator());
    // Every path from an async GEMM to the end passes the synchronous last
    // iteration (ptxas serializes every wgmma otherwise).
    Value trips = loop.getUpperBound();
    Value runs = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                       constant(0), trips);
    auto runsGuard =
        tile::IfOp::create(builder, loc, runs, /*withElse=*/groups > 1);
    if (groups > 1) {
      // Without iterations, the group hands its turn on at once.
      OpBuilder::InsertionGuard inner(builder);
      builder.setInsertionPoint(
          runsGuard.getElseRegion().front().getTerminator());
      emitTurn(hasNextTile, /*arrive=*/true);
    }
    {
      OpBuilder::InsertionGuard inner(builder);
      builder.setInsertionPoint(
          runsGuard.getThenRegion().front().getTerminator());
      Value last = arith::SubIOp::create(builder, loc, trips, constant(1));
      auto serial = tile::SerialOp::create(builder, loc, last);
      {
        OpBuilder::InsertionGuard step(builder);
        builder.setInsertionPoint(serial.getBody().front().getTerminator());
        Value k = serial.getInductionVar();
        emitConsumerIteration(k, blockIteration(tile, trips, k),
                              /*steady=*/true);
      }
      emitConsumerIteration(last, blockIteration(tile, trips, last),
                            /*steady=*/false);
    }
    // Every consumer is done with the stages when the loop ends.
    tile::BarrierOp::create(builder, loc);
  }
  pipelineWithAsyncCopies(loop, plan);
  if (groups > 1) {
    // The cp.async path hands the turn on once the group's threads are done
    // with the stages, which the next group's copies overwrite: after the
    // barrier that ends its drain (PipelineLoops.cpp).
    builder.setInsertionPoint(paths.getElseRegion().front().getTerminator());
    emitTurn(hasNextTile, /*arrive=*/true);
  }
}

} // namespace

bool tilec::warpSpecialize(tile::PipelinedOp loop, const PipelinePlan &plan,
                           bool allowClusters) {
  WarpSpecializer specializer(loop, plan);
  if (!specializer.qualifies())
    return false;
  if (allowClusters)
    specializer.chooseCluster();
  stageTiles(plan, loop.getStages());
  specializer.run();
  return true;
}
