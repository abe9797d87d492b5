//===- Parallel.cpp - Parallel loops distributed over threads -------------===//
//
// The lowering of `tile.parallel`. A loop over the registers of a
// fragment layout (`#tile.mma`, `#tile.slice`, `#tile.replicated`) emits its
// body once per register the layout gives each thread, at that register's
// element (FragmentElements); a row statistic in the slice of a `#tile.mma`
// loop's layout is read from the register holding the row. With layout
// `#tile.flat<vec = W>` the loop runs in steps; in each step a thread handles W
// consecutive flat elements
// ("lanes"). The body is emitted once per lane, op by op, so every lane
// executes the body's ops in order while lanes interleave (iterations of a
// parallel loop are independent). Vectorized accesses (see
// passes/Analysis/AccessAnalysis.h) read or write the lanes of a chunk with
// one vector load/store. They are emitted only in the step's fast path,
// which runs when every vectorized access is in bounds as a whole; otherwise
// the slow path accesses every lane separately with a bounds check. A loop
// that accesses shared memory ends with a barrier (see SharedMemory.cpp).
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"
#include "codegen/Conversion/TileToLLVM/SharedReadBarriers.h"

#include "codegen/Conversion/TileToLLVM/FragmentElements.h"

#include "dialects/Tile/TileTarget.h"

#include "codegen/CodegenLimits.h"
#include "passes/Analysis/AccessAnalysis.h"
#include "passes/Analysis/CodeSize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;

namespace {

/// How one `tile.parallel` loop is emitted.
struct ParallelPlan {
  tile::ParallelOp loop;
  tile::FlatDistribution distribution;
  /// Emit every step separately instead of a loop over steps.
  bool unrolled = false;
  /// The vectorized accesses of the body and their chunk widths (>= 2).
  llvm::MapVector<Operation *, int64_t> chunkWidths;
  /// The vectorized accesses of shared tiles and their chunk widths (>= 2):
  /// in bounds by construction, so vectorized on both paths.
  llvm::MapVector<Operation *, int64_t> sharedChunkWidths;
  /// The vectorized accesses whose row stride is checked at run time.
  llvm::SmallPtrSet<Operation *, 4> dynamicRowStride;
  /// In a loop without vectorized accesses, the body's range tests
  /// (GuardTest) that a step's fast path proves for all its lanes.
  llvm::SmallPtrSet<Operation *, 4> guards;

  /// Whether steps have a fast path and a slow one.
  bool hasFastPath() const { return !chunkWidths.empty() || !guards.empty(); }
  /// An unrolled loop of several whole steps with vectorized accesses: a
  /// thread whose steps are all in bounds runs their fast paths with no test
  /// between them (its loads in flight together), the others each step's
  /// own test.
  bool wholeLoopFastPath = false;
};

/// How a value of a parallel loop's body changes from a step's lane to the
/// next (the lanes differ by one in the innermost induction variable).
enum class Slope { Constant, Increasing, Decreasing, Unknown };

/// A range test of the body of a one-row parallel loop: `index < bound`
/// (`<=`, `>`, `>=`, signed or unsigned, either way round) where `index`
/// changes linearly from lane to lane (sums, differences and products by
/// constants of the innermost induction variable and values that do not
/// depend on it) and `bound` does not change. The index of the lanes between
/// a step's first and last lies between theirs, so if the test gives the
/// same value at both it gives that value at every lane (unsigned: where
/// that means `0 <= index < bound`, with `bound` non-negative). The fast
/// path proves the value the test has where the index is smallest along the
/// row: true for layernorm's `k * block_N + j < N ? (x - mean)^2 : 0`,
/// false for FlashAttention's `k * block_N + j >= S ? -inf : 0`.
struct GuardTest {
  arith::CmpIOp cmp;
  Value bound;
  /// The value the fast path proves.
  bool proven = true;
  bool isUnsigned = false;

  /// The test of `op` if it is one in `loop`.
  static std::optional<GuardTest> match(Operation &op, tile::ParallelOp loop);
};

/// The slope of `value` in `loop` (Unknown for anything but the linear
/// functions GuardTest describes).
Slope slopeOf(Value value, tile::ParallelOp loop, unsigned depth = 8) {
  Block &body = loop.getBody().front();
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (argument.getOwner() != &body)
      return loop->isAncestor(argument.getOwner()->getParentOp())
                 ? Slope::Unknown
                 : Slope::Constant;
    // The other induction variables are 0 in a one-row loop.
    return argument.getArgNumber() + 1 == body.getNumArguments()
               ? Slope::Increasing
               : Slope::Constant;
  }
  Operation *definition = value.getDefiningOp();
  if (!loop->isProperAncestor(definition) || matchPattern(value, m_Constant()))
    return Slope::Constant;
  if (!depth || !isPure(definition) || definition->getNumRegions())
    return Slope::Unknown;
  SmallVector<Slope> slopes;
  for (Value operand : definition->getOperands())
    slopes.push_back(slopeOf(operand, loop, depth - 1));
  if (llvm::all_of(slopes, [](Slope s) { return s == Slope::Constant; }))
    return Slope::Constant;
  auto negate = [](Slope s) {
    return s == Slope::Increasing   ? Slope::Decreasing
           : s == Slope::Decreasing ? Slope::Increasing
                                    : s;
  };
  auto add = [](Slope a, Slope b) {
    if (a == Slope::Constant)
      return b;
    if (b == Slope::Constant || a == b)
      return a;
    return Slope::Unknown;
  };
  if (isa<arith::AddIOp>(definition))
    return add(slopes[0], slopes[1]);
  if (isa<arith::SubIOp>(definition))
    return add(slopes[0], negate(slopes[1]));
  if (isa<arith::MulIOp>(definition)) {
    // A product by a constant of known sign.
    bool lhsVaries = slopes[0] != Slope::Constant;
    APInt factor;
    if ((lhsVaries && slopes[1] != Slope::Constant) ||
        !matchPattern(definition->getOperand(lhsVaries ? 1 : 0),
                      m_ConstantInt(&factor)) ||
        factor.isZero())
      return Slope::Unknown;
    Slope varying = slopes[lhsVaries ? 0 : 1];
    return factor.isNegative() ? negate(varying) : varying;
  }
  return Slope::Unknown;
}

std::optional<GuardTest> GuardTest::match(Operation &op,
                                          tile::ParallelOp loop) {
  auto cmp = dyn_cast<arith::CmpIOp>(op);
  if (!cmp)
    return std::nullopt;
  Slope lhs = slopeOf(cmp.getLhs(), loop), rhs = slopeOf(cmp.getRhs(), loop);
  bool indexOnLeft = rhs == Slope::Constant;
  Slope slope = indexOnLeft ? lhs : rhs;
  if ((lhs == Slope::Constant) == (rhs == Slope::Constant) ||
      (slope != Slope::Increasing && slope != Slope::Decreasing))
    return std::nullopt;
  using P = arith::CmpIPredicate;
  P predicate = cmp.getPredicate();
  bool less = llvm::is_contained({P::slt, P::sle, P::ult, P::ule}, predicate);
  bool greater =
      llvm::is_contained({P::sgt, P::sge, P::ugt, P::uge}, predicate);
  if (!less && !greater)
    return std::nullopt;
  GuardTest test{cmp, indexOnLeft ? cmp.getRhs() : cmp.getLhs()};
  // As `index < bound` or not; true where the index is small, which is at
  // the row's start if it increases.
  bool below = less == indexOnLeft;
  test.proven = below == (slope == Slope::Increasing);
  test.isUnsigned =
      llvm::is_contained({P::ult, P::ule, P::ugt, P::uge}, predicate);
  // Unsigned, only `0 <= index < bound` is a range of the lane.
  if (test.isUnsigned && test.proven != below)
    return std::nullopt;
  return test;
}

/// The loads of a loop body over registers that several registers may
/// share: a read of a global tensor or a replicated fragment the loop does
/// not write, whose indices depend on induction variables that take the
/// same values in those registers (the bias `bias[j]` of the accumulator
/// registers of one column, the row maximum `m[i]` of those of one row).
class SharedLoads {
public:
  explicit SharedLoads(tile::ParallelOp loop);

  /// The value a register already loaded for `load` with `lane`'s values of
  /// the induction variables it depends on, or null.
  Value lookup(tile::LoadOp load, Lane &lane) const;
  /// Records that `lane` loaded `value` for `load`.
  void record(tile::LoadOp load, Lane &lane, Value value);

private:
  /// The lane's values of the induction variables `load` depends on.
  SmallVector<Value> key(tile::LoadOp load, Lane &lane) const;

  tile::ParallelOp loop;
  /// Per shareable load, the induction variables its indices depend on.
  llvm::DenseMap<Operation *, SmallVector<Value>> dependencies;
  /// Per shareable load, the values loaded so far and their keys.
  llvm::DenseMap<Operation *, SmallVector<std::pair<SmallVector<Value>, Value>>>
      loaded;
};

SharedLoads::SharedLoads(tile::ParallelOp loop) : loop(loop) {
  Block &body = loop.getBody().front();
  llvm::SmallPtrSet<Value, 4> written;
  loop.getBody().walk(
      [&](tile::StoreOp store) { written.insert(store.getBuffer()); });
  for (Operation &op : body.without_terminator()) {
    auto load = dyn_cast<tile::LoadOp>(op);
    if (!load || written.contains(load.getBuffer()))
      continue;
    // Global tensors and replicated fragments (FlashAttention's m[i]) read
    // the same value wherever the indices are the same.
    auto type = cast<tile::BufferType>(load.getBuffer().getType());
    if (!type.isGlobal() &&
        !isa_and_nonnull<tile::ReplicatedLayoutAttr>(type.getLayout()))
      continue;
    // The induction variables the indices depend on, through the body's
    // pure ops; an index computed from a memory read is not shared.
    SmallVector<Value> worklist(load.getIndices());
    llvm::SmallSetVector<Value, 4> ivs;
    bool shareable = true;
    while (!worklist.empty() && shareable) {
      Value value = worklist.pop_back_val();
      if (auto argument = dyn_cast<BlockArgument>(value)) {
        if (argument.getOwner() == &body)
          ivs.insert(argument);
        continue;
      }
      Operation *definition = value.getDefiningOp();
      if (!loop->isProperAncestor(definition))
        continue;
      shareable = isPure(definition) && definition->getNumRegions() == 0;
      llvm::append_range(worklist, definition->getOperands());
    }
    if (shareable)
      dependencies[load] = SmallVector<Value>(ivs.begin(), ivs.end());
  }
}

SmallVector<Value> SharedLoads::key(tile::LoadOp load, Lane &lane) const {
  SmallVector<Value> values;
  for (Value iv : dependencies.lookup(load))
    values.push_back(lane.map.lookup(iv));
  return values;
}

Value SharedLoads::lookup(tile::LoadOp load, Lane &lane) const {
  auto found = loaded.find(load);
  if (!dependencies.contains(load) || found == loaded.end())
    return Value();
  SmallVector<Value> values = key(load, lane);
  for (const auto &[keyValues, value] : found->second)
    if (keyValues == values)
      return value;
  return Value();
}

void SharedLoads::record(tile::LoadOp load, Lane &lane, Value value) {
  if (dependencies.contains(load))
    loaded[load].push_back({key(load, lane), value});
}

/// Emits the parallel loops of one kernel.
class ParallelLowering {
public:
  explicit ParallelLowering(KernelLowering &lowering)
      : lowering(lowering), builder(lowering.getBuilder()) {}

  LogicalResult emit(tile::ParallelOp loop, Lane &outer);

private:
  ParallelPlan plan(tile::ParallelOp loop, tile::FlatLayoutAttr layout);
  LogicalResult emitRegisters(tile::ParallelOp loop, Lane &outer);
  LogicalResult emitRegister(tile::ParallelOp loop,
                             const RegisterElement &element, Value reg,
                             Value storingThread, Lane &outer,
                             SharedLoads *sharedLoads);
  /// The flat index of the thread's first element in `step`.
  Value stepFlatIndex(const ParallelPlan &plan, Value step);
  /// The lanes of `step` (a thread's elements of the step, one per lane of
  /// the vector width), at the builder's insertion point.
  SmallVector<Lane> stepLanes(const ParallelPlan &plan, Value step,
                              Lane &outer);
  /// True where the step of `lanes` may take its fast path: every
  /// vectorized access in bounds as a whole, or every guard test true at
  /// the first and the last lane.
  Value fastCondition(const ParallelPlan &plan, ArrayRef<Lane> lanes);
  /// Emits `step`; with `tested` its fast path (if the plan has one) under
  /// fastCondition, else the fast path alone. `guardTail`: only threads
  /// whose elements exist run it.
  LogicalResult emitStep(const ParallelPlan &plan, Value step, Lane &outer,
                         bool guardTail, bool tested = true);
  /// Emits every step of an unrolled loop (the partial last one tested).
  LogicalResult emitUnrolledSteps(const ParallelPlan &plan, Lane &outer,
                                  bool tested);
  LogicalResult emitLanes(const ParallelPlan &plan, MutableArrayRef<Lane> lanes,
                          bool fast);
  bool isProvenInBounds(arith::CmpIOp cmp, const ParallelPlan &plan,
                        Lane &lane);
  void emitVectorLoad(tile::LoadOp load, MutableArrayRef<Lane> lanes,
                      int64_t chunkWidth);
  void emitVectorStore(tile::StoreOp store, MutableArrayRef<Lane> lanes,
                       int64_t chunkWidth);
  /// The storage and element types of `buffer`, a global tensor or a
  /// shared tile.
  std::pair<Type, Type> elementTypes(Value buffer);
  /// The address in `lane` of the element that `access` (of a global
  /// tensor or a shared tile) reads or writes.
  Value lanePointer(tile::AccessOpInterface access, Lane &lane);

  KernelLowering &lowering;
  OpBuilder &builder;
};

LogicalResult ParallelLowering::emit(tile::ParallelOp loop, Lane &outer) {
  if (outer.fragmentIndex)
    return loop.emitOpError("nested inside another 'tile.parallel' is not "
                            "supported by the code generator");
  if (!loop.getLayoutAttr())
    return loop.emitOpError("has no #tile.flat layout; run "
                            "-tile-infer-layouts first");
  // A replicated fragment is read at any index, a slice of the loop's
  // layout at the induction variable it keeps; the others only as the loop
  // distributes them.
  WalkResult fragmentCheck =
      loop.getBody().walk([&](tile::AccessOpInterface access) {
        auto type = cast<tile::BufferType>(access.getBuffer().getType());
        auto slice = dyn_cast_or_null<tile::SliceLayoutAttr>(type.getLayout());
        bool readAsSlice = slice && !access.isWrite() &&
                           slice.getParent() == loop.getLayoutAttr() &&
                           getSlicedDim(access, loop) == slice.getDim();
        if (type.isFragment() && !readAsSlice &&
            !isa<tile::ReplicatedLayoutAttr>(type.getLayout()) &&
            (type.getLayout() != loop.getLayoutAttr() ||
             !isDistributedFragmentAccess(access, loop))) {
          access->emitOpError("accesses a fragment whose layout differs from "
                              "its loop's; run -tile-infer-layouts");
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
  if (fragmentCheck.wasInterrupted())
    return failure();
  auto layout = dyn_cast<tile::FlatLayoutAttr>(loop.getLayoutAttr());
  if (!layout)
    return emitRegisters(loop, outer);
  if (loop.getExtents().back() % layout.getVec() != 0)
    return loop.emitOpError("layout ")
           << layout << " needs a vector width dividing the innermost extent";
  ParallelPlan parallelPlan = plan(loop, layout);
  const tile::FlatDistribution &distribution = parallelPlan.distribution;
  Location loc = loop.getLoc();
  if (parallelPlan.unrolled) {
    if (!parallelPlan.wholeLoopFastPath)
      return emitUnrolledSteps(parallelPlan, outer, /*tested=*/true);
    int64_t wholeSteps =
        distribution.steps() - (distribution.hasPartialStep() ? 1 : 0);
    Value allFast;
    for (int64_t step = 0; step < wholeSteps; ++step) {
      SmallVector<Lane> lanes =
          stepLanes(parallelPlan, lowering.indexConstant(loc, step), outer);
      Value fast = fastCondition(parallelPlan, lanes);
      allFast =
          allFast ? arith::AndIOp::create(builder, loc, allFast, fast) : fast;
    }
    auto paths =
        scf::IfOp::create(builder, loc, allFast, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(paths.thenBlock()->getTerminator());
    if (failed(emitUnrolledSteps(parallelPlan, outer, /*tested=*/false)))
      return failure();
    builder.setInsertionPoint(paths.elseBlock()->getTerminator());
    return emitUnrolledSteps(parallelPlan, outer, /*tested=*/true);
  }
  auto steps =
      scf::ForOp::create(builder, loc, lowering.indexConstant(loc, 0),
                         lowering.indexConstant(loc, distribution.steps()),
                         lowering.indexConstant(loc, 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(steps.getBody()->getTerminator());
  return emitStep(parallelPlan, steps.getInductionVar(), outer,
                  distribution.hasPartialStep());
}

LogicalResult ParallelLowering::emitRegisters(tile::ParallelOp loop,
                                              Lane &outer) {
  Location loc = loop.getLoc();
  Attribute layout = loop.getLayoutAttr();
  FragmentElements elements(lowering, loc, loop.getExtents(), layout);
  if (failed(elements.initialize())) {
    tile::TargetAttr target = tile::getTarget(loop);
    return loop.emitOpError("over a fragment in the ")
           << layout << " layout is not supported by the "
           << (target ? target.getArch() : StringRef("tilec"))
           << " code generator";
  }
  bool replicated = elements.isReplicatedLayout();
  int64_t registers = elements.getNumRegisters();
  uint64_t unrolledCost = llvm::SaturatingMultiply(
      estimateEmittedCost(loop.getBody().front()), uint64_t(registers));
  // A replicated loop over more elements than stay in registers (whose
  // fragments are indexed in local memory anyway) runs as a loop.
  if (!replicated || (registers <= kMaxSelectedRegisters &&
                      unrolledCost <= kMaxUnrolledParallelCost)) {
    SharedLoads sharedLoads(loop);
    for (int64_t reg = 0; reg < registers; ++reg) {
      Value regValue = lowering.indexConstant(loc, reg);
      if (failed(emitRegister(loop, elements.lookup(reg), regValue,
                              elements.ownsElement(regValue), outer,
                              &sharedLoads)))
        return failure();
    }
    return success();
  }
  // A long replicated loop: every thread runs the iterations one by one.
  auto iterations = scf::ForOp::create(
      builder, loc, lowering.indexConstant(loc, 0),
      lowering.indexConstant(loc, registers), lowering.indexConstant(loc, 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(iterations.getBody()->getTerminator());
  RegisterElement element;
  ArrayRef<int64_t> extents = loop.getExtents();
  element.coordinates.resize(extents.size());
  Value rest = iterations.getInductionVar();
  for (size_t d = extents.size(); d-- > 1;) {
    Value extent = lowering.indexConstant(loc, extents[d]);
    element.coordinates[d] = arith::RemUIOp::create(builder, loc, rest, extent);
    rest = arith::DivUIOp::create(builder, loc, rest, extent);
  }
  element.coordinates[0] = rest;
  return emitRegister(loop, element, iterations.getInductionVar(),
                      elements.ownsElement(iterations.getInductionVar()), outer,
                      /*sharedLoads=*/nullptr);
}

LogicalResult ParallelLowering::emitRegister(tile::ParallelOp loop,
                                             const RegisterElement &element,
                                             Value reg, Value storingThread,
                                             Lane &outer,
                                             SharedLoads *sharedLoads) {
  Location loc = loop.getLoc();
  OpBuilder::InsertionGuard guard(builder);
  if (element.valid) {
    auto ifOp = scf::IfOp::create(builder, loc, element.valid,
                                  /*withElseRegion=*/false);
    builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  Lane lane = outer;
  for (auto [iv, coordinate] :
       llvm::zip(loop.getInductionVars(), element.coordinates))
    lane.map.map(iv, coordinate);
  lane.fragmentIndex = reg;
  // Where several threads run an iteration (every thread a replicated
  // loop's), one of them stores.
  if (storingThread)
    lane.storingThread = storingThread;
  // Loads are shared only between registers emitted in one block.
  if (element.valid)
    sharedLoads = nullptr;
  for (Operation &op : loop.getBody().front().without_terminator()) {
    auto load = dyn_cast<tile::LoadOp>(op);
    if (load && sharedLoads) {
      if (Value value = sharedLoads->lookup(load, lane)) {
        lane.map.map(load.getResult(), value);
        continue;
      }
    }
    if (failed(lowering.emitOp(op, lane)))
      return failure();
    if (load && sharedLoads)
      sharedLoads->record(load, lane, lane.map.lookup(load.getResult()));
  }
  return success();
}

ParallelPlan ParallelLowering::plan(tile::ParallelOp loop,
                                    tile::FlatLayoutAttr layout) {
  ParallelPlan plan;
  plan.loop = loop;
  int64_t total = 1;
  for (int64_t extent : loop.getExtents())
    total *= extent;
  plan.distribution = layout.distribute(total, lowering.getThreads());
  int64_t width = layout.getVec();

  bool accessesFragment = false;
  loop.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (auto buffer = dyn_cast<tile::BufferType>(operand.getType()))
        accessesFragment |= buffer.isFragment();
  });
  for (const VectorizableAccess &access : findContiguousAccesses(loop, width)) {
    if (access.chunkWidth < 2)
      continue;
    plan.chunkWidths[access.op] = access.chunkWidth;
    if (access.access.dynamicRowStride)
      plan.dynamicRowStride.insert(access.op);
  }
  for (const VectorizableAccess &access :
       findSharedContiguousAccesses(loop, width))
    if (access.chunkWidth >= 2)
      plan.sharedChunkWidths[access.op] = access.chunkWidth;
  // Guard tests (GuardTest) get a fast path where their step's code is
  // small enough (emitStep), in loops over one row: over several, the
  // row-indexed reads of both paths (layernorm's mean[i]) cost registers.
  ArrayRef<int64_t> extents = loop.getExtents();
  bool oneRow = llvm::all_of(extents.drop_back(),
                             [](int64_t extent) { return extent == 1; });
  if (plan.chunkWidths.empty() && width > 1 && oneRow)
    for (Operation &op : loop.getBody().front().without_terminator())
      if (GuardTest::match(op, loop))
        plan.guards.insert(&op);
  // Every step emits the body once per lane, twice with a fast path for
  // vectorized accesses (a guard tests' fast path is emitted only where it
  // is cheap).
  int64_t steps = plan.distribution.steps();
  uint64_t unrolledCost = llvm::SaturatingMultiply(
      estimateEmittedCost(loop.getBody().front()),
      uint64_t(steps * width * (plan.chunkWidths.empty() ? 1 : 2)));
  plan.unrolled = (steps <= kMaxUnrolledSteps ||
                   (accessesFragment && steps <= kMaxUnrolledFragmentSteps)) &&
                  unrolledCost <= kMaxUnrolledParallelCost;
  // The whole loop's fast path (for loops that read global memory in
  // vectors: their loads are what it puts in flight together) adds a third
  // copy of the steps, while the kernel stays as small as a guard test's
  // fast path keeps it (kMaxGuardedKernelCost).
  int64_t wholeSteps = steps - (plan.distribution.hasPartialStep() ? 1 : 0);
  bool readsVectors = llvm::any_of(plan.chunkWidths, [](const auto &entry) {
    return isa<tile::LoadOp>(entry.first);
  });
  plan.wholeLoopFastPath = plan.unrolled && readsVectors && wholeSteps >= 2 &&
                           uint64_t(lowering.getCost()) + 2 * unrolledCost <=
                               uint64_t(kMaxGuardedKernelCost);
  return plan;
}

LogicalResult ParallelLowering::emitUnrolledSteps(const ParallelPlan &plan,
                                                  Lane &outer, bool tested) {
  const tile::FlatDistribution &distribution = plan.distribution;
  tile::ParallelOp loop = plan.loop;
  for (int64_t step = 0; step < distribution.steps(); ++step) {
    bool partial =
        step + 1 == distribution.steps() && distribution.hasPartialStep();
    if (failed(emitStep(plan, lowering.indexConstant(loop.getLoc(), step),
                        outer, partial, tested || partial)))
      return failure();
  }
  return success();
}

Value ParallelLowering::stepFlatIndex(const ParallelPlan &plan, Value step) {
  tile::ParallelOp loop = plan.loop;
  Location loc = loop.getLoc();
  Value stepBase = arith::MulIOp::create(
      builder, loc, step,
      lowering.indexConstant(loc, plan.distribution.elementsPerStep()));
  Value threadBase =
      arith::MulIOp::create(builder, loc, lowering.getThreadIndex(),
                            lowering.indexConstant(loc, plan.distribution.vec));
  return arith::AddIOp::create(builder, loc, stepBase, threadBase);
}

SmallVector<Lane> ParallelLowering::stepLanes(const ParallelPlan &plan,
                                              Value step, Lane &outer) {
  tile::ParallelOp loop = plan.loop;
  Location loc = loop.getLoc();
  int64_t width = plan.distribution.vec;
  Value flat = stepFlatIndex(plan, step);

  // Row-major delinearization; W divides the innermost extent, so the lanes
  // differ only in the innermost induction variable.
  ArrayRef<int64_t> extents = loop.getExtents();
  SmallVector<Value> ivs(extents.size());
  Value rest = flat;
  for (size_t d = extents.size() - 1; d > 0; --d) {
    Value extent = lowering.indexConstant(loc, extents[d]);
    ivs[d] = arith::RemUIOp::create(builder, loc, rest, extent);
    rest = arith::DivUIOp::create(builder, loc, rest, extent);
  }
  ivs[0] = rest;

  Value fragmentBase = arith::MulIOp::create(
      builder, loc, step, lowering.indexConstant(loc, width));
  SmallVector<Lane> lanes(width, outer);
  for (auto [laneIndex, lane] : llvm::enumerate(lanes)) {
    Value offset = lowering.indexConstant(loc, laneIndex);
    for (auto [d, iv] : llvm::enumerate(loop.getInductionVars()))
      lane.map.map(iv, d + 1 == extents.size() && laneIndex
                           ? arith::AddIOp::create(builder, loc, ivs[d], offset)
                           : ivs[d]);
    lane.fragmentIndex =
        arith::AddIOp::create(builder, loc, fragmentBase, offset);
  }
  return lanes;
}

Value ParallelLowering::fastCondition(const ParallelPlan &plan,
                                      ArrayRef<Lane> lanes) {
  tile::ParallelOp loop = plan.loop;
  Location loc = loop.getLoc();
  int64_t width = plan.distribution.vec;
  // The fast path needs every vectorized access in bounds as a whole (and,
  // for symbolic row strides, every row start aligned to the chunk), or
  // every guard test true at the first and the last lane.
  Lane probe = lanes.front();
  Value fast;
  auto conjoin = [&](Value condition) {
    fast =
        fast ? arith::AndIOp::create(builder, loc, fast, condition) : condition;
  };
  for (Operation *op : plan.guards) {
    GuardTest test = *GuardTest::match(*op, loop);
    Lane first = lanes.front(), last = lanes.back();
    for (Lane *lane : {&first, &last}) {
      Value result = lowering.materialize(test.cmp.getResult(), *lane);
      conjoin(test.proven ? result
                          : arith::XOrIOp::create(
                                builder, loc, result,
                                arith::ConstantIntOp::create(
                                    builder, loc, /*value=*/1, /*width=*/1)));
    }
    if (test.isUnsigned)
      conjoin(arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::sge,
          lowering.materialize(test.bound, first),
          arith::ConstantOp::create(
              builder, loc, builder.getZeroAttr(test.bound.getType()))));
  }
  for (auto [op, chunk] : plan.chunkWidths) {
    auto access = cast<tile::AccessOpInterface>(op);
    SmallVector<Value> values;
    for (Value index : access.getIndices())
      values.push_back(lowering.materialize(index, probe));
    const Tensor &tensor = *lowering.findTensor(access.getBuffer());
    conjoin(lowering.inBounds(loc, tensor, values, width - 1));
    if (plan.dynamicRowStride.contains(op)) {
      Value remainder = arith::RemUIOp::create(
          builder, loc, tensor.dims.back(), lowering.indexConstant(loc, chunk));
      conjoin(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                    remainder, lowering.indexConstant(loc, 0)));
    }
  }
  return fast;
}

LogicalResult ParallelLowering::emitStep(const ParallelPlan &plan, Value step,
                                         Lane &outer, bool guardTail,
                                         bool tested) {
  tile::ParallelOp loop = plan.loop;
  Location loc = loop.getLoc();
  OpBuilder::InsertionGuard guard(builder);
  if (guardTail) {
    Value inRange = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ult, stepFlatIndex(plan, step),
        lowering.indexConstant(loc, plan.distribution.total));
    auto ifOp = scf::IfOp::create(builder, loc, inRange,
                                  /*withElseRegion=*/false);
    builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  SmallVector<Lane> lanes = stepLanes(plan, step, outer);
  if (!plan.hasFastPath())
    return emitLanes(plan, lanes, /*fast=*/false);
  if (!tested)
    return emitLanes(plan, lanes, /*fast=*/true);

  Value fast = fastCondition(plan, lanes);
  auto paths = scf::IfOp::create(builder, loc, fast, /*withElseRegion=*/true);
  SmallVector<Lane> fastLanes = lanes;
  if (plan.chunkWidths.empty()) {
    // A fast path for guard tests saves instructions per element but
    // doubles the step's code: the slow path first, then the fast one only
    // while both are small (kMaxGuardedStepCost, kMaxGuardedKernelCost).
    builder.setInsertionPoint(paths.elseBlock()->getTerminator());
    int64_t before = lowering.getCost();
    if (failed(emitLanes(plan, lanes, /*fast=*/false)))
      return failure();
    int64_t slow = lowering.getCost() - before;
    if (slow > kMaxGuardedStepCost ||
        before + 2 * slow > kMaxGuardedKernelCost) {
      builder.setInsertionPoint(paths);
      paths.getConditionMutable().assign(
          arith::ConstantIntOp::create(builder, loc, /*value=*/0, /*width=*/1));
      return success();
    }
    builder.setInsertionPoint(paths.thenBlock()->getTerminator());
    return emitLanes(plan, fastLanes, /*fast=*/true);
  }
  builder.setInsertionPoint(paths.thenBlock()->getTerminator());
  if (failed(emitLanes(plan, fastLanes, /*fast=*/true)))
    return failure();
  builder.setInsertionPoint(paths.elseBlock()->getTerminator());
  return emitLanes(plan, lanes, /*fast=*/false);
}

/// Returns true if `a` and `b` compute the same value: the same SSA value,
/// or results of the same pure op on operands that are (up to `depth` ops
/// deep), as the separately written `bx * 1024 + j` of an access and of the
/// test guarding it.
bool computeSameValue(Value a, Value b, unsigned depth = 4) {
  if (a == b)
    return true;
  auto x = dyn_cast<OpResult>(a), y = dyn_cast<OpResult>(b);
  if (!depth || !x || !y || x.getResultNumber() != y.getResultNumber())
    return false;
  Operation *opA = x.getOwner(), *opB = y.getOwner();
  if (opA->getName() != opB->getName() ||
      opA->getAttrDictionary() != opB->getAttrDictionary() ||
      opA->getNumOperands() != opB->getNumOperands() ||
      opA->getNumRegions() != 0 || !isPure(opA))
    return false;
  for (auto [operandA, operandB] :
       llvm::zip(opA->getOperands(), opB->getOperands()))
    if (!computeSameValue(operandA, operandB, depth - 1))
      return false;
  return true;
}

/// Returns true if `cmp` is `index < extent` (signed or unsigned, or
/// `extent > index`) for an index of a vectorized access and the extent of
/// the dim it indexes: the fast path proved `index < extent` (unsigned, so
/// also `0 <= index`) for every lane, so the body's own bounds test, such as
/// softmax's `j < N ? X[row, j] : -inf`, is true there.
bool ParallelLowering::isProvenInBounds(arith::CmpIOp cmp,
                                        const ParallelPlan &plan, Lane &lane) {
  Value index = cmp.getLhs(), extent = cmp.getRhs();
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    break;
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::ugt:
    std::swap(index, extent);
    break;
  default:
    return false;
  }
  auto sameExtent = [&](Value dim) {
    Value lowered = lane.map.lookupOrNull(extent);
    if (lowered == dim)
      return true;
    APInt a, b;
    return lowered && matchPattern(lowered, m_ConstantInt(&a)) &&
           matchPattern(dim, m_ConstantInt(&b)) && a == b;
  };
  for (auto [op, chunk] : plan.chunkWidths) {
    auto access = cast<tile::AccessOpInterface>(op);
    const Tensor *tensor = lowering.findTensor(access.getBuffer());
    if (!tensor)
      continue;
    for (auto [d, accessIndex] : llvm::enumerate(access.getIndices()))
      if (computeSameValue(accessIndex, index) && sameExtent(tensor->dims[d]))
        return true;
  }
  return false;
}

LogicalResult ParallelLowering::emitLanes(const ParallelPlan &plan,
                                          MutableArrayRef<Lane> lanes,
                                          bool fast) {
  tile::ParallelOp loop = plan.loop;
  for (Operation &op : loop.getBody().front().without_terminator()) {
    if (fast) {
      auto cmp = dyn_cast<arith::CmpIOp>(op);
      std::optional<GuardTest> guard;
      if (cmp && plan.guards.contains(cmp))
        guard = GuardTest::match(*cmp, loop);
      if (cmp && (guard || isProvenInBounds(cmp, plan, lanes.front()))) {
        Value proven = arith::ConstantIntOp::create(
            builder, cmp.getLoc(), /*value=*/guard ? guard->proven : true,
            /*width=*/1);
        for (Lane &lane : lanes)
          lane.map.map(cmp.getResult(), proven);
        continue;
      }
    }
    // Global accesses are vectors on the fast path only, shared ones on both.
    int64_t chunk = fast ? plan.chunkWidths.lookup(&op) : 0;
    if (!chunk)
      chunk = plan.sharedChunkWidths.lookup(&op);
    if (chunk) {
      if (auto load = dyn_cast<tile::LoadOp>(op))
        emitVectorLoad(load, lanes, chunk);
      else
        emitVectorStore(cast<tile::StoreOp>(op), lanes, chunk);
      continue;
    }
    for (Lane &lane : lanes)
      if (failed(lowering.emitOp(op, lane)))
        return failure();
  }
  return success();
}

std::pair<Type, Type> ParallelLowering::elementTypes(Value buffer) {
  if (const Tensor *tensor = lowering.findTensor(buffer))
    return {tensor->storageType, tensor->elementType};
  const SharedBuffer &shared = *lowering.findShared(buffer);
  return {shared.storageType, shared.elementType};
}

Value ParallelLowering::lanePointer(tile::AccessOpInterface access,
                                    Lane &lane) {
  Location loc = access.getLoc();
  SmallVector<Value> indices = lowering.lookup(lane, access.getIndices());
  if (const Tensor *tensor = lowering.findTensor(access.getBuffer()))
    return lowering.elementPointer(loc, *tensor, indices);
  return lowering.sharedElementPointer(
      loc, *lowering.findShared(access.getBuffer()), indices);
}

void ParallelLowering::emitVectorLoad(tile::LoadOp load,
                                      MutableArrayRef<Lane> lanes,
                                      int64_t chunkWidth) {
  Location loc = load.getLoc();
  auto [storageType, elementType] = elementTypes(load.getBuffer());
  auto vectorType = VectorType::get({chunkWidth}, storageType);
  unsigned alignment = chunkWidth * storageBytes(elementType);
  for (size_t first = 0; first < lanes.size(); first += chunkWidth) {
    Value vector = LLVM::LoadOp::create(
        builder, loc, vectorType, lanePointer(load, lanes[first]), alignment);
    for (int64_t i = 0; i < chunkWidth; ++i) {
      Value position = LLVM::ConstantOp::create(
          builder, loc, builder.getI32Type(), builder.getI32IntegerAttr(i));
      Value element =
          LLVM::ExtractElementOp::create(builder, loc, vector, position);
      lanes[first + i].map.map(load.getResult(),
                               lowering.fromStorage(loc, element, elementType));
    }
  }
}

void ParallelLowering::emitVectorStore(tile::StoreOp store,
                                       MutableArrayRef<Lane> lanes,
                                       int64_t chunkWidth) {
  Location loc = store.getLoc();
  auto [storageType, elementType] = elementTypes(store.getBuffer());
  auto vectorType = VectorType::get({chunkWidth}, storageType);
  unsigned alignment = chunkWidth * storageBytes(elementType);
  for (size_t first = 0; first < lanes.size(); first += chunkWidth) {
    Value vector = LLVM::PoisonOp::create(builder, loc, vectorType);
    for (int64_t i = 0; i < chunkWidth; ++i) {
      Value position = LLVM::ConstantOp::create(
          builder, loc, builder.getI32Type(), builder.getI32IntegerAttr(i));
      Value element = lowering.toStorage(
          loc, lanes[first + i].map.lookup(store.getValue()));
      vector = LLVM::InsertElementOp::create(builder, loc, vector, element,
                                             position);
    }
    LLVM::StoreOp::create(builder, loc, vector,
                          lanePointer(store, lanes[first]), alignment);
  }
}

/// True if the body of `loop` reads or writes a shared tile.
bool accessesSharedMemory(tile::ParallelOp loop) {
  WalkResult result = loop.getBody().walk([](tile::AccessOpInterface access) {
    return cast<tile::BufferType>(access.getBuffer().getType()).isShared()
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return result.wasInterrupted();
}

} // namespace

void tilec::populateParallelLowerings(LoweringSet &set) {
  set.add<tile::ParallelOp>(
      [](KernelLowering &lowering, tile::ParallelOp loop, Lane &lane) {
        if (failed(ParallelLowering(lowering).emit(loop, lane)))
          return failure();
        if (accessesSharedMemory(loop) && !defersBarrier(loop))
          lowering.emitBarrier(loop.getLoc());
        return success();
      });
}
