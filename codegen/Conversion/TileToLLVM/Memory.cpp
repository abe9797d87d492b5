//===- Memory.cpp - Element accesses and fills ----------------------------===//
//
// The lowerings of `tile.load`, `tile.store`, `tile.fill` and `tile.clear`
// on global tensors (guarded: out-of-bounds reads give 0, writes are
// dropped) and per-thread buffers, and the address helpers they share with
// the other families. Shared tiles are handed to SharedMemory.cpp.
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"

#include "codegen/CodegenLimits.h"
#include "passes/Analysis/AccessAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tilec;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Value KernelLowering::indexConstant(Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

Value KernelLowering::zeroOf(Location loc, Type type) {
  return arith::ConstantOp::create(builder, loc, builder.getZeroAttr(type));
}

Value KernelLowering::toStorage(Location loc, Value value) {
  if (!value.getType().isInteger(1))
    return value;
  return arith::ExtUIOp::create(builder, loc, builder.getI8Type(), value);
}

Value KernelLowering::fromStorage(Location loc, Value stored,
                                  Type elementType) {
  if (!elementType.isInteger(1))
    return stored;
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, stored,
                               zeroOf(loc, stored.getType()));
}

Value KernelLowering::rowMajorOffset(Location loc, ArrayRef<Value> indices,
                                     ArrayRef<int64_t> shape) {
  if (indices.empty())
    return indexConstant(loc, 0);
  // ((i0 * E1 + i1) * E2 + i2) ...
  Value linear = indices.front();
  for (size_t d = 1; d < indices.size(); ++d)
    linear = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, linear,
                              indexConstant(loc, shape[d])),
        indices[d]);
  return linear;
}

SmallVector<Value> KernelLowering::rowMajorIndices(Location loc, Value offset,
                                                   ArrayRef<int64_t> shape) {
  SmallVector<Value> indices(shape.size());
  Value rest = offset;
  for (size_t d = shape.size() - 1; d > 0; --d) {
    Value extent = indexConstant(loc, shape[d]);
    indices[d] = arith::RemUIOp::create(builder, loc, rest, extent);
    rest = arith::DivUIOp::create(builder, loc, rest, extent);
  }
  indices.front() = rest;
  return indices;
}

Value KernelLowering::elementPointer(Location loc, const Tensor &tensor,
                                     ArrayRef<Value> indices) {
  // Row-major: ((i0 * D1 + i1) * D2 + i2) ...
  Value offset = indices.front();
  for (size_t d = 1; d < indices.size(); ++d)
    offset = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, offset, tensor.dims[d]),
        indices[d]);
  Value offset64 =
      arith::IndexCastOp::create(builder, loc, builder.getI64Type(), offset);
  return LLVM::GEPOp::create(builder, loc, tensor.base.getType(),
                             tensor.storageType, tensor.base,
                             ValueRange{offset64});
}

Value KernelLowering::inBounds(Location loc, const Tensor &tensor,
                               ArrayRef<Value> indices,
                               int64_t lastIndexExtra) {
  return inBounds(loc, indices, tensor.dims, lastIndexExtra);
}

Value KernelLowering::inBounds(Location loc, ArrayRef<Value> indices,
                               ArrayRef<Value> extents,
                               int64_t lastIndexExtra) {
  // Unsigned comparisons also reject negative indices.
  Value all;
  auto conjoin = [&](Value index, Value extent) {
    Value valid = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                        index, extent);
    all = all ? arith::AndIOp::create(builder, loc, all, valid) : valid;
  };
  for (auto [index, extent] : llvm::zip(indices, extents))
    conjoin(index, extent);
  if (lastIndexExtra)
    conjoin(arith::AddIOp::create(builder, loc, indices.back(),
                                  indexConstant(loc, lastIndexExtra)),
            extents.back());
  return all;
}

Value KernelLowering::regionInside(Location loc, const Tensor &tensor,
                                   ArrayRef<Value> origin,
                                   ArrayRef<int64_t> shape) {
  // Unsigned comparisons also reject negative origins.
  size_t rank = origin.size(), trailing = rank - shape.size();
  Value inside;
  for (size_t d = 0; d < rank; ++d) {
    Value valid = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                        origin[d], tensor.dims[d]);
    if (d >= trailing) {
      Value end = arith::AddIOp::create(
          builder, loc, origin[d], indexConstant(loc, shape[d - trailing]));
      valid = arith::AndIOp::create(
          builder, loc, valid,
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule, end,
                                tensor.dims[d]));
    }
    inside =
        inside ? arith::AndIOp::create(builder, loc, inside, valid) : valid;
  }
  return inside;
}

Value KernelLowering::chunksAligned(Location loc, const Tensor &tensor,
                                    ArrayRef<Value> origin, int64_t chunk) {
  auto isMultiple = [&](Value value) {
    return arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(builder, loc, value, indexConstant(loc, chunk)),
        indexConstant(loc, 0));
  };
  return arith::AndIOp::create(builder, loc, isMultiple(tensor.dims.back()),
                               isMultiple(origin.back()));
}

FailureOr<Value> KernelLowering::privatePointer(Operation *access,
                                                Value bufferValue,
                                                ArrayRef<Value> indices,
                                                Lane &lane) {
  Location loc = access->getLoc();
  const PrivateBuffer *buffer = findPrivate(bufferValue);
  if (!buffer)
    return access->emitOpError("of a buffer without per-thread storage");
  Value linear;
  auto slice = dyn_cast_or_null<tile::SliceLayoutAttr>(buffer->fragmentLayout);
  auto loop = access->getParentOfType<tile::ParallelOp>();
  // A replicated fragment holds every element at its row-major index.
  if (buffer->fragmentLayout &&
      !isa<tile::ReplicatedLayoutAttr>(buffer->fragmentLayout)) {
    if (!lane.fragmentIndex)
      return access->emitOpError("of a fragment outside a 'tile.parallel' "
                                 "loop is not supported by the code "
                                 "generator");
    linear = lane.fragmentIndex;
    // A row statistic read in a loop over its parent layout: the register
    // of the row of the loop's register.
    if (slice && loop && loop.getLayoutAttr() == slice.getParent()) {
      FailureOr<tile::MmaTiling> tiling =
          slice.getParent().getTiling(loop.getExtents());
      std::optional<int64_t> reg = getConstantIntValue(lane.fragmentIndex);
      if (failed(tiling) || !reg)
        return access->emitOpError("of a sliced fragment in a loop whose ")
               << "registers are not known when compiling";
      linear = indexConstant(loc, slice.getSliceRegister(*tiling, *reg));
    }
  } else {
    auto type = cast<tile::BufferType>(bufferValue.getType());
    linear = rowMajorOffset(loc, indices, type.getShape());
  }
  Value offset =
      arith::IndexCastOp::create(builder, loc, builder.getI64Type(), linear);
  return LLVM::GEPOp::create(builder, loc, buffer->base.getType(),
                             buffer->storageType, buffer->base,
                             ValueRange{offset})
      .getResult();
}

namespace {
/// The address of register `reg` of the thread's storage of `buffer`.
Value registerPointer(KernelLowering &lowering, Location loc,
                      const PrivateBuffer &buffer, int64_t reg) {
  OpBuilder &builder = lowering.getBuilder();
  Value offset = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                          builder.getI64IntegerAttr(reg));
  return LLVM::GEPOp::create(builder, loc, buffer.base.getType(),
                             buffer.storageType, buffer.base,
                             ValueRange{offset});
}
} // namespace

Value KernelLowering::loadFragmentRegister(Location loc,
                                           const PrivateBuffer &fragment,
                                           int64_t reg) {
  Value stored =
      LLVM::LoadOp::create(builder, loc, fragment.storageType,
                           registerPointer(*this, loc, fragment, reg));
  return fromStorage(loc, stored, fragment.elementType);
}

void KernelLowering::storeFragmentRegister(Location loc,
                                           const PrivateBuffer &fragment,
                                           int64_t reg, Value value) {
  LLVM::StoreOp::create(builder, loc, toStorage(loc, value),
                        registerPointer(*this, loc, fragment, reg));
}

//===----------------------------------------------------------------------===//
// Lowerings
//===----------------------------------------------------------------------===//

namespace {

/// The element of a small replicated fragment that `load` reads at
/// `indices` known only at run time, chosen among the fragment's registers
/// by a chain of selects; null for any other load.
Value selectReplicatedElement(KernelLowering &lowering, tile::LoadOp load,
                              ArrayRef<Value> indices) {
  const PrivateBuffer *buffer = lowering.findPrivate(load.getBuffer());
  if (!buffer ||
      !isa_and_nonnull<tile::ReplicatedLayoutAttr>(buffer->fragmentLayout) ||
      buffer->size > kMaxSelectedRegisters)
    return Value();
  OpBuilder &builder = lowering.getBuilder();
  Location loc = load.getLoc();
  auto type = cast<tile::BufferType>(load.getBuffer().getType());
  Value linear = lowering.rowMajorOffset(loc, indices, type.getShape());
  if (getConstantIntValue(linear))
    return Value();
  Value element = lowering.loadFragmentRegister(loc, *buffer, 0);
  for (int64_t reg = 1; reg < buffer->size; ++reg) {
    Value isReg =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, linear,
                              lowering.indexConstant(loc, reg));
    element = arith::SelectOp::create(
        builder, loc, isReg, lowering.loadFragmentRegister(loc, *buffer, reg),
        element);
  }
  return element;
}

LogicalResult lowerLoad(KernelLowering &lowering, tile::LoadOp load,
                        Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = load.getLoc();
  SmallVector<Value> indices = lowering.lookup(lane, load.getIndices());
  Type elementType = load.getType();
  if (const Tensor *tensor = lowering.findTensor(load.getBuffer())) {
    // Out-of-bounds reads give 0.
    Value valid = lowering.inBounds(loc, *tensor, indices);
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{elementType}, valid,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(ifOp.thenBlock());
    Value pointer = lowering.elementPointer(loc, *tensor, indices);
    Value stored =
        LLVM::LoadOp::create(builder, loc, tensor->storageType, pointer);
    scf::YieldOp::create(builder, loc,
                         lowering.fromStorage(loc, stored, elementType));
    builder.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(builder, loc, lowering.zeroOf(loc, elementType));
    lane.map.map(load.getResult(), ifOp.getResult(0));
    return success();
  }
  if (const SharedBuffer *shared = lowering.findShared(load.getBuffer()))
    return lowering.loadShared(load, *shared, lane);
  if (Value selected = selectReplicatedElement(lowering, load, indices)) {
    lane.map.map(load.getResult(), selected);
    return success();
  }
  FailureOr<Value> pointer =
      lowering.privatePointer(load, load.getBuffer(), indices, lane);
  if (failed(pointer))
    return failure();
  Value stored =
      LLVM::LoadOp::create(builder, loc, storageTypeOf(elementType), *pointer);
  lane.map.map(load.getResult(),
               lowering.fromStorage(loc, stored, elementType));
  return success();
}

LogicalResult lowerStore(KernelLowering &lowering, tile::StoreOp store,
                         Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = store.getLoc();
  SmallVector<Value> indices = lowering.lookup(lane, store.getIndices());
  Value value = lowering.toStorage(loc, lane.map.lookup(store.getValue()));
  if (const Tensor *tensor = lowering.findTensor(store.getBuffer())) {
    // Out-of-bounds writes are dropped.
    Value valid = lowering.inBounds(loc, *tensor, indices);
    if (lane.storingThread)
      valid = arith::AndIOp::create(builder, loc, valid, lane.storingThread);
    auto ifOp = scf::IfOp::create(builder, loc, valid,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Value pointer = lowering.elementPointer(loc, *tensor, indices);
    LLVM::StoreOp::create(builder, loc, value, pointer);
    return success();
  }
  if (const SharedBuffer *shared = lowering.findShared(store.getBuffer()))
    return lowering.storeShared(store, *shared, lane);
  FailureOr<Value> pointer =
      lowering.privatePointer(store, store.getBuffer(), indices, lane);
  if (failed(pointer))
    return failure();
  LLVM::StoreOp::create(builder, loc, value, *pointer);
  return success();
}

/// Sets every element of `buffer` to `value` (zero if null): the thread's
/// per-thread storage, or a shared tile.
LogicalResult lowerFill(KernelLowering &lowering, Operation *op, Value buffer,
                        Value value, Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = op->getLoc();
  if (const SharedBuffer *shared = lowering.findShared(buffer))
    return lowering.fillShared(op, *shared, value, lane);
  const PrivateBuffer *storage = lowering.findPrivate(buffer);
  if (!storage)
    return op->emitOpError("of a buffer without per-thread storage");
  Value stored = lowering.toStorage(
      loc, value ? value : lowering.zeroOf(loc, storage->elementType));
  auto storeAt = [&](Value index) {
    Value offset =
        arith::IndexCastOp::create(builder, loc, builder.getI64Type(), index);
    Value pointer = LLVM::GEPOp::create(builder, loc, storage->base.getType(),
                                        storage->storageType, storage->base,
                                        ValueRange{offset});
    LLVM::StoreOp::create(builder, loc, stored, pointer);
  };
  if (storage->size <= kMaxUnrolledFill) {
    for (int64_t i = 0; i < storage->size; ++i)
      storeAt(lowering.indexConstant(loc, i));
    return success();
  }
  auto loop = scf::ForOp::create(builder, loc, lowering.indexConstant(loc, 0),
                                 lowering.indexConstant(loc, storage->size),
                                 lowering.indexConstant(loc, 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  storeAt(loop.getInductionVar());
  return success();
}

} // namespace

void tilec::populateMemoryLowerings(LoweringSet &set) {
  set.add<tile::LoadOp>(lowerLoad);
  set.add<tile::StoreOp>(lowerStore);
  set.add<tile::FillOp>(
      [](KernelLowering &lowering, tile::FillOp fill, Lane &lane) {
        return lowerFill(lowering, fill, fill.getBuffer(),
                         lane.map.lookup(fill.getValue()), lane);
      });
  set.add<tile::ClearOp>(
      [](KernelLowering &lowering, tile::ClearOp clear, Lane &lane) {
        return lowerFill(lowering, clear, clear.getBuffer(), Value(), lane);
      });
}
