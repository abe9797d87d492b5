//===- Copy.cpp - Tile copies between memory scopes -----------------------===//
//
// The lowerings of `tile.copy` that the GEMM path needs:
//
// * global -> rank-2 shared of the same element type: the block's threads
//   copy the tile in 16-byte chunks with `cp.async.cg` (zero-filling
//   whatever lies outside the tensor), when the tensor's rows and the
//   region's first column are 16-byte aligned; otherwise element by element
//   with guarded loads. A tile that lies wholly
//   inside the tensor (every tile of a GEMM's main loop but the edges) takes
//   a path without bounds: whole chunks from one pointer per thread that
//   advances by a fixed number of rows per round of chunks. The copy waits for
//   its chunks and ends with a barrier, and starts with one, so that no thread
//   overwrites a tile another thread still reads. An `async` copy (made by
//   tile-pipeline-loops) only starts its chunks: the pipeline's
//   `tile.async_commit`, `tile.async_wait` and `tile.barrier` order it.
// * fragment <-> global, shared or fragment: every thread moves the
//   elements its registers hold (FragmentCopy below); with global memory
//   in vectors, untested where the whole region lies in the tensor.
// * global -> shared with an mbarrier: a TMA copy (WarpSpecialize.cpp);
//   fragment -> global through a staging tile: TMA stores (TmaStore.cpp).
//
// * the other copies between global and shared memory, and between shared
//   tiles: the block's threads share the region (BlockCopy.cpp).
//
// Copies of per-thread (local) buffers are not supported yet
// (`tile-check-codegen-support` reports them).
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"

#include "codegen/Conversion/TileToLLVM/BlockCopy.h"
#include "codegen/Conversion/TileToLLVM/FragmentElements.h"
#include "codegen/Conversion/TileToLLVM/TmaCopy.h"
#include "passes/Analysis/AccessAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;

namespace {

/// Bytes one `cp.async` moves.
constexpr int64_t kCopyChunkBytes = 16;

/// The element offset by which the chunk starts (columns that are
/// multiples of `chunkElements`) of rows `r + rows` lie from those of rows
/// `r` in `tile`'s layout, if it is one offset for every row and chunk:
/// then a thread's shared addresses, a round of `rows` rows apart, differ
/// by a constant.
std::optional<int64_t> rowPeriodOffset(const SharedBuffer &tile, int64_t rows,
                                       int64_t chunkElements) {
  // One round covers the tile: there is no second one to offset.
  if (rows >= tile.shape[0])
    return 0;
  auto layout = dyn_cast_or_null<tile::SharedLayoutAttrInterface>(tile.layout);
  auto offset = [&](int64_t row, int64_t column) {
    return layout ? layout.getElementOffset(tile.shape, {row, column})
                  : row * tile.shape[1] + column;
  };
  int64_t period = offset(rows, 0) - offset(0, 0);
  for (int64_t row = 0; row + rows < tile.shape[0]; ++row)
    for (int64_t column = 0; column < tile.shape[1]; column += chunkElements)
      if (offset(row + rows, column) - offset(row, column) != period)
        return std::nullopt;
  return period;
}

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
  /// True if the whole tile lies inside the tensor.
  Value tileInside();
  /// Emits the chunked `cp.async` copy: whole chunks where the tile lies
  /// inside the tensor, else each chunk clipped to the tensor (zero-filled
  /// where it lies outside).
  void emitChunks(int64_t chunkElements, bool clipped);
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

Value GlobalToSharedCopy::tileInside() {
  return lowering.regionInside(loc, *tensor, origin, tile->shape);
}

void GlobalToSharedCopy::emitChunks(int64_t chunkElements, bool clipped) {
  int64_t chunksPerRow = tile->shape[1] / chunkElements;
  int64_t chunks = tile->shape[0] * chunksPerRow;
  int64_t threads = lowering.getThreads();
  int64_t elementBytes = storageBytes(tile->elementType);
  Value thread = lowering.getThreadIndex();
  // Where a round of chunks (one per thread) covers whole rows, a thread
  // keeps its column and moves down by the round's rows: its source is one
  // pointer advanced by one add per round, not an address computed per
  // chunk; so is its target where the tile's layout repeats every round
  // (a constant offset, folded into the instruction).
  bool wholeRows = threads % chunksPerRow == 0;
  std::optional<int64_t> targetStep;
  if (wholeRows)
    targetStep = rowPeriodOffset(*tile, threads / chunksPerRow, chunkElements);
  Value threadRow, threadColumn, source, roundStep, target;
  if (wholeRows) {
    threadRow =
        arith::DivUIOp::create(builder, loc, thread, constant(chunksPerRow));
    threadColumn = arith::MulIOp::create(
        builder, loc,
        arith::RemUIOp::create(builder, loc, thread, constant(chunksPerRow)),
        constant(chunkElements));
    source = lowering.elementPointer(loc, *tensor,
                                     tensorIndices(threadRow, threadColumn));
    roundStep = arith::IndexCastOp::create(
        builder, loc, builder.getI64Type(),
        arith::MulIOp::create(builder, loc, tensor->dims.back(),
                              constant(threads / chunksPerRow)));
    if (targetStep)
      target =
          lowering.sharedElementPointer(loc, *tile, {threadRow, threadColumn});
  }
  for (int64_t first = 0; first < chunks; first += threads) {
    if (wholeRows && first > 0) {
      source = LLVM::GEPOp::create(builder, loc, tensor->base.getType(),
                                   tensor->storageType, source,
                                   ValueRange{roundStep});
      if (targetStep)
        target = LLVM::GEPOp::create(
            builder, loc, tile->base.getType(), tile->storageType, target,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(*targetStep)});
    }
    OpBuilder::InsertionGuard guard(builder);
    Value chunk = arith::AddIOp::create(builder, loc, thread, constant(first));
    if (first + threads > chunks) {
      Value inRange = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, chunk, constant(chunks));
      auto ifOp = scf::IfOp::create(builder, loc, inRange,
                                    /*withElseRegion=*/false);
      builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    }
    Value row, column;
    if (wholeRows) {
      row = arith::AddIOp::create(builder, loc, threadRow,
                                  constant(first / chunksPerRow));
      column = threadColumn;
    } else {
      row = arith::DivUIOp::create(builder, loc, chunk, constant(chunksPerRow));
      column = arith::MulIOp::create(
          builder, loc,
          arith::RemUIOp::create(builder, loc, chunk, constant(chunksPerRow)),
          constant(chunkElements));
    }
    SmallVector<Value> indices = tensorIndices(row, column);
    Value chunkSource =
        wholeRows ? source : lowering.elementPointer(loc, *tensor, indices);
    Value chunkTarget =
        targetStep ? target
                   : lowering.sharedElementPointer(loc, *tile, {row, column});
    if (!clipped) {
      NVVM::CpAsyncOp::create(builder, loc, chunkTarget, chunkSource,
                              kCopyChunkBytes, NVVM::LoadCacheModifierKind::CG,
                              /*cpSize=*/Value());
      continue;
    }
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
    Value bytes32 =
        arith::IndexCastOp::create(builder, loc, builder.getI32Type(), bytes);
    // A chunk outside the tensor reads nothing; its address stays valid.
    chunkSource =
        LLVM::SelectOp::create(builder, loc, valid, chunkSource, tensor->base);
    NVVM::CpAsyncOp::create(builder, loc, chunkTarget, chunkSource,
                            kCopyChunkBytes, NVVM::LoadCacheModifierKind::CG,
                            bytes32);
  }
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
    Value aligned = lowering.chunksAligned(loc, *tensor, origin, chunkElements);
    auto paths =
        scf::IfOp::create(builder, loc, aligned, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(paths.thenBlock()->getTerminator());
      // A warp-specialized kernel copies with TMA; its cp.async copies are
      // the fallback for tensors TMA cannot take, under the register cap of
      // two blocks per multiprocessor, where the second path's code and
      // registers cost more than its bounds save.
      if (lowering.isWarpSpecialized()) {
        emitChunks(chunkElements, /*clipped=*/true);
      } else {
        auto whole = scf::IfOp::create(builder, loc, tileInside(),
                                       /*withElseRegion=*/true);
        builder.setInsertionPoint(whole.thenBlock()->getTerminator());
        emitChunks(chunkElements, /*clipped=*/false);
        builder.setInsertionPoint(whole.elseBlock()->getTerminator());
        emitChunks(chunkElements, /*clipped=*/true);
        builder.setInsertionPointAfter(whole);
      }
      if (!copy.getAsync()) {
        NVVM::CpAsyncCommitGroupOp::create(builder, loc);
        NVVM::CpAsyncWaitGroupOp::create(builder, loc, 0);
      }
      builder.setInsertionPoint(paths.elseBlock()->getTerminator());
      emitElements();
    }
  }
  if (!copy.getAsync())
    lowering.emitBarrier(loc);
  return success();
}

/// True for a copy between a whole fragment and a global tensor region, a
/// shared tile (region) or another fragment of its shape; the element types
/// are equal or both float.
bool isFragmentCopy(tile::CopyOp copy) {
  tile::BufferType source = bufferType(copy.getSource());
  tile::BufferType target = bufferType(copy.getTarget());
  if ((source.isFragment() && !copy.getSourceIndices().empty()) ||
      (target.isFragment() && !copy.getTargetIndices().empty()))
    return false;
  tile::BufferType other = source.isFragment() ? target : source;
  if (!source.isFragment() && !target.isFragment())
    return false;
  if (other.isLocal())
    return false;
  if (source.isFragment() && target.isFragment() &&
      source.getShape() != target.getShape())
    return false;
  return source.getElementType() == target.getElementType() ||
         (isa<FloatType>(source.getElementType()) &&
          isa<FloatType>(target.getElementType()));
}

/// Emits a copy between a fragment and a global tensor region, a shared tile
/// or another fragment: every thread moves the elements its registers hold
/// (FragmentElements), converting them. On the global side, out-of-bounds
/// reads give 0 and writes are dropped; `chunk` consecutive elements of a
/// row that a thread holds in consecutive registers (the vectors of
/// `#tile.flat<vec>`, the pairs of `#tile.mma`) move as one vector of up to
/// 16 bytes when all of them lie in the tensor and the tensor's rows and the
/// region's first column are multiples of the chunk (so it is aligned to its
/// size), element by element otherwise. An element of a `#tile.replicated`
/// fragment is written to memory by one thread. A shared tile written is
/// fenced by barriers on both sides, as the other copies into shared memory.
class FragmentCopy {
public:
  FragmentCopy(KernelLowering &lowering, tile::CopyOp copy, Lane &lane)
      : lowering(lowering), builder(lowering.getBuilder()), copy(copy),
        lane(lane), loc(copy.getLoc()),
        toFragment(bufferType(copy.getTarget()).isFragment()),
        fragmentValue(toFragment ? copy.getTarget() : copy.getSource()),
        otherValue(toFragment ? copy.getSource() : copy.getTarget()),
        fragmentType(bufferType(fragmentValue)),
        elements(lowering, loc, fragmentType.getShape(),
                 fragmentType.getLayout()) {}

  LogicalResult emit();

private:
  Value constant(int64_t value) { return lowering.indexConstant(loc, value); }
  /// The indices in the other operand of the element `element` (the tile is
  /// aligned to its trailing dims, at the copy's origin).
  SmallVector<Value> otherIndices(const RegisterElement &element);
  /// Converts `value` to `type` (a float conversion or nothing).
  Value convert(Value value, Type type) {
    return value.getType() == type ? value
                                   : convertFloat(builder, loc, value, type);
  }
  /// True where this thread writes register `reg`'s element to memory: in
  /// the thread that owns it in a replicated or sliced fragment, everywhere
  /// else.
  Value ownsElement(int64_t reg);
  LogicalResult emitGlobal();
  void emitShared();
  LogicalResult emitFragment();

  KernelLowering &lowering;
  OpBuilder &builder;
  tile::CopyOp copy;
  Lane &lane;
  Location loc;
  bool toFragment;
  Value fragmentValue, otherValue;
  tile::BufferType fragmentType;
  FragmentElements elements;
  const PrivateBuffer *fragment = nullptr;
  SmallVector<Value> origin;
};

SmallVector<Value> FragmentCopy::otherIndices(const RegisterElement &element) {
  SmallVector<Value> indices = origin;
  size_t rank = element.coordinates.size();
  for (size_t d = 0; d < rank; ++d) {
    size_t otherDim = origin.size() - rank + d;
    indices[otherDim] = arith::AddIOp::create(builder, loc, origin[otherDim],
                                              element.coordinates[d]);
  }
  return indices;
}

Value FragmentCopy::ownsElement(int64_t reg) {
  return elements.ownsElement(constant(reg));
}

/// The conjunction of the non-null `conditions` (null if there are none).
Value conjoin(OpBuilder &builder, Location loc, ArrayRef<Value> conditions) {
  Value all;
  for (Value condition : conditions)
    if (condition)
      all =
          all ? arith::AndIOp::create(builder, loc, all, condition) : condition;
  return all;
}

LogicalResult FragmentCopy::emitGlobal() {
  const Tensor *tensor = lowering.findTensor(otherValue);
  if (!tensor)
    return copy.emitOpError("copies from or to an unknown tensor");
  if (origin.size() < size_t(fragmentType.getRank()))
    return copy.emitOpError("copies a tile from or to a tensor of lower rank");
  int64_t registers = elements.getNumRegisters();
  int64_t elementBytes = storageBytes(tensor->elementType);
  // Registers that hold consecutive elements of a row, moved as one vector.
  int64_t chunk = 1;
  if (auto flat = dyn_cast<tile::FlatLayoutAttr>(fragmentType.getLayout()))
    chunk = std::min<int64_t>(flat.getVec(), kCopyChunkBytes / elementBytes);
  else if (elements.pairsAreConsecutive())
    chunk = 2;
  if (chunk > 1 &&
      (registers % chunk != 0 ||
       tensorAlignment(cast<BlockArgument>(otherValue)) < chunk * elementBytes))
    chunk = 1;

  // One element, guarded by the tensor's bounds and the register's element.
  auto moveElement = [&](int64_t reg, const RegisterElement &element) {
    SmallVector<Value> indices = otherIndices(element);
    Value valid =
        conjoin(builder, loc,
                {lowering.inBounds(loc, *tensor, indices), element.valid,
                 toFragment ? Value() : ownsElement(reg)});
    if (toFragment) {
      auto ifOp = scf::IfOp::create(builder, loc,
                                    TypeRange{fragment->elementType}, valid,
                                    /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(ifOp.thenBlock());
        Value stored = LLVM::LoadOp::create(
            builder, loc, tensor->storageType,
            lowering.elementPointer(loc, *tensor, indices));
        scf::YieldOp::create(
            builder, loc,
            convert(lowering.fromStorage(loc, stored, tensor->elementType),
                    fragment->elementType));
        builder.setInsertionPointToStart(ifOp.elseBlock());
        scf::YieldOp::create(builder, loc,
                             lowering.zeroOf(loc, fragment->elementType));
      }
      lowering.storeFragmentRegister(loc, *fragment, reg, ifOp.getResult(0));
      return;
    }
    lowering.emitGuarded(loc, valid, [&] {
      Value value = convert(lowering.loadFragmentRegister(loc, *fragment, reg),
                            tensor->elementType);
      LLVM::StoreOp::create(builder, loc, lowering.toStorage(loc, value),
                            lowering.elementPointer(loc, *tensor, indices));
    });
  };
  if (chunk == 1) {
    for (int64_t reg = 0; reg < registers; ++reg)
      moveElement(reg, elements.lookup(reg));
    return success();
  }

  // Chunks start at multiples of the chunk in the tile's rows: aligned when
  // the tensor's rows and the region's first column are multiples too.
  Value aligned = lowering.chunksAligned(loc, *tensor, origin, chunk);
  Type vectorType = VectorType::get({chunk}, tensor->storageType);
  auto position = [&](int64_t i) {
    return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                    builder.getI32IntegerAttr(i));
  };
  // The chunk of registers from `first` as one vector at `indices`.
  auto moveVector = [&](int64_t first, ArrayRef<Value> indices) {
    Value pointer = lowering.elementPointer(loc, *tensor, indices);
    if (!toFragment) {
      LLVM::StoreOp::create(builder, loc,
                            packRegisters(lowering, loc, *fragment, first,
                                          chunk, tensor->elementType),
                            pointer, chunk * elementBytes);
      return;
    }
    Value vector = LLVM::LoadOp::create(builder, loc, vectorType, pointer,
                                        chunk * elementBytes);
    for (int64_t i = 0; i < chunk; ++i) {
      Value element =
          LLVM::ExtractElementOp::create(builder, loc, vector, position(i));
      lowering.storeFragmentRegister(
          loc, *fragment, first + i,
          convert(lowering.fromStorage(loc, element, tensor->elementType),
                  fragment->elementType));
    }
  };
  // Looked up before the paths split: lookup shares values between
  // registers.
  SmallVector<RegisterElement> registerElements;
  for (int64_t reg = 0; reg < registers; ++reg)
    registerElements.push_back(elements.lookup(reg));
  // Every chunk; with `inside` (the region lies in the tensor and its
  // chunks are aligned) those of elements that always exist as bare vectors,
  // else each chunk tested: a vector where it lies in the tensor, else
  // element by element.
  auto moveChunks = [&](bool inside) {
    for (int64_t first = 0; first < registers; first += chunk) {
      ArrayRef<RegisterElement> chunkElements =
          ArrayRef(registerElements).slice(first, chunk);
      SmallVector<Value> indices = otherIndices(chunkElements.front());
      if (inside && !chunkElements.front().valid) {
        moveVector(first, indices);
        continue;
      }
      Value whole =
          conjoin(builder, loc,
                  {aligned, lowering.inBounds(loc, *tensor, indices, chunk - 1),
                   chunkElements.front().valid});
      auto paths = scf::IfOp::create(builder, loc, whole,
                                     /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(paths.thenBlock()->getTerminator());
      moveVector(first, indices);
      builder.setInsertionPoint(paths.elseBlock()->getTerminator());
      for (int64_t i = 0; i < chunk; ++i)
        moveElement(first + i, chunkElements[i]);
    }
  };
  if (registers == chunk) {
    moveChunks(/*inside=*/false);
    return success();
  }
  // A region wholly inside the tensor (every tile but the edges) takes its
  // chunks with no test between them, so that a thread's loads are all in
  // flight at once instead of one or two per test.
  Value inside = arith::AndIOp::create(
      builder, loc, aligned,
      lowering.regionInside(loc, *tensor, origin, fragmentType.getShape()));
  auto paths = scf::IfOp::create(builder, loc, inside, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(paths.thenBlock()->getTerminator());
  moveChunks(/*inside=*/true);
  builder.setInsertionPoint(paths.elseBlock()->getTerminator());
  moveChunks(/*inside=*/false);
  return success();
}

void FragmentCopy::emitShared() {
  const SharedBuffer &tile = *lowering.findShared(otherValue);
  // Readers of the tile's previous contents finish before it is written.
  if (!toFragment)
    lowering.emitBarrier(loc);
  for (int64_t reg = 0; reg < elements.getNumRegisters(); ++reg) {
    RegisterElement element = elements.lookup(reg);
    Value valid = conjoin(
        builder, loc, {element.valid, toFragment ? Value() : ownsElement(reg)});
    lowering.emitGuarded(loc, valid, [&] {
      Value pointer =
          lowering.sharedElementPointer(loc, tile, otherIndices(element));
      if (toFragment) {
        Value stored =
            LLVM::LoadOp::create(builder, loc, tile.storageType, pointer);
        lowering.storeFragmentRegister(
            loc, *fragment, reg,
            convert(lowering.fromStorage(loc, stored, tile.elementType),
                    fragment->elementType));
        return;
      }
      Value value = convert(lowering.loadFragmentRegister(loc, *fragment, reg),
                            tile.elementType);
      LLVM::StoreOp::create(builder, loc, lowering.toStorage(loc, value),
                            pointer);
    });
  }
  if (!toFragment)
    lowering.emitBarrier(loc);
}

LogicalResult FragmentCopy::emitFragment() {
  const PrivateBuffer *source = lowering.findPrivate(copy.getSource());
  if (!source || source->fragmentLayout != fragment->fragmentLayout)
    return copy.emitOpError("copies between fragments of different layouts ")
           << bufferType(copy.getSource()).getLayout() << " and "
           << fragmentType.getLayout()
           << ", which the code generator does not convert yet";
  // Padding registers of a partial flat step are copied too: harmless.
  for (int64_t reg = 0; reg < fragment->size; ++reg)
    lowering.storeFragmentRegister(
        loc, *fragment, reg,
        convert(lowering.loadFragmentRegister(loc, *source, reg),
                fragment->elementType));
  return success();
}

LogicalResult FragmentCopy::emit() {
  fragment = lowering.findPrivate(fragmentValue);
  if (!fragment || failed(elements.initialize()))
    return copy.emitOpError("copies a fragment whose layout ")
           << fragmentType.getLayout() << " it cannot map";
  origin = lowering.lookup(lane, toFragment ? copy.getSourceIndices()
                                            : copy.getTargetIndices());
  tile::BufferType otherType = bufferType(otherValue);
  if (origin.empty())
    origin.assign(otherType.getRank(), constant(0));
  if (otherType.isFragment())
    return emitFragment();
  if (otherType.isShared()) {
    emitShared();
    return success();
  }
  return emitGlobal();
}

/// True for a copy of a global tensor region into a rank-2 shared tile of
/// its element type: GlobalToSharedCopy's.
bool isGemmOperandCopy(tile::CopyOp copy) {
  return isGlobalToShared(copy) &&
         bufferType(copy.getSource()).getElementType() ==
             bufferType(copy.getTarget()).getElementType();
}

/// True for the copies this file lowers or dispatches.
bool isSupportedCopy(tile::CopyOp copy) {
  return isGemmOperandCopy(copy) || isFragmentCopy(copy) || isBlockCopy(copy);
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
        if (copy.getBarrier())
          return emitTmaCopy(lowering, copy, lane);
        if (copy.getStaging())
          return emitTmaStore(lowering, copy, lane);
        if (isGemmOperandCopy(copy))
          return GlobalToSharedCopy(lowering, copy, lane).emit();
        if (isFragmentCopy(copy))
          return FragmentCopy(lowering, copy, lane).emit();
        return emitBlockCopy(lowering, copy, lane);
      },
      [](tile::CopyOp copy) { return isSupportedCopy(copy); });
}
