//===- FragmentElements.cpp - Registers of a fragment as IR ---------------===//

#include "codegen/Conversion/TileToLLVM/FragmentElements.h"

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilec;

FragmentElements::FragmentElements(KernelLowering &lowering, Location loc,
                                   ArrayRef<int64_t> shape, Attribute layout)
    : lowering(lowering), builder(lowering.getBuilder()), loc(loc),
      shape(shape), layout(layout) {}

Value FragmentElements::constant(int64_t value) {
  return lowering.indexConstant(loc, value);
}

LogicalResult FragmentElements::initialize() {
  Value thread = lowering.getThreadIndex();
  auto slice = dyn_cast_or_null<tile::SliceLayoutAttr>(layout);
  auto mma =
      slice ? slice.getParent() : dyn_cast_or_null<tile::MmaLayoutAttr>(layout);
  if (mma) {
    FailureOr<tile::MmaTiling> found =
        slice ? slice.getParentTiling(shape) : mma.getTiling(shape);
    if (failed(found) ||
        lowering.getThreads() != 32 * found->warpsM * found->warpsN)
      return failure();
    isMma = !slice;
    if (slice)
      slicedDim = slice.getDim();
    tiling = *found;
    numRegisters =
        slice ? slice.getElementsPerThread(shape, lowering.getThreads())
              : tiling.elementsPerThread();
    Value lane = arith::RemUIOp::create(builder, loc, thread, constant(32));
    // Register 0 of a lane is at (rowOrigin(warpRow) + g,
    // warpColumn*WTN + 2t) (MmaTiling::coordinates).
    auto [warpRow, warpColumn] = lowering.warpGridPosition(loc, tiling);
    rowBase = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, warpRow,
                              constant(tiling.rowOrigin(1))),
        arith::DivUIOp::create(builder, loc, lane, constant(4)));
    columnBase = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, warpColumn,
                              constant(tiling.warpTileN)),
        arith::MulIOp::create(
            builder, loc,
            arith::RemUIOp::create(builder, loc, lane, constant(4)),
            constant(2)));
    return success();
  }
  int64_t total = 1;
  for (int64_t extent : shape)
    total *= extent;
  if (isa_and_nonnull<tile::ReplicatedLayoutAttr>(layout)) {
    isReplicated = true;
    numRegisters = total;
    return success();
  }
  auto flat = dyn_cast_or_null<tile::FlatLayoutAttr>(layout);
  if (!flat)
    return failure();
  distribution = flat.distribute(total, lowering.getThreads());
  numRegisters = distribution.elementsPerThread();
  flatBase =
      arith::MulIOp::create(builder, loc, thread, constant(flat.getVec()));
  return success();
}

RegisterElement FragmentElements::lookup(int64_t reg) {
  RegisterElement element;
  if (slicedDim) {
    // Two registers per 16-row tile (rows g and g + 8) or per 8-column tile
    // (columns 2t and 2t + 1).
    Value base = *slicedDim == 1 ? rowBase : columnBase;
    int64_t offset = *slicedDim == 1
                         ? tiling.mTileStride() * (reg / 2) + 8 * (reg % 2)
                         : 8 * (reg / 2) + reg % 2;
    element.coordinates = {
        arith::AddIOp::create(builder, loc, base, constant(offset))};
    return element;
  }
  if (isMma) {
    int64_t tile = reg / 4, i = reg % 4;
    int64_t m = tile / tiling.nTiles(), n = tile % tiling.nTiles();
    // Registers of one row (column) share its value: loads that depend on
    // it only are then recognized as the same (Parallel.cpp).
    auto offsetOf = [&](Value base, int64_t offset,
                        llvm::DenseMap<int64_t, Value> &cache) {
      Value &value = cache[offset];
      if (!value)
        value = arith::AddIOp::create(builder, loc, base, constant(offset));
      return value;
    };
    element.coordinates = {
        offsetOf(rowBase, tiling.mTileStride() * m + 8 * (i / 2), rows),
        offsetOf(columnBase, 8 * n + i % 2, columns)};
    return element;
  }
  if (isReplicated) {
    // Register r holds row-major element r in every thread.
    for (int64_t coordinate : tile::delinearize(reg, shape))
      element.coordinates.push_back(constant(coordinate));
    return element;
  }
  // Register s*vec + l holds flat element (s*T + t)*vec + l.
  int64_t vec = distribution.vec;
  int64_t step = reg / vec;
  Value flat = arith::AddIOp::create(
      builder, loc, flatBase,
      constant(step * distribution.elementsPerStep() + reg % vec));
  if ((step + 1) * distribution.elementsPerStep() > distribution.total)
    element.valid =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, flat,
                              constant(distribution.total));
  element.coordinates.resize(shape.size());
  Value rest = flat;
  for (size_t d = shape.size(); d-- > 1;) {
    element.coordinates[d] =
        arith::RemUIOp::create(builder, loc, rest, constant(shape[d]));
    rest = arith::DivUIOp::create(builder, loc, rest, constant(shape[d]));
  }
  element.coordinates[0] = rest;
  return element;
}

Value FragmentElements::ownsElement(Value reg) {
  Value thread = lowering.getThreadIndex();
  if (isReplicated)
    return arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, thread,
        arith::RemUIOp::create(builder, loc, reg,
                               constant(lowering.getThreads())));
  if (!slicedDim)
    return Value();
  // A row is held by the 4 lanes of a quad in every warp column: lane t = 0
  // of the first column stores it (a column: lane g = 0 of the first row).
  Value lane = arith::RemUIOp::create(builder, loc, thread, constant(32));
  auto [warpRow, warpColumn] = lowering.warpGridPosition(loc, tiling);
  bool rows = *slicedDim == 1;
  Value laneInLine =
      rows
          ? arith::RemUIOp::create(builder, loc, lane, constant(4)).getResult()
          : arith::DivUIOp::create(builder, loc, lane, constant(4)).getResult();
  Value isFirstLane = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq, laneInLine, constant(0));
  Value isFirstWarp =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                            rows ? warpColumn : warpRow, constant(0));
  return arith::AndIOp::create(builder, loc, isFirstLane, isFirstWarp);
}

Value tilec::convertFloat(OpBuilder &builder, Location loc, Value value,
                          Type type) {
  Type from = value.getType();
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = type.getIntOrFloatBitWidth();
  if (from == type)
    return value;
  if (fromBits < toBits)
    return arith::ExtFOp::create(builder, loc, type, value);
  if (fromBits == toBits) // f16 <-> bf16, through f32.
    value = arith::ExtFOp::create(builder, loc, builder.getF32Type(), value);
  return arith::TruncFOp::create(builder, loc, type, value);
}

Value tilec::packRegisters(KernelLowering &lowering, Location loc,
                           const PrivateBuffer &fragment, int64_t first,
                           int64_t count, Type elementType) {
  OpBuilder &builder = lowering.getBuilder();
  SmallVector<Value> elements;
  for (int64_t i = 0; i < count; ++i)
    elements.push_back(lowering.toStorage(
        loc,
        convertFloat(builder, loc,
                     lowering.loadFragmentRegister(loc, fragment, first + i),
                     elementType)));
  if (count == 1)
    return elements.front();
  Value vector = LLVM::PoisonOp::create(
      builder, loc, VectorType::get({count}, elements.front().getType()));
  for (auto [i, element] : llvm::enumerate(elements))
    vector = LLVM::InsertElementOp::create(
        builder, loc, vector, element,
        LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                 builder.getI32IntegerAttr(i)));
  return vector;
}
