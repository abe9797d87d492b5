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

/// The output every thread's register `reg` adds to, -1 if no thread holds
/// an element there, or std::nullopt if threads differ.
std::optional<int64_t>
uniformOutput(tile::DistributedLayoutAttrInterface layout,
              ArrayRef<int64_t> shape, int64_t dim, int64_t threads,
              int64_t reg) {
  int64_t output = -1;
  for (int64_t thread = 0; thread < threads; ++thread) {
    std::optional<SmallVector<int64_t>> coordinates =
        layout.getElementCoordinates(shape, threads, thread, reg);
    if (!coordinates)
      continue;
    int64_t found = reductionOutputIndex(shape, dim, *coordinates);
    if (output >= 0 && found != output)
      return std::nullopt;
    output = found;
  }
  return output;
}
} // namespace

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
    return warps > 1 ? outputs * warps : 0;
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
  int64_t registers = layout.getElementsPerThread(shape, threads);
  if (elements > kMaxPlannedElements)
    return plan;
  SmallVector<int64_t> outputs;
  for (int64_t reg = 0; reg < registers; ++reg) {
    std::optional<int64_t> output =
        uniformOutput(layout, shape, dim, threads, reg);
    if (!output)
      return plan;
    outputs.push_back(*output);
  }
  plan.strategy = ReductionPlan::Strategy::Registers;
  plan.registerOutputs = std::move(outputs);
  plan.stagedElements = 0;
  return plan;
}
