//===- Reduce.cpp - tile.reduce over the block's threads ------------------===//
//
// The lowering of `tile.reduce` as its plan says (passes/Analysis/
// ReductionPlan.h): per thread, in registers with a `shfl.sync.bfly`
// butterfly per lane group and the groups' partials exchanged through the
// scratch tile, or through shared memory. Every thread ends with the whole
// result, which it stores into the target: every element of a replicated
// fragment or a local buffer, its rows of a sliced fragment, its share of a
// shared tile; or, reducing an accumulator's rows into their slice, with
// the rows it holds only. The reduction ends
// with a barrier when it used shared memory, so that the next one may reuse the
// scratch bytes.
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"

#include "codegen/Conversion/TileToLLVM/FragmentElements.h"
#include "passes/Analysis/ReductionPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;

namespace {

constexpr int64_t kWarpSize = 32;
/// The fewest groups whose published partials a butterfly combines (one
/// shared load and log2(groups) shuffles and combines per slot) instead of
/// every thread loading and combining each of them: at 16 groups 9
/// instructions against 20 (four 16-byte loads and 16 combines), but a
/// longer chain of dependent ones. Measured on the H200 (docs/performance.md,
/// session 13): 512-thread softmax rows 1.02-1.08x faster; at 8 groups (7
/// instructions against 10) 256-thread row_sum was 5-7% slower.
constexpr int64_t kShuffledGroups = 16;

/// True if `reduce` may run again (it is inside a loop) without another
/// barrier in between: no other reduction with a scratch tile runs with it
/// in the same block. Scratch tiles have bytes of their own for the whole
/// launch (tile-allocate-shared-memory), so only the reduction's own next
/// run can overwrite its scratch, and another reduction's barrier between
/// the two runs keeps every thread's reads before that write.
bool mayRunAgainUnfenced(tile::ReduceOp reduce) {
  // Every op with regions between the reduction and the launch but a
  // conditional repeats its body.
  Operation *ancestor = reduce;
  bool inLoop = false;
  while ((ancestor = ancestor->getParentOp()) && !isa<tile::LaunchOp>(ancestor))
    inLoop |= !isa<tile::IfOp>(ancestor);
  if (!inLoop)
    return false;
  return llvm::none_of(*reduce->getBlock(), [&](Operation &op) {
    auto other = dyn_cast<tile::ReduceOp>(op);
    return other && other != reduce && other.getScratch();
  });
}

/// Emits one `tile.reduce`.
class ReductionLowering {
public:
  ReductionLowering(KernelLowering &lowering, tile::ReduceOp reduce,
                    ReductionPlan plan)
      : lowering(lowering), builder(lowering.getBuilder()), reduce(reduce),
        loc(reduce.getLoc()), plan(std::move(plan)),
        accumulator(this->plan.accumulatorType),
        sourceType(cast<tile::BufferType>(reduce.getSource().getType())) {}

  LogicalResult emit();

private:
  Value constant(int64_t value) { return lowering.indexConstant(loc, value); }
  Value i32Constant(int64_t value) {
    return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                    builder.getI32IntegerAttr(value));
  }
  /// The neutral element of the reduction's combining function.
  Value identity();
  /// Converts `value` from `from` to the accumulator type, or back.
  Value convert(Value value, Type type);
  /// A source element as it enters the reduction: converted, and made
  /// absolute for abssum and absmax.
  Value prepare(Value element);
  /// The combining function.
  Value combine(Value a, Value b);
  /// The value of `value` in the lane whose index differs in bit `offset`.
  Value shuffleXor(Value value, int64_t offset);
  /// Combines `value` over the `lanes` lanes of an aligned lane group (a
  /// power of two up to 32); every lane gets the result.
  Value reduceLanes(Value value, int64_t lanes);
  /// Combines `value` over the plan's lane group.
  Value reduceGroup(Value value) { return reduceLanes(value, plan.groupSize); }
  /// Element `index` of the scratch tile.
  Value scratchPointer(Value index);
  /// The source element at `coordinates` (shared source or staged copy).
  Value loadSourceElement(ArrayRef<Value> coordinates);
  /// Fills `results` per thread or from registers and shuffles.
  LogicalResult reduceInRegisters(SmallVectorImpl<Value> &results);
  /// Combines the groups' published entries into `results`: every lane
  /// loads one entry of a slot and a butterfly combines them, where there
  /// are at least kShuffledGroups groups and every slot holds one output
  /// in all of them; else every thread loads and combines every entry.
  void combineGroupEntries(SmallVectorImpl<Value> &results);
  /// Reduces through shared memory; fills `results` from the scratch tail.
  LogicalResult reduceInSharedMemory(SmallVectorImpl<Value> &results);
  /// Stores the result into the target: `results` holds every output, or,
  /// for a slice target held within the groups (`plan.targetSlots`), the
  /// thread's target registers.
  LogicalResult storeResults(ArrayRef<Value> results);
  /// The element of `results` (one per output) at the run-time `output`.
  Value selectOutput(ArrayRef<Value> results, Value output);

  KernelLowering &lowering;
  OpBuilder &builder;
  tile::ReduceOp reduce;
  Location loc;
  ReductionPlan plan;
  Type accumulator;
  tile::BufferType sourceType;
  const SharedBuffer *scratch = nullptr;
};

Value ReductionLowering::identity() {
  tile::ReduceKind kind = reduce.getKind();
  if (auto floatType = dyn_cast<FloatType>(accumulator)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    llvm::APFloat value = llvm::APFloat::getZero(semantics);
    if (kind == tile::ReduceKind::Max)
      value = llvm::APFloat::getInf(semantics, /*Negative=*/true);
    else if (kind == tile::ReduceKind::Min)
      value = llvm::APFloat::getInf(semantics, /*Negative=*/false);
    return arith::ConstantOp::create(builder, loc, floatType,
                                     builder.getFloatAttr(floatType, value));
  }
  unsigned bits = accumulator.getIntOrFloatBitWidth();
  llvm::APInt value = llvm::APInt::getZero(bits);
  if (kind == tile::ReduceKind::Max)
    value = llvm::APInt::getSignedMinValue(bits);
  else if (kind == tile::ReduceKind::Min)
    value = llvm::APInt::getSignedMaxValue(bits);
  return arith::ConstantOp::create(builder, loc, accumulator,
                                   builder.getIntegerAttr(accumulator, value));
}

Value ReductionLowering::convert(Value value, Type type) {
  Type from = value.getType();
  if (from == type)
    return value;
  if (isa<FloatType>(type))
    return convertFloat(builder, loc, value, type);
  if (from.getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
    return arith::ExtSIOp::create(builder, loc, type, value);
  return arith::TruncIOp::create(builder, loc, type, value);
}

Value ReductionLowering::prepare(Value element) {
  Value value = convert(element, accumulator);
  tile::ReduceKind kind = reduce.getKind();
  if (kind != tile::ReduceKind::AbsSum && kind != tile::ReduceKind::AbsMax)
    return value;
  if (isa<FloatType>(accumulator))
    return math::AbsFOp::create(builder, loc, value);
  return math::AbsIOp::create(builder, loc, value);
}

Value ReductionLowering::combine(Value a, Value b) {
  bool isFloat = isa<FloatType>(accumulator);
  switch (reduce.getKind()) {
  case tile::ReduceKind::Sum:
  case tile::ReduceKind::AbsSum:
    return isFloat ? arith::AddFOp::create(builder, loc, a, b).getResult()
                   : arith::AddIOp::create(builder, loc, a, b).getResult();
  case tile::ReduceKind::Max:
  case tile::ReduceKind::AbsMax:
    return isFloat ? arith::MaximumFOp::create(builder, loc, a, b).getResult()
                   : arith::MaxSIOp::create(builder, loc, a, b).getResult();
  case tile::ReduceKind::Min:
    return isFloat ? arith::MinimumFOp::create(builder, loc, a, b).getResult()
                   : arith::MinSIOp::create(builder, loc, a, b).getResult();
  }
  llvm_unreachable("unknown reduce kind");
}

Value ReductionLowering::shuffleXor(Value value, int64_t offset) {
  auto shuffle = [&](Value word) {
    return NVVM::ShflOp::create(builder, loc, word.getType(), i32Constant(-1),
                                word, i32Constant(offset),
                                i32Constant(kWarpSize - 1),
                                NVVM::ShflKind::bfly, UnitAttr())
        .getResult();
  };
  if (value.getType().getIntOrFloatBitWidth() == 32)
    return shuffle(value);
  // 64-bit values move as two 32-bit halves.
  auto halves = VectorType::get({2}, builder.getI32Type());
  Value words = LLVM::BitcastOp::create(builder, loc, halves, value);
  for (int64_t half = 0; half < 2; ++half) {
    Value position = i32Constant(half);
    Value word = LLVM::ExtractElementOp::create(builder, loc, words, position);
    words = LLVM::InsertElementOp::create(builder, loc, words, shuffle(word),
                                          position);
  }
  return LLVM::BitcastOp::create(builder, loc, value.getType(), words);
}

Value ReductionLowering::reduceLanes(Value value, int64_t lanes) {
  for (int64_t offset = lanes / 2; offset >= 1; offset /= 2)
    value = combine(value, shuffleXor(value, offset));
  return value;
}

Value ReductionLowering::scratchPointer(Value index) {
  return lowering.sharedElementPointer(loc, *scratch, {index});
}

Value ReductionLowering::loadSourceElement(ArrayRef<Value> coordinates) {
  if (const SharedBuffer *source = lowering.findShared(reduce.getSource())) {
    Value stored = LLVM::LoadOp::create(
        builder, loc, source->storageType,
        lowering.sharedElementPointer(loc, *source, coordinates));
    return prepare(lowering.fromStorage(loc, stored, source->elementType));
  }
  Value offset =
      lowering.rowMajorOffset(loc, coordinates, sourceType.getShape());
  return LLVM::LoadOp::create(builder, loc, accumulator,
                              scratchPointer(offset));
}

LogicalResult
ReductionLowering::reduceInRegisters(SmallVectorImpl<Value> &results) {
  const PrivateBuffer *source = lowering.findPrivate(reduce.getSource());
  if (!source)
    return reduce.emitOpError("reduces a fragment without storage");
  ArrayRef<int64_t> shape = sourceType.getShape();
  int64_t dim = reduce.getDim();
  results.assign(plan.outputs, identity());

  if (plan.strategy == ReductionPlan::Strategy::PerThread) {
    // Register r of a replicated fragment is row-major element r.
    for (int64_t reg = 0; reg < source->size; ++reg) {
      int64_t output =
          reductionOutputIndex(shape, dim, tile::delinearize(reg, shape));
      results[output] =
          combine(results[output],
                  prepare(lowering.loadFragmentRegister(loc, *source, reg)));
    }
    return success();
  }

  FragmentElements elements(lowering, loc, shape, sourceType.getLayout());
  if (failed(elements.initialize()))
    return reduce.emitOpError("reduces a fragment whose layout ")
           << sourceType.getLayout() << " it cannot map";
  SmallVector<Value> partials(plan.slots, identity());
  for (auto [reg, slot] : llvm::enumerate(plan.registerSlots)) {
    if (slot < 0)
      continue;
    Value value = prepare(lowering.loadFragmentRegister(loc, *source, reg));
    // A padding register of a partial step adds nothing.
    if (Value valid = elements.lookup(reg).valid)
      value = arith::SelectOp::create(builder, loc, valid, value, identity());
    partials[slot] = combine(partials[slot], value);
  }
  for (Value &partial : partials)
    partial = reduceGroup(partial);
  // A slice target held within the groups: the partials are the results.
  if (!plan.targetSlots.empty()) {
    results.clear();
    for (int64_t slot : plan.targetSlots)
      results.push_back(partials[slot]);
    return success();
  }

  int64_t groups = plan.getGroups();
  if (groups == 1) {
    for (auto [slot, partial] : llvm::enumerate(partials))
      if (int64_t output = plan.entryOutputs[slot]; output >= 0)
        results[output] = combine(results[output], partial);
    return success();
  }
  // The first lane of every group publishes the group's partials; every
  // thread then combines the entries of every output.
  Value thread = lowering.getThreadIndex();
  Value group =
      arith::DivUIOp::create(builder, loc, thread, constant(plan.groupSize));
  Value isFirstLane = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(builder, loc, thread, constant(plan.groupSize)),
      constant(0));
  lowering.emitGuarded(loc, isFirstLane, [&] {
    for (auto [slot, partial] : llvm::enumerate(partials)) {
      Value index =
          arith::AddIOp::create(builder, loc, constant(slot * groups), group);
      LLVM::StoreOp::create(builder, loc, partial, scratchPointer(index));
    }
  });
  lowering.emitBarrier(loc);
  combineGroupEntries(results);
  return success();
}

void ReductionLowering::combineGroupEntries(SmallVectorImpl<Value> &results) {
  int64_t groups = plan.getGroups();
  SmallVector<int64_t> slotOutputs;
  bool shuffled = groups >= kShuffledGroups && groups <= kWarpSize;
  for (int64_t slot = 0; shuffled && slot < plan.slots; ++slot) {
    // The groups' entries of a slot are contiguous ([slots][groups]).
    std::optional<int64_t> output =
        commonOutput(ArrayRef(plan.entryOutputs).slice(slot * groups, groups));
    shuffled = output.has_value();
    slotOutputs.push_back(output.value_or(-1));
  }
  if (!shuffled) {
    for (auto [entry, output] : llvm::enumerate(plan.entryOutputs))
      if (output >= 0)
        results[output] =
            combine(results[output],
                    LLVM::LoadOp::create(builder, loc, accumulator,
                                         scratchPointer(constant(entry))));
    return;
  }
  // Lane l takes group l % P's entry (P the groups rounded up to a power of
  // two; the identity past the last group), so that every aligned run of P
  // lanes holds every entry and its butterfly leaves the whole result in
  // each lane. A group without an element of a slot published the identity.
  int64_t span = llvm::PowerOf2Ceil(groups);
  Value group = arith::RemUIOp::create(
      builder, loc,
      arith::RemUIOp::create(builder, loc, lowering.getThreadIndex(),
                             constant(kWarpSize)),
      constant(span));
  Value inGroups =
      groups == span
          ? Value()
          : arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                  group, constant(groups));
  // Lanes past the last group read group 0's entry and drop it.
  Value readGroup = inGroups ? arith::SelectOp::create(builder, loc, inGroups,
                                                       group, constant(0))
                             : group;
  for (auto [slot, output] : llvm::enumerate(slotOutputs)) {
    if (output < 0)
      continue;
    Value index = arith::AddIOp::create(
        builder, loc, constant(int64_t(slot) * groups), readGroup);
    Value entry =
        LLVM::LoadOp::create(builder, loc, accumulator, scratchPointer(index));
    if (inGroups)
      entry =
          arith::SelectOp::create(builder, loc, inGroups, entry, identity());
    results[output] = combine(results[output], reduceLanes(entry, span));
  }
}

LogicalResult
ReductionLowering::reduceInSharedMemory(SmallVectorImpl<Value> &results) {
  ArrayRef<int64_t> shape = sourceType.getShape();
  int64_t dim = reduce.getDim();
  // A fragment is staged row-major at the start of the scratch tile.
  if (const PrivateBuffer *source = lowering.findPrivate(reduce.getSource())) {
    FragmentElements elements(lowering, loc, shape, sourceType.getLayout());
    if (failed(elements.initialize()))
      return reduce.emitOpError("reduces a fragment whose layout ")
             << sourceType.getLayout() << " it cannot map";
    for (int64_t reg = 0; reg < source->size; ++reg) {
      RegisterElement element = elements.lookup(reg);
      auto store = [&] {
        Value value = prepare(lowering.loadFragmentRegister(loc, *source, reg));
        Value offset = lowering.rowMajorOffset(loc, element.coordinates, shape);
        LLVM::StoreOp::create(builder, loc, value, scratchPointer(offset));
      };
      lowering.emitGuarded(loc, element.valid, store);
    }
    lowering.emitBarrier(loc);
  }

  // Warp w reduces outputs w, w + W, ...; its lanes stride along the line.
  SmallVector<int64_t> outputShape;
  for (auto [d, extent] : llvm::enumerate(shape))
    if (int64_t(d) != dim)
      outputShape.push_back(extent);
  Value thread = lowering.getThreadIndex();
  Value warp =
      arith::DivUIOp::create(builder, loc, thread, constant(kWarpSize));
  Value lane =
      arith::RemUIOp::create(builder, loc, thread, constant(kWarpSize));
  auto outputs = scf::ForOp::create(builder, loc, warp, constant(plan.outputs),
                                    constant(plan.warps));
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(outputs.getBody()->getTerminator());
    Value output = outputs.getInductionVar();
    SmallVector<Value> outputCoordinates(outputShape.size());
    Value rest = output;
    for (size_t d = outputShape.size(); d-- > 0;) {
      Value extent = constant(outputShape[d]);
      outputCoordinates[d] = arith::RemUIOp::create(builder, loc, rest, extent);
      rest = arith::DivUIOp::create(builder, loc, rest, extent);
    }
    auto line = scf::ForOp::create(builder, loc, lane, constant(plan.extent),
                                   constant(kWarpSize), ValueRange{identity()});
    {
      OpBuilder::InsertionGuard lineGuard(builder);
      builder.setInsertionPointToStart(line.getBody());
      SmallVector<Value> coordinates = outputCoordinates;
      coordinates.insert(coordinates.begin() + dim, line.getInductionVar());
      Value combined = combine(line.getRegionIterArgs().front(),
                               loadSourceElement(coordinates));
      scf::YieldOp::create(builder, loc, combined);
      line.getBody()->getTerminator()->erase();
    }
    Value result = reduceLanes(line.getResult(0), kWarpSize);
    Value isFirstLane = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, lane, constant(0));
    lowering.emitGuarded(loc, isFirstLane, [&] {
      Value index = arith::AddIOp::create(
          builder, loc, constant(plan.stagedElements), output);
      LLVM::StoreOp::create(builder, loc, result, scratchPointer(index));
    });
  }
  lowering.emitBarrier(loc);
  results.clear();
  for (int64_t output = 0; output < plan.outputs; ++output)
    results.push_back(LLVM::LoadOp::create(
        builder, loc, accumulator,
        scratchPointer(constant(plan.stagedElements + output))));
  return success();
}

LogicalResult ReductionLowering::storeResults(ArrayRef<Value> results) {
  auto targetType = cast<tile::BufferType>(reduce.getTarget().getType());
  Type elementType = targetType.getElementType();
  if (const SharedBuffer *target = lowering.findShared(reduce.getTarget())) {
    // Thread t stores outputs t, t + T, ...
    SmallVector<int64_t> shape(targetType.getShape());
    for (auto [output, result] : llvm::enumerate(results)) {
      Value owner = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, lowering.getThreadIndex(),
          constant(output % lowering.getThreads()));
      lowering.emitGuarded(loc, owner, [&] {
        SmallVector<Value> coordinates;
        for (int64_t coordinate : tile::delinearize(output, shape))
          coordinates.push_back(constant(coordinate));
        Value pointer =
            lowering.sharedElementPointer(loc, *target, coordinates);
        Value value = result;
        if (!reduce.getClear())
          value = combine(
              convert(lowering.fromStorage(
                          loc,
                          LLVM::LoadOp::create(builder, loc,
                                               target->storageType, pointer),
                          elementType),
                      accumulator),
              value);
        LLVM::StoreOp::create(
            builder, loc, lowering.toStorage(loc, convert(value, elementType)),
            pointer);
      });
    }
    return success();
  }
  const PrivateBuffer *target = lowering.findPrivate(reduce.getTarget());
  bool slice =
      target && isa_and_nonnull<tile::SliceLayoutAttr>(target->fragmentLayout);
  if (!target || (target->fragmentLayout && !slice &&
                  !isa<tile::ReplicatedLayoutAttr>(target->fragmentLayout)))
    return reduce.emitOpError("target must be a replicated or sliced "
                              "fragment, a local buffer or a shared tile; run "
                              "-tile-infer-layouts");
  // Register r of the target: output r, but in a slice the thread's rows.
  SmallVector<Value> registerResults(results);
  if (slice && plan.targetSlots.empty()) {
    FragmentElements elements(lowering, loc, targetType.getShape(),
                              target->fragmentLayout);
    if (failed(elements.initialize()))
      return reduce.emitOpError("target layout ")
             << target->fragmentLayout << " does not apply to its shape";
    registerResults.clear();
    for (int64_t reg = 0; reg < elements.getNumRegisters(); ++reg)
      registerResults.push_back(
          selectOutput(results, elements.lookup(reg).coordinates.front()));
  }
  for (auto [reg, result] : llvm::enumerate(registerResults)) {
    Value value = result;
    if (!reduce.getClear())
      value = combine(convert(lowering.loadFragmentRegister(loc, *target, reg),
                              accumulator),
                      value);
    lowering.storeFragmentRegister(loc, *target, reg,
                                   convert(value, elementType));
  }
  return success();
}

Value ReductionLowering::selectOutput(ArrayRef<Value> results, Value output) {
  Value selected = results.front();
  for (auto [index, result] : llvm::enumerate(results.drop_front()))
    selected = arith::SelectOp::create(
        builder, loc,
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, output,
                              constant(index + 1)),
        result, selected);
  return selected;
}

LogicalResult ReductionLowering::emit() {
  if (Value scratchTile = reduce.getScratch()) {
    scratch = lowering.findShared(scratchTile);
    if (!scratch)
      return reduce.emitOpError("scratch is not a shared tile");
  }
  if (plan.getScratchElements() > 0 &&
      (!scratch || scratch->shape.front() < plan.getScratchElements() ||
       scratch->elementType != accumulator))
    return reduce.emitOpError("needs a scratch tile of ")
           << plan.getScratchElements() << " " << accumulator
           << " elements; run -tile-plan-reductions";
  SmallVector<Value> results;
  bool viaShared = plan.strategy == ReductionPlan::Strategy::SharedMemory;
  if (failed(viaShared ? reduceInSharedMemory(results)
                       : reduceInRegisters(results)))
    return failure();
  if (failed(storeResults(results)))
    return failure();
  // A shared target is read by other threads; a scratch tile may be written
  // again by this reduction's next run before a slow thread has read it.
  if (lowering.findShared(reduce.getTarget()) ||
      (scratch && mayRunAgainUnfenced(reduce)))
    lowering.emitBarrier(loc);
  return success();
}

} // namespace

void tilec::populateReduceLowerings(LoweringSet &set) {
  set.add<tile::ReduceOp>([](KernelLowering &lowering, tile::ReduceOp reduce,
                             Lane &lane) -> LogicalResult {
    if (lane.fragmentIndex)
      return reduce.emitOpError("inside a 'tile.parallel' loop is not "
                                "supported");
    FailureOr<ReductionPlan> plan =
        planReduction(reduce, lowering.getThreads());
    if (failed(plan))
      return failure();
    return ReductionLowering(lowering, reduce, std::move(*plan)).emit();
  });
}
