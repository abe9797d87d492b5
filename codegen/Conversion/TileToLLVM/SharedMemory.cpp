//===- SharedMemory.cpp - Shared tiles in the dynamic arena ---------------===//
//
// The kernel's dynamic shared-memory arena (one `.extern .shared .align 1024`
// symbol per kernel; every `tile.alloc_shared` is a pointer at the offset
// `tile-allocate-shared-memory` chose), the address of a shared element, and
// the element accesses and fills of shared tiles that the lowerings of
// Memory.cpp hand over.
//
// Barriers: code outside parallel loops runs in every thread, and the
// iterations of a parallel loop are spread over the threads, so two ops of
// the block's code that touch the same shared bytes may run in different
// threads. Until a pass places barriers where accesses conflict, every op
// of the block's code that accesses shared memory is followed by a barrier:
// a `tile.parallel` loop whose body reads or writes a shared tile
// (Parallel.cpp), a `tile.fill`/`tile.clear` of a shared tile, and a
// `tile.load`/`tile.store` of a shared tile outside parallel loops. A read
// needs one as much as a write: the next op may overwrite what a slower
// thread still reads, in the same tile or in another that reuses its bytes.
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;

/// The alignment of the arena symbol: the largest a tile is placed at.
constexpr uint64_t kArenaAlignment = 1024;

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::allocateSharedBuffers(LLVM::LLVMFuncOp func) {
  SmallVector<tile::AllocSharedOp> allocations;
  kernel.walk([&](tile::AllocSharedOp op) { allocations.push_back(op); });
  if (allocations.empty())
    return success();
  for (tile::AllocSharedOp op : allocations)
    if (!op.getOffset())
      return op.emitOpError("has no offset; run -tile-allocate-shared-memory "
                            "first");

  // A public, uninitialized, external zero-sized array in the shared address
  // space is what NVPTX prints as `.extern .shared .align 1024 .b8 k$smem[];`
  // (TOOLCHAIN.md, gotcha 3). `$` cannot occur in a kernel's name.
  Location loc = kernel.getLoc();
  MLIRContext *ctx = builder.getContext();
  auto arenaType = LLVM::LLVMArrayType::get(builder.getI8Type(), 0);
  LLVM::GlobalOp arena;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(func);
    arena = LLVM::GlobalOp::create(
        builder, loc, arenaType, /*isConstant=*/false, LLVM::Linkage::External,
        (kernel.getSymName() + "$smem").str(), /*value=*/Attribute(),
        kArenaAlignment, kSharedAddressSpace);
  }
  Value arenaBase = LLVM::AddressOfOp::create(builder, loc, arena);
  auto pointerType = LLVM::LLVMPointerType::get(ctx, kSharedAddressSpace);
  for (tile::AllocSharedOp op : allocations) {
    auto type = cast<tile::BufferType>(op.getType());
    SharedBuffer buffer;
    buffer.elementType = type.getElementType();
    buffer.storageType = storageTypeOf(type.getElementType());
    buffer.shape.assign(type.getShape().begin(), type.getShape().end());
    buffer.layout = type.getLayout();
    buffer.base = LLVM::GEPOp::create(
        builder, op.getLoc(), pointerType, builder.getI8Type(), arenaBase,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(*op.getOffset())});
    shareds[op.getResult()] = std::move(buffer);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Addresses and barriers
//===----------------------------------------------------------------------===//

Value KernelLowering::sharedElementPointer(Location loc,
                                           const SharedBuffer &buffer,
                                           ArrayRef<Value> indices) {
  Value linear;
  if (auto layout =
          dyn_cast_or_null<tile::SharedLayoutAttrInterface>(buffer.layout)) {
    linear = layout.emitElementOffset(builder, loc, buffer.shape, indices);
  } else {
    linear = rowMajorOffset(loc, indices, buffer.shape);
  }
  Value offset =
      arith::IndexCastOp::create(builder, loc, builder.getI64Type(), linear);
  return LLVM::GEPOp::create(builder, loc, buffer.base.getType(),
                             buffer.storageType, buffer.base,
                             ValueRange{offset});
}

void KernelLowering::emitBarrier(Location loc) {
  if (wgmma)
    NVVM::FenceProxyOp::create(
        builder, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(builder.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  if (!isWarpSpecialized()) {
    NVVM::Barrier0Op::create(builder, loc);
    return;
  }
  // Barrier 0 is the whole block's; consumer group g synchronizes on 1 + g.
  auto i32Constant = [&](int32_t value) {
    return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                    builder.getI32IntegerAttr(value));
  };
  Value id = i32Constant(1);
  if (consumerGroup)
    id = arith::AddIOp::create(builder, loc, id,
                               arith::IndexCastOp::create(builder, loc,
                                                          builder.getI32Type(),
                                                          consumerGroup));
  NVVM::BarrierOp::create(builder, loc, TypeRange(), id,
                          i32Constant(static_cast<int32_t>(threads)),
                          /*reductionOp=*/nullptr,
                          /*reductionPredicate=*/nullptr);
}

namespace {
/// Reports `access` of a shared tile whose layout sharedElementPointer does
/// not implement: a layout family not yet chosen by tile-infer-layouts.
LogicalResult checkLayout(Operation *access, const SharedBuffer &buffer) {
  auto layout = dyn_cast_or_null<tile::LayoutAttr>(buffer.layout);
  if (!buffer.layout || isa<tile::SharedLayoutAttrInterface>(buffer.layout) ||
      (layout && layout.getKind() == tile::LayoutKind::Linear))
    return success();
  return access->emitOpError("of a shared tile with layout ")
         << buffer.layout << " is not supported by the code generator yet";
}
} // namespace

//===----------------------------------------------------------------------===//
// Accesses and fills
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::loadShared(tile::LoadOp load,
                                         const SharedBuffer &buffer,
                                         Lane &lane) {
  if (failed(checkLayout(load, buffer)))
    return failure();
  Location loc = load.getLoc();
  Value pointer =
      sharedElementPointer(loc, buffer, lookup(lane, load.getIndices()));
  Value stored =
      LLVM::LoadOp::create(builder, loc, buffer.storageType, pointer);
  lane.map.map(load.getResult(), fromStorage(loc, stored, buffer.elementType));
  if (!lane.fragmentIndex)
    emitBarrier(loc);
  return success();
}

LogicalResult KernelLowering::storeShared(tile::StoreOp store,
                                          const SharedBuffer &buffer,
                                          Lane &lane) {
  if (failed(checkLayout(store, buffer)))
    return failure();
  Location loc = store.getLoc();
  Value value = toStorage(loc, lane.map.lookup(store.getValue()));
  Value pointer =
      sharedElementPointer(loc, buffer, lookup(lane, store.getIndices()));
  if (lane.storingThread) {
    auto ifOp = scf::IfOp::create(builder, loc, lane.storingThread,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    LLVM::StoreOp::create(builder, loc, value, pointer);
  } else {
    LLVM::StoreOp::create(builder, loc, value, pointer);
  }
  if (!lane.fragmentIndex)
    emitBarrier(loc);
  return success();
}

LogicalResult KernelLowering::fillShared(Operation *op,
                                         const SharedBuffer &buffer,
                                         Value value, Lane &lane) {
  if (lane.fragmentIndex)
    return op->emitOpError("of a shared tile inside a 'tile.parallel' loop "
                           "is not supported by the code generator");
  if (failed(checkLayout(op, buffer)))
    return failure();
  Location loc = op->getLoc();
  Value stored =
      toStorage(loc, value ? value : zeroOf(loc, buffer.elementType));
  int64_t elements = 1;
  for (int64_t extent : buffer.shape)
    elements *= extent;
  // Thread t sets the elements whose row-major flat index is t, t + T,
  // t + 2T, ... of the tile.
  auto loop = scf::ForOp::create(builder, loc, threadIndex,
                                 indexConstant(loc, elements),
                                 indexConstant(loc, threads));
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    SmallVector<Value> indices =
        rowMajorIndices(loc, loop.getInductionVar(), buffer.shape);
    LLVM::StoreOp::create(builder, loc, stored,
                          sharedElementPointer(loc, buffer, indices));
  }
  emitBarrier(loc);
  return success();
}

namespace {
/// Emits stage `stage` of a multi-buffered shared tile as a tile of its own
/// at the stage's offset.
LogicalResult lowerStageView(KernelLowering &lowering, tile::StageViewOp view,
                             Lane &lane) {
  const SharedBuffer *source = lowering.findShared(view.getSource());
  if (!source)
    return view.emitOpError("views an unknown shared tile");
  OpBuilder &builder = lowering.getBuilder();
  Location loc = view.getLoc();
  auto type = cast<tile::BufferType>(view.getResult().getType());
  int64_t stageElements = type.getNumElements();
  if (auto layout =
          dyn_cast_or_null<tile::SharedLayoutAttrInterface>(source->layout))
    stageElements = layout.getBufferSize(type.getShape());
  Value offset =
      arith::MulIOp::create(builder, loc, lane.map.lookup(view.getStage()),
                            lowering.indexConstant(loc, stageElements));
  Value offset64 =
      arith::IndexCastOp::create(builder, loc, builder.getI64Type(), offset);
  SharedBuffer stage = *source;
  stage.base = LLVM::GEPOp::create(builder, loc, source->base.getType(),
                                   source->storageType, source->base,
                                   ValueRange{offset64});
  stage.shape.assign(type.getShape().begin(), type.getShape().end());
  lowering.bindShared(view.getResult(), std::move(stage));
  return success();
}
} // namespace

void tilec::populateSharedMemoryLowerings(LoweringSet &set) {
  set.add<tile::StageViewOp>(lowerStageView);
  // tile-infer-layouts honours the annotation when it chooses the tile's
  // layout; nothing is left to emit. Only shared tiles take these layouts.
  set.add<tile::AnnotateLayoutOp>(
      [](KernelLowering &, tile::AnnotateLayoutOp, Lane &) {
        return success();
      },
      [](tile::AnnotateLayoutOp op) {
        return cast<tile::BufferType>(op.getBuffer().getType()).isShared();
      });
  set.add<tile::AsyncCommitOp>(
      [](KernelLowering &lowering, tile::AsyncCommitOp op, Lane &) {
        NVVM::CpAsyncCommitGroupOp::create(lowering.getBuilder(), op.getLoc());
        return success();
      });
  set.add<tile::AsyncWaitOp>(
      [](KernelLowering &lowering, tile::AsyncWaitOp op, Lane &) {
        NVVM::CpAsyncWaitGroupOp::create(lowering.getBuilder(), op.getLoc(),
                                         op.getPending());
        return success();
      });
  set.add<tile::BarrierOp>(
      [](KernelLowering &lowering, tile::BarrierOp op, Lane &) {
        lowering.emitBarrier(op.getLoc());
        return success();
      });
  // The tile's address is computed when the kernel is set up.
  set.add<tile::AllocSharedOp>(
      [](KernelLowering &, tile::AllocSharedOp, Lane &) { return success(); });
}
