//===- Copy.cpp - Tile copies between memory scopes -----------------------===//
//
// The lowerings of `tile.copy` that the GEMM path needs:
//
// * global -> shared: the block's threads copy the tile in 16-byte chunks
//   with `cp.async.cg` (zero-filling whatever lies outside the tensor), when
//   the tensor's rows and the region's first column are 16-byte aligned;
//   otherwise element by element with guarded loads. The copy waits for its
//   chunks and ends with a barrier, and starts with one, so that no thread
//   overwrites a tile another thread still reads. An `async` copy (made by
//   tile-pipeline-loops) only starts its chunks: the pipeline's
//   `tile.async_commit`, `tile.async_wait` and `tile.barrier` order it.
// * fragment (`#tile.mma` or `#tile.flat`) -> global: every thread stores
//   the elements it holds, converted to the tensor's element type, dropping
//   those outside the tensor.
//
// Other copies are not supported yet (`tile-check-codegen-support` reports
// them).
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"

#include "passes/Analysis/AccessAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;

namespace {

/// Bytes one `cp.async` moves.
constexpr int64_t kCopyChunkBytes = 16;

tile::BufferType bufferType(Value buffer) {
  return cast<tile::BufferType>(buffer.getType());
}

/// True for a global tensor region copied into a rank-2 shared tile.
bool isGlobalToShared(tile::CopyOp copy) {
  tile::BufferType source = bufferType(copy.getSource());
  tile::BufferType target = bufferType(copy.getTarget());
  return source.isGlobal() && target.isShared() && target.getRank() == 2 &&
         copy.getTargetIndices().empty();
}

/// True for a whole fragment copied into a global tensor region.
bool isFragmentToGlobal(tile::CopyOp copy) {
  tile::BufferType source = bufferType(copy.getSource());
  tile::BufferType target = bufferType(copy.getTarget());
  return source.isFragment() && target.isGlobal() && source.getRank() >= 1 &&
         copy.getSourceIndices().empty();
}

/// Converts the float `value` to the float type `type`.
Value convertFloat(OpBuilder &builder, Location loc, Value value, Type type) {
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

/// Emits the copy of a global tensor region into a shared tile.
class GlobalToSharedCopy {
public:
  GlobalToSharedCopy(KernelLowering &lowering, tile::CopyOp copy, Lane &lane)
      : lowering(lowering), builder(lowering.getBuilder()), copy(copy),
        lane(lane), loc(copy.getLoc()) {}

  LogicalResult emit();

private:
  Value constant(int64_t value) { return lowering.indexConstant(loc, value); }
  /// The tensor indices of element (row, column) of the tile.
  SmallVector<Value> tensorIndices(Value row, Value column);
  /// Emits the chunked `cp.async` copy.
  void emitChunks(int64_t chunkElements);
  /// Emits the element-by-element copy.
  void emitElements();

  KernelLowering &lowering;
  OpBuilder &builder;
  tile::CopyOp copy;
  Lane &lane;
  Location loc;
  const Tensor *tensor = nullptr;
  const SharedBuffer *tile = nullptr;
  SmallVector<Value> origin;
};

SmallVector<Value> GlobalToSharedCopy::tensorIndices(Value row, Value column) {
  SmallVector<Value> indices(origin.begin(), origin.end());
  size_t rank = indices.size();
  indices[rank - 2] =
      arith::AddIOp::create(builder, loc, origin[rank - 2], row);
  indices[rank - 1] =
      arith::AddIOp::create(builder, loc, origin[rank - 1], column);
  return indices;
}

void GlobalToSharedCopy::emitChunks(int64_t chunkElements) {
  int64_t rows = tile->shape[0], columns = tile->shape[1];
  int64_t chunksPerRow = columns / chunkElements;
  int64_t chunks = rows * chunksPerRow;
  int64_t threads = lowering.getThreads();
  int64_t elementBytes = storageBytes(tile->elementType);
  Type i32 = builder.getI32Type();
  for (int64_t first = 0; first < chunks; first += threads) {
    OpBuilder::InsertionGuard guard(builder);
    Value chunk = arith::AddIOp::create(builder, loc, lowering.getThreadIndex(),
                                        constant(first));
    if (first + threads > chunks) {
      Value inRange = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, chunk, constant(chunks));
      auto ifOp = scf::IfOp::create(builder, loc, inRange,
                                    /*withElseRegion=*/false);
      builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    }
    Value row =
        arith::DivUIOp::create(builder, loc, chunk, constant(chunksPerRow));
    Value column = arith::MulIOp::create(
        builder, loc,
        arith::RemUIOp::create(builder, loc, chunk, constant(chunksPerRow)),
        constant(chunkElements));
    SmallVector<Value> indices = tensorIndices(row, column);
    // Bytes of the chunk inside the tensor: 0 for a row outside it, else
    // the columns left in the row, at most a chunk (the rest is zeroed).
    Value rowValid;
    for (size_t d = 0; d + 1 < indices.size(); ++d) {
      Value inside = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, indices[d], tensor->dims[d]);
      rowValid = rowValid
                     ? arith::AndIOp::create(builder, loc, rowValid, inside)
                     : inside;
    }
    Value left = arith::SubIOp::create(builder, loc, tensor->dims.back(),
                                       indices.back());
    Value positive = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sgt, left, constant(0));
    Value valid = arith::AndIOp::create(builder, loc, rowValid, positive);
    Value elements =
        arith::MinSIOp::create(builder, loc, left, constant(chunkElements));
    Value bytes = arith::SelectOp::create(
        builder, loc, valid,
        arith::MulIOp::create(builder, loc, elements, constant(elementBytes)),
        constant(0));
    Value bytes32 = arith::IndexCastOp::create(builder, loc, i32, bytes);
    // A chunk outside the tensor reads nothing; its address stays valid.
    Value source = LLVM::SelectOp::create(
        builder, loc, valid, lowering.elementPointer(loc, *tensor, indices),
        tensor->base);
    Value target = lowering.sharedElementPointer(loc, *tile, {row, column});
    NVVM::CpAsyncOp::create(builder, loc, target, source, kCopyChunkBytes,
                            NVVM::LoadCacheModifierKind::CG, bytes32);
  }
  if (copy.getAsync())
    return;
  NVVM::CpAsyncCommitGroupOp::create(builder, loc);
  NVVM::CpAsyncWaitGroupOp::create(builder, loc, 0);
}

void GlobalToSharedCopy::emitElements() {
  int64_t rows = tile->shape[0], columns = tile->shape[1];
  int64_t elements = rows * columns;
  int64_t threads = lowering.getThreads();
  auto loop = scf::ForOp::create(builder, loc, lowering.getThreadIndex(),
                                 constant(elements), constant(threads));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  Value element = loop.getInductionVar();
  Value row = arith::DivUIOp::create(builder, loc, element, constant(columns));
  Value column =
      arith::RemUIOp::create(builder, loc, element, constant(columns));
  SmallVector<Value> indices = tensorIndices(row, column);
  Value valid = lowering.inBounds(loc, *tensor, indices);
  auto ifOp = scf::IfOp::create(builder, loc, TypeRange{tile->storageType},
                                valid, /*withElseRegion=*/true);
  builder.setInsertionPointToStart(ifOp.thenBlock());
  Value loaded =
      LLVM::LoadOp::create(builder, loc, tensor->storageType,
                           lowering.elementPointer(loc, *tensor, indices));
  scf::YieldOp::create(builder, loc, loaded);
  builder.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(builder, loc, lowering.zeroOf(loc, tile->storageType));
  builder.setInsertionPointAfter(ifOp);
  LLVM::StoreOp::create(
      builder, loc, ifOp.getResult(0),
      lowering.sharedElementPointer(loc, *tile, {row, column}));
}

LogicalResult GlobalToSharedCopy::emit() {
  tensor = lowering.findTensor(copy.getSource());
  tile = lowering.findShared(copy.getTarget());
  if (!tensor || !tile)
    return copy.emitOpError("copies from an unknown tensor or tile");
  origin = lowering.lookup(lane, copy.getSourceIndices());
  if (origin.size() < 2)
    return copy.emitOpError("needs a tensor of rank 2 or more");

  // Readers of the tile's previous contents finish first (an async copy's
  // pipeline orders its stages with explicit waits and barriers).
  if (!copy.getAsync())
    lowering.emitBarrier(loc);
  int64_t elementBytes = storageBytes(tile->elementType);
  int64_t chunkElements = kCopyChunkBytes / elementBytes;
  auto argument = cast<BlockArgument>(copy.getSource());
  bool chunkable = tile->shape[1] % chunkElements == 0 &&
                   tensorAlignment(argument) >= kCopyChunkBytes;
  if (!chunkable) {
    emitElements();
  } else {
    // Chunks are aligned when the rows and the region's first column are.
    Value rowsAligned = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(builder, loc, tensor->dims.back(),
                               constant(chunkElements)),
        constant(0));
    Value columnAligned = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(builder, loc, origin.back(),
                               constant(chunkElements)),
        constant(0));
    Value aligned =
        arith::AndIOp::create(builder, loc, rowsAligned, columnAligned);
    auto paths =
        scf::IfOp::create(builder, loc, aligned, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(paths.thenBlock()->getTerminator());
    emitChunks(chunkElements);
    builder.setInsertionPoint(paths.elseBlock()->getTerminator());
    emitElements();
  }
  if (!copy.getAsync())
    lowering.emitBarrier(loc);
  return success();
}

/// The coordinates in its tile of the element a register of a fragment
/// holds, and whether it holds one (null: always).
struct RegisterElement {
  SmallVector<Value> coordinates;
  Value valid;
};

/// Computes, as IR, which element each register of a fragment holds.
class FragmentElements {
public:
  FragmentElements(KernelLowering &lowering, Location loc,
                   tile::BufferType type)
      : lowering(lowering), builder(lowering.getBuilder()), loc(loc),
        shape(type.getShape()), layout(type.getLayout()) {}

  /// Prepares the lane-dependent values; fails for a layout it cannot map.
  LogicalResult initialize();
  /// The element of register `reg`.
  RegisterElement lookup(int64_t reg);
  /// True if every even register and the next one hold two consecutive
  /// elements of a row (the (2t, 2t + 1) columns of the mma layouts; the
  /// vectors of `#tile.flat<vec>` with vec >= 2), both held or neither.
  bool pairsAreConsecutive() const { return isMma || distribution.vec >= 2; }

private:
  Value constant(int64_t value) { return lowering.indexConstant(loc, value); }

  KernelLowering &lowering;
  OpBuilder &builder;
  Location loc;
  ArrayRef<int64_t> shape;
  Attribute layout;
  /// The mma tiling, for a `#tile.mma` fragment.
  bool isMma = false;
  tile::MmaTiling tiling;
  /// The distribution, for a `#tile.flat` fragment.
  tile::FlatDistribution distribution;
  /// mma: the row and column of the lane's register 0; flat: the flat index
  /// of the thread's first element.
  Value rowBase, columnBase, flatBase;
};

LogicalResult FragmentElements::initialize() {
  Value thread = lowering.getThreadIndex();
  if (auto mma = dyn_cast_or_null<tile::MmaLayoutAttr>(layout)) {
    FailureOr<tile::MmaTiling> found = mma.getTiling(shape);
    if (failed(found))
      return failure();
    isMma = true;
    tiling = *found;
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
  auto flat = dyn_cast_or_null<tile::FlatLayoutAttr>(layout);
  if (!flat)
    return failure();
  int64_t total = 1;
  for (int64_t extent : shape)
    total *= extent;
  distribution = flat.distribute(total, lowering.getThreads());
  flatBase =
      arith::MulIOp::create(builder, loc, thread, constant(flat.getVec()));
  return success();
}

RegisterElement FragmentElements::lookup(int64_t reg) {
  RegisterElement element;
  if (isMma) {
    int64_t tile = reg / 4, i = reg % 4;
    int64_t m = tile / tiling.nTiles(), n = tile % tiling.nTiles();
    element.coordinates = {
        arith::AddIOp::create(builder, loc, rowBase,
                              constant(tiling.mTileStride() * m + 8 * (i / 2))),
        arith::AddIOp::create(builder, loc, columnBase,
                              constant(8 * n + i % 2))};
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

/// Emits the copy of a fragment into a global tensor region: every thread
/// stores the elements it holds, converted to the tensor's element type,
/// and drops those outside the tensor. Two consecutive elements of a row
/// held by a register pair are stored as one vector when both lie inside
/// the tensor and the tensor's rows and the region's first column are
/// even (so the pair is aligned to its size); element by element otherwise.
LogicalResult emitFragmentToGlobal(KernelLowering &lowering, tile::CopyOp copy,
                                   Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = copy.getLoc();
  const PrivateBuffer *fragment = lowering.findPrivate(copy.getSource());
  const Tensor *tensor = lowering.findTensor(copy.getTarget());
  auto fragmentType = bufferType(copy.getSource());
  FragmentElements elements(lowering, loc, fragmentType);
  if (!fragment || !tensor || failed(elements.initialize()))
    return copy.emitOpError("copies a fragment whose layout ")
           << fragmentType.getLayout() << " it cannot map";
  SmallVector<Value> origin = lowering.lookup(lane, copy.getTargetIndices());
  size_t rank = fragmentType.getRank();
  if (origin.size() < rank)
    return copy.emitOpError("copies a tile into a tensor of lower rank");
  int64_t registers = fragment->size;
  // The tile is aligned to the tensor's trailing dims.
  auto tensorIndices = [&](const RegisterElement &element) {
    SmallVector<Value> indices = origin;
    for (size_t d = 0; d < rank; ++d) {
      size_t tensorDim = origin.size() - rank + d;
      indices[tensorDim] = arith::AddIOp::create(
          builder, loc, origin[tensorDim], element.coordinates[d]);
    }
    return indices;
  };
  auto storedValue = [&](int64_t reg) {
    return lowering.toStorage(
        loc, convertFloat(builder, loc,
                          lowering.loadFragmentRegister(loc, *fragment, reg),
                          tensor->elementType));
  };
  // Stores register `reg` if its element lies inside the tensor.
  auto storeGuarded = [&](int64_t reg) {
    RegisterElement element = elements.lookup(reg);
    SmallVector<Value> indices = tensorIndices(element);
    Value valid = lowering.inBounds(loc, *tensor, indices);
    if (element.valid)
      valid = arith::AndIOp::create(builder, loc, valid, element.valid);
    auto ifOp = scf::IfOp::create(builder, loc, valid,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    LLVM::StoreOp::create(builder, loc, storedValue(reg),
                          lowering.elementPointer(loc, *tensor, indices));
  };

  int64_t elementBytes = storageBytes(tensor->elementType);
  bool pairs = elements.pairsAreConsecutive() && registers % 2 == 0 &&
               tensorAlignment(cast<BlockArgument>(copy.getTarget())) >=
                   2 * elementBytes;
  if (!pairs) {
    for (int64_t reg = 0; reg < registers; ++reg)
      storeGuarded(reg);
    return success();
  }
  // Pairs start at even columns of the tile: aligned when the tensor's rows
  // and the region's first column are even.
  auto isEven = [&](Value value) {
    return arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq,
        arith::AndIOp::create(builder, loc, value,
                              lowering.indexConstant(loc, 1)),
        lowering.indexConstant(loc, 0));
  };
  Value aligned = arith::AndIOp::create(
      builder, loc, isEven(tensor->dims.back()), isEven(origin.back()));
  Type pairType = VectorType::get({2}, tensor->storageType);
  for (int64_t reg = 0; reg < registers; reg += 2) {
    RegisterElement element = elements.lookup(reg);
    SmallVector<Value> indices = tensorIndices(element);
    Value whole = arith::AndIOp::create(
        builder, loc, aligned,
        lowering.inBounds(loc, *tensor, indices, /*lastIndexExtra=*/1));
    if (element.valid)
      whole = arith::AndIOp::create(builder, loc, whole, element.valid);
    auto paths = scf::IfOp::create(builder, loc, whole,
                                   /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(paths.thenBlock()->getTerminator());
    Value pair = LLVM::PoisonOp::create(builder, loc, pairType);
    for (int64_t half = 0; half < 2; ++half)
      pair = LLVM::InsertElementOp::create(
          builder, loc, pair, storedValue(reg + half),
          LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), half));
    LLVM::StoreOp::create(builder, loc, pair,
                          lowering.elementPointer(loc, *tensor, indices),
                          /*alignment=*/2 * elementBytes);
    builder.setInsertionPoint(paths.elseBlock()->getTerminator());
    storeGuarded(reg);
    storeGuarded(reg + 1);
  }
  return success();
}

/// True for the copies this file lowers.
bool isSupportedCopy(tile::CopyOp copy) {
  auto source = bufferType(copy.getSource());
  auto target = bufferType(copy.getTarget());
  if (isGlobalToShared(copy))
    return source.getElementType() == target.getElementType();
  if (isFragmentToGlobal(copy))
    return isa<FloatType>(target.getElementType()) &&
           isa<FloatType>(source.getElementType());
  return false;
}

} // namespace

void tilec::populateCopyLowerings(LoweringSet &set) {
  set.add<tile::CopyOp>(
      [](KernelLowering &lowering, tile::CopyOp copy,
         Lane &lane) -> LogicalResult {
        if (lane.fragmentIndex)
          return copy.emitOpError("inside a 'tile.parallel' loop is not "
                                  "supported");
        if (!isSupportedCopy(copy))
          return copy.emitOpError("between these memory scopes is not "
                                  "supported by the code generator yet");
        if (isGlobalToShared(copy))
          return GlobalToSharedCopy(lowering, copy, lane).emit();
        return emitFragmentToGlobal(lowering, copy, lane);
      },
      [](tile::CopyOp copy) { return isSupportedCopy(copy); });
}
