//===- ReductionPlan.cpp - How a tile.reduce is carried out ---------------===//

#include "passes/Analysis/ReductionPlan.h"

using namespace mlir;
using namespace tilec;

namespace {
/// Above this many source elements the register plan is not searched for
/// (the check looks at every element).
constexpr int64_t kMaxPlannedElements = int64_t(1) << 22;

/// The accumulator type of a reduction from `source` into `target` elements.
Type accumulatorTypeOf(Type source, Type target) {
  MLIRContext *context = source.getContext();
  unsigned bits =
      std::max(source.getIntOrFloatBitWidth(), target.getIntOrFloatBitWidth());
  if (isa<FloatType>(source))
    return bits > 32 ? Type(Float64Type::get(context))
                     : Type(Float32Type::get(context));
  return IntegerType::get(context, bits > 32 ? 64 : 32);
}

/// The output of the element of every thread's register `reg` (-1 where a
/// thread holds none).
SmallVector<int64_t>
registerOutputs(tile::DistributedLayoutAttrInterface layout,
                ArrayRef<int64_t> shape, int64_t dim, int64_t threads,
                int64_t reg) {
  SmallVector<int64_t> outputs(threads, -1);
  for (int64_t thread = 0; thread < threads; ++thread)
    if (std::optional<SmallVector<int64_t>> coordinates =
            layout.getElementCoordinates(shape, threads, thread, reg))
      outputs[thread] = reductionOutputIndex(shape, dim, *coordinates);
  return outputs;
}

/// Fills the Registers fields of `plan` for a fragment source, or returns
/// false if its registers do not sort into slots of lane groups.
bool planRegisters(ReductionPlan &plan,
                   tile::DistributedLayoutAttrInterface layout,
                   ArrayRef<int64_t> shape, int64_t dim) {
  int64_t threads = plan.threads;
  int64_t registers = layout.getElementsPerThread(shape, threads);
  SmallVector<SmallVector<int64_t>> outputs;
  for (int64_t reg = 0; reg < registers; ++reg)
    outputs.push_back(registerOutputs(layout, shape, dim, threads, reg));
  // The widest group whose lanes agree in every register.
  for (int64_t groupSize = 32; groupSize >= 1; groupSize /= 2) {
    int64_t groups = threads / groupSize;
    // Every register's per-group outputs: its signature.
    SmallVector<SmallVector<int64_t>> signatures;
    bool agree = true;
    for (ArrayRef<int64_t> perThread : outputs) {
      SmallVector<int64_t> signature;
      for (int64_t group = 0; group < groups && agree; ++group) {
        std::optional<int64_t> output = commonOutput(
            ArrayRef(perThread).slice(group * groupSize, groupSize));
        agree = output.has_value();
        signature.push_back(output.value_or(-1));
      }
      signatures.push_back(std::move(signature));
    }
    if (!agree)
      continue;
    // Registers with one signature share a slot.
    plan.groupSize = groupSize;
    plan.registerSlots.clear();
    plan.entryOutputs.clear();
    SmallVector<SmallVector<int64_t>> slotSignatures;
    for (ArrayRef<int64_t> signature : signatures) {
      if (llvm::all_of(signature, [](int64_t o) { return o < 0; })) {
        plan.registerSlots.push_back(-1);
        continue;
      }
      auto found = llvm::find_if(
          slotSignatures, [&](ArrayRef<int64_t> s) { return s == signature; });
      plan.registerSlots.push_back(found - slotSignatures.begin());
      if (found == slotSignatures.end())
        slotSignatures.push_back(SmallVector<int64_t>(signature));
    }
    plan.slots = slotSignatures.size();
    for (ArrayRef<int64_t> signature : slotSignatures)
      llvm::append_range(plan.entryOutputs, signature);
    return true;
  }
  return false;
}

/// Fills `plan.targetSlots` for a target in `layout` (a `#tile.slice`) if
/// every output lies in one group and every target register of every
/// thread holds the output of one slot of the thread's group.
void planSliceTarget(ReductionPlan &plan, tile::SliceLayoutAttr layout,
                     ArrayRef<int64_t> targetShape) {
  int64_t groups = plan.getGroups();
  SmallVector<int64_t> holders(plan.outputs, 0);
  for (int64_t output : plan.entryOutputs)
    if (output >= 0 && ++holders[output] > 1)
      return;
  int64_t registers = layout.getElementsPerThread(targetShape, plan.threads);
  SmallVector<int64_t> targetSlots;
  for (int64_t reg = 0; reg < registers; ++reg) {
    auto matches = [&](int64_t slot) {
      for (int64_t thread = 0; thread < plan.threads; ++thread) {
        std::optional<SmallVector<int64_t>> coordinates =
            layout.getElementCoordinates(targetShape, plan.threads, thread,
                                         reg);
        int64_t group = thread / plan.groupSize;
        if (!coordinates ||
            plan.entryOutputs[slot * groups + group] != coordinates->front())
          return false;
      }
      return true;
    };
    int64_t slot = 0;
    while (slot < plan.slots && !matches(slot))
      ++slot;
    if (slot == plan.slots)
      return;
    targetSlots.push_back(slot);
  }
  plan.targetSlots = std::move(targetSlots);
}
} // namespace

std::optional<int64_t> tilec::commonOutput(ArrayRef<int64_t> outputs) {
  int64_t found = -1;
  for (int64_t output : outputs) {
    if (output < 0)
      continue;
    if (found >= 0 && output != found)
      return std::nullopt;
    found = output;
  }
  return found;
}

int64_t tilec::reductionOutputIndex(ArrayRef<int64_t> sourceShape, int64_t dim,
                                    ArrayRef<int64_t> coordinates) {
  int64_t index = 0;
  for (auto [d, extent] : llvm::enumerate(sourceShape))
    if (int64_t(d) != dim)
      index = index * extent + coordinates[d];
  return index;
}

int64_t ReductionPlan::getScratchElements() const {
  switch (strategy) {
  case Strategy::PerThread:
    return 0;
  case Strategy::Registers:
    return getGroups() > 1 && targetSlots.empty() ? slots * getGroups() : 0;
  case Strategy::SharedMemory:
    return stagedElements + outputs;
  }
  llvm_unreachable("unknown reduction strategy");
}

FailureOr<ReductionPlan> tilec::planReduction(tile::ReduceOp reduce,
                                              int64_t threads) {
  auto source = cast<tile::BufferType>(reduce.getSource().getType());
  auto target = cast<tile::BufferType>(reduce.getTarget().getType());
  if (threads < 32 || threads % 32 != 0)
    return reduce.emitOpError("needs whole warps, but the block has ")
           << threads << " threads";
  ReductionPlan plan;
  ArrayRef<int64_t> shape = source.getShape();
  int64_t dim = reduce.getDim();
  int64_t elements = 1;
  for (int64_t extent : shape)
    elements *= extent;
  plan.extent = shape[dim];
  plan.outputs = elements / plan.extent;
  plan.warps = threads / 32;
  plan.threads = threads;
  plan.accumulatorType =
      accumulatorTypeOf(source.getElementType(), target.getElementType());
  if (source.isShared())
    return plan;
  auto layout = dyn_cast_or_null<tile::DistributedLayoutAttrInterface>(
      source.getLayout());
  if (!layout)
    return reduce.emitOpError("source fragment has no layout; run "
                              "-tile-infer-layouts first");
  if (isa<tile::ReplicatedLayoutAttr>(layout)) {
    plan.strategy = ReductionPlan::Strategy::PerThread;
    return plan;
  }
  plan.stagedElements = elements;
  // Several threads hold each element of a slice: staged, it counts once.
  if (isa<tile::SliceLayoutAttr>(layout) || elements > kMaxPlannedElements ||
      !planRegisters(plan, layout, shape, dim))
    return plan;
  if (auto slice = dyn_cast_or_null<tile::SliceLayoutAttr>(target.getLayout()))
    planSliceTarget(plan, slice, target.getShape());
  // Exchanging more partials than elements: staging is cheaper.
  if (plan.targetSlots.empty() && plan.slots * plan.getGroups() > elements)
    return plan;
  plan.strategy = ReductionPlan::Strategy::Registers;
  plan.stagedElements = 0;
  return plan;
}
