//===- BlockCopy.cpp - Copies shared by the block's threads ---------------===//
//
// Copies between global tensors and shared tiles, and between shared tiles,
// that are not the GEMM path's (Copy.cpp): shared tiles of any rank (a
// bias vector staged in shared memory), shared tiles written back to global
// memory (`copy(C_s, C[by * block_M, bx * block_N])`), shared tiles copied
// into each other, and shared operands indexed with a region origin. Thread
// t of the block's T threads moves elements (or chunks) t, t + T, t + 2T,
// ... of the region in row-major order.
//
// Copies to or from a local buffer (`alloc_local`, a per-thread array) are
// made by every thread for its own buffer, element by element over the
// whole region, as the block's code outside `parallel` loops runs in every
// thread: a global or shared region read into a local buffer gives each
// thread the region; a local buffer written to a global or shared region is
// written by every thread (the same elements, as a scalar store outside a
// `parallel` loop is).
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/BlockCopy.h"

#include "codegen/CodegenLimits.h"
#include "codegen/Conversion/TileToLLVM/FragmentElements.h"
#include "passes/Analysis/AccessAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <functional>
#include <numeric>

using namespace mlir;
using namespace tilec;

namespace {

/// The bytes of the widest chunk the threads move at once.
constexpr int64_t kChunkBytes = 16;

tile::BufferType bufferType(Value buffer) {
  return cast<tile::BufferType>(buffer.getType());
}

/// One operand of a block copy: a global tensor, a shared tile or a local
/// buffer, and where the copied region starts in it.
struct CopyOperand {
  Value buffer;
  const Tensor *tensor = nullptr;
  const SharedBuffer *tile = nullptr;
  const PrivateBuffer *local = nullptr;
  /// One index per dim of the buffer; the region covers its trailing dims.
  SmallVector<Value> origin;
  /// True if the copy names an origin in this operand (a region of it);
  /// otherwise the region is the whole operand.
  bool indexed = false;
};

/// Emits one block copy.
class BlockCopy {
public:
  BlockCopy(KernelLowering &lowering, tile::CopyOp copy, Lane &lane)
      : lowering(lowering), builder(lowering.getBuilder()), copy(copy),
        lane(lane), loc(copy.getLoc()) {}

  LogicalResult emit();

private:
  Value constant(int64_t value) { return lowering.indexConstant(loc, value); }
  LogicalResult bind(Value buffer, ValueRange indices, CopyOperand &operand);
  /// The indices in `operand` of the region's element `region`.
  SmallVector<Value> operandIndices(const CopyOperand &operand,
                                    ArrayRef<Value> region);
  /// True where `indices` (and the last one plus `lastIndexExtra`) lie in
  /// `operand`; null where they always do (a whole shared tile).
  Value inBounds(const CopyOperand &operand, ArrayRef<Value> indices,
                 int64_t lastIndexExtra);
  Value pointer(const CopyOperand &operand, ArrayRef<Value> indices);
  /// The elements per chunk the copy may move at once (1: one by one).
  int64_t chooseChunk();
  /// KernelLowering::chunksAligned of the tensor operand; null for
  /// shared-to-shared copies.
  Value chunksAligned(int64_t chunk);
  /// Emits the threads' loop over the region in chunks of `chunk` elements.
  void emitLoop(int64_t chunk);
  /// Emits the move of the chunk of `chunk` elements at `region` (indices
  /// in the region).
  void emitMove(ArrayRef<Value> region, int64_t chunk);
  /// Emits every element of the region for the thread's own local buffer.
  void emitPrivateLoop();
  /// The elements of the region.
  int64_t getRegionElements() const {
    return std::accumulate(extent.begin(), extent.end(), int64_t(1),
                           std::multiplies<int64_t>());
  }
  /// True if an operand is a local buffer.
  bool isPrivate() const { return source.local || target.local; }

  KernelLowering &lowering;
  OpBuilder &builder;
  tile::CopyOp copy;
  Lane &lane;
  Location loc;
  CopyOperand source, target;
  /// The region's shape: that of the operand without an origin.
  SmallVector<int64_t> extent;
};

LogicalResult BlockCopy::bind(Value buffer, ValueRange indices,
                              CopyOperand &operand) {
  operand.buffer = buffer;
  operand.tensor = lowering.findTensor(buffer);
  if (!operand.tensor)
    operand.tile = lowering.findShared(buffer);
  if (!operand.tensor && !operand.tile && bufferType(buffer).isLocal())
    operand.local = lowering.findPrivate(buffer);
  if (!operand.tensor && !operand.tile && !operand.local)
    return copy.emitOpError("copies from or to an unknown tensor or tile");
  operand.indexed = !indices.empty();
  operand.origin = lowering.lookup(lane, indices);
  if (operand.origin.empty())
    operand.origin.assign(bufferType(buffer).getRank(), constant(0));
  return success();
}

SmallVector<Value> BlockCopy::operandIndices(const CopyOperand &operand,
                                             ArrayRef<Value> region) {
  SmallVector<Value> indices(operand.origin.begin(), operand.origin.end());
  size_t offset = indices.size() - region.size();
  for (auto [d, index] : llvm::enumerate(region))
    indices[offset + d] =
        arith::AddIOp::create(builder, loc, indices[offset + d], index);
  return indices;
}

Value BlockCopy::inBounds(const CopyOperand &operand, ArrayRef<Value> indices,
                          int64_t lastIndexExtra) {
  if (operand.tensor)
    return lowering.inBounds(loc, *operand.tensor, indices, lastIndexExtra);
  if (!operand.indexed)
    return Value();
  SmallVector<Value> extents =
      llvm::map_to_vector(bufferType(operand.buffer).getShape(),
                          [&](int64_t extent) { return constant(extent); });
  return lowering.inBounds(loc, indices, extents, lastIndexExtra);
}

Value BlockCopy::pointer(const CopyOperand &operand, ArrayRef<Value> indices) {
  if (operand.tensor)
    return lowering.elementPointer(loc, *operand.tensor, indices);
  if (operand.tile)
    return lowering.sharedElementPointer(loc, *operand.tile, indices);
  // A local buffer (bind found its storage, so this cannot fail).
  return *lowering.privatePointer(copy, operand.buffer, indices, lane);
}

int64_t BlockCopy::chooseChunk() {
  if (isPrivate())
    return 1;
  Type elementType = bufferType(source.buffer).getElementType();
  if (elementType != bufferType(target.buffer).getElementType())
    return 1;
  int64_t bytes = storageBytes(elementType);
  if (!llvm::isPowerOf2_64(bytes) || bytes >= kChunkBytes)
    return 1;
  int64_t chunk = kChunkBytes / bytes;
  if (extent.back() % chunk != 0)
    return 1;
  for (const CopyOperand *operand : {&source, &target}) {
    if (operand->tile) {
      // A region's origin in a shared tile may fall anywhere in a row.
      if (operand->indexed || sharedContiguityLog2(bufferType(
                                  operand->buffer)) < llvm::Log2_64(chunk))
        return 1;
    } else if (tensorAlignment(cast<BlockArgument>(operand->buffer)) <
               kChunkBytes) {
      return 1;
    }
  }
  return chunk;
}

Value BlockCopy::chunksAligned(int64_t chunk) {
  const CopyOperand &global = source.tensor ? source : target;
  if (!global.tensor)
    return Value();
  return lowering.chunksAligned(loc, *global.tensor, global.origin, chunk);
}

void BlockCopy::emitLoop(int64_t chunk) {
  int64_t elements = getRegionElements();
  auto loop = scf::ForOp::create(builder, loc, lowering.getThreadIndex(),
                                 constant(elements / chunk),
                                 constant(lowering.getThreads()));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  Value first = loop.getInductionVar();
  if (chunk > 1)
    first = arith::MulIOp::create(builder, loc, first, constant(chunk));
  emitMove(lowering.rowMajorIndices(loc, first, extent), chunk);
}

void BlockCopy::emitPrivateLoop() {
  int64_t elements = getRegionElements();
  // Unrolled, the local buffer's indices are constants and it can live in
  // registers, as a fill of it does.
  if (elements <= kMaxUnrolledFill) {
    for (int64_t element = 0; element < elements; ++element)
      emitMove(lowering.rowMajorIndices(loc, constant(element), extent), 1);
    return;
  }
  auto loop = scf::ForOp::create(builder, loc, constant(0), constant(elements),
                                 constant(1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  emitMove(lowering.rowMajorIndices(loc, loop.getInductionVar(), extent), 1);
}

void BlockCopy::emitMove(ArrayRef<Value> region, int64_t chunk) {
  SmallVector<Value> sourceIndices = operandIndices(source, region);
  SmallVector<Value> targetIndices = operandIndices(target, region);

  auto sourceType = bufferType(source.buffer).getElementType();
  auto targetType = bufferType(target.buffer).getElementType();
  Type storageType = storageTypeOf(sourceType);
  Type movedType = storageType;
  if (chunk > 1)
    movedType = VectorType::get({chunk}, storageType);
  unsigned alignment = chunk * storageBytes(sourceType);

  auto load = [&]() -> Value {
    return LLVM::LoadOp::create(builder, loc, movedType,
                                pointer(source, sourceIndices), alignment);
  };
  Value moved;
  if (Value readable = inBounds(source, sourceIndices, chunk - 1)) {
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{movedType}, readable,
                                  /*withElseRegion=*/true);
    builder.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(builder, loc, load());
    builder.setInsertionPointToStart(ifOp.elseBlock());
    Value zero = chunk > 1
                     ? LLVM::ZeroOp::create(builder, loc, movedType).getResult()
                     : lowering.zeroOf(loc, storageType);
    scf::YieldOp::create(builder, loc, zero);
    builder.setInsertionPointAfter(ifOp);
    moved = ifOp.getResult(0);
  } else {
    moved = load();
  }
  if (sourceType != targetType)
    moved = lowering.toStorage(
        loc,
        convertFloat(builder, loc, lowering.fromStorage(loc, moved, sourceType),
                     targetType));
  lowering.emitGuarded(loc, inBounds(target, targetIndices, chunk - 1), [&] {
    LLVM::StoreOp::create(builder, loc, moved, pointer(target, targetIndices),
                          chunk * storageBytes(targetType));
  });
}

LogicalResult BlockCopy::emit() {
  if (failed(bind(copy.getSource(), copy.getSourceIndices(), source)) ||
      failed(bind(copy.getTarget(), copy.getTargetIndices(), target)))
    return failure();
  Value extentBuffer = source.indexed ? target.buffer : source.buffer;
  extent = llvm::to_vector(bufferType(extentBuffer).getShape());

  // Earlier writers of the source and readers of the target finish first,
  // and the threads see each other's writes after the copy (an async copy's
  // pipeline orders its stages with explicit waits and barriers). A thread
  // that copies between its local buffer and global memory shares nothing.
  bool fenced = !copy.getAsync() && (source.tile || target.tile);
  if (fenced)
    lowering.emitBarrier(loc);
  if (isPrivate()) {
    emitPrivateLoop();
    if (fenced)
      lowering.emitBarrier(loc);
    return success();
  }
  int64_t chunk = chooseChunk();
  Value aligned = chunk > 1 ? chunksAligned(chunk) : Value();
  if (chunk == 1 || !aligned) {
    emitLoop(chunk);
  } else {
    auto paths =
        scf::IfOp::create(builder, loc, aligned, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(paths.thenBlock()->getTerminator());
    emitLoop(chunk);
    builder.setInsertionPoint(paths.elseBlock()->getTerminator());
    emitLoop(1);
  }
  if (fenced)
    lowering.emitBarrier(loc);
  return success();
}

} // namespace

bool tilec::isBlockCopy(tile::CopyOp copy) {
  tile::BufferType source = bufferType(copy.getSource());
  tile::BufferType target = bufferType(copy.getTarget());
  bool scopes =
      (source.isGlobal() && (target.isShared() || target.isLocal())) ||
      (source.isShared() &&
       (target.isGlobal() || target.isShared() || target.isLocal())) ||
      (source.isLocal() &&
       (target.isGlobal() || target.isShared() || target.isLocal()));
  if (!scopes)
    return false;
  // Global operands are kernel arguments (their alignment is known).
  for (Value buffer : {copy.getSource(), copy.getTarget()})
    if (bufferType(buffer).isGlobal() && !isa<BlockArgument>(buffer))
      return false;
  return source.getElementType() == target.getElementType() ||
         (isa<FloatType>(source.getElementType()) &&
          isa<FloatType>(target.getElementType()));
}

LogicalResult tilec::emitBlockCopy(KernelLowering &lowering, tile::CopyOp copy,
                                   Lane &lane) {
  return BlockCopy(lowering, copy, lane).emit();
}
