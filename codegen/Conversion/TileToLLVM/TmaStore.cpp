//===- TmaStore.cpp - Epilogue stores with the tensor memory accelerator --===//
//
// The TMA-store form of `tile.copy` (`staged`, made by tile-pipeline-loops
// for the epilogue of the consumers of a warp-specialized loop). The
// fragment goes out in bands of R rows, R the staging tile's rows; for
// each band:
//
//   thread 0:     cp.async.bulk.wait_group.read 0   (the last store read C_s)
//   barrier
//   every thread: the elements of the band its registers hold -> C_s,
//                 converted to the tensor's element type (a pair of
//                 consecutive columns as one 32-bit store)
//   fence.proxy.async.shared::cta + barrier          (emitBarrier)
//   thread 0:     one cp.async.bulk.tensor.2d.global.shared::cta per column
//                 panel of C_s, at (column, row) of the band's origin;
//                 cp.async.bulk.commit_group
//
// The element coordinates (and so the staging addresses) come from a read of
// the thread index LLVM cannot hoist (KernelLowering::withPinnedThreadIndex).
// TMA writes only the elements inside the tensor, so partial tiles need no
// guard. The store completes while the consumers go on; `tile.tma_store_wait`
// (cp.async.bulk.wait_group 0) waits for every store of the thread.
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/TmaCopy.h"

#include "codegen/Conversion/TileToLLVM/FragmentElements.h"
#include "codegen/Conversion/TileToLLVM/Lowerings.h"
#include "passes/Analysis/AccessAnalysis.h"
#include "passes/Analysis/TensorMaps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tilec;

namespace {

LogicalResult emitBands(KernelLowering &lowering, tile::CopyOp copy,
                        Lane &lane) {
  OpBuilder &builder = lowering.getBuilder();
  Location loc = copy.getLoc();
  auto fragmentType = cast<tile::BufferType>(copy.getSource().getType());
  auto stagingType = cast<tile::BufferType>(copy.getStaging().getType());
  Value map = lowering.findTensorMap(copy);
  const Tensor *tensor = lowering.findTensor(copy.getTarget());
  const SharedBuffer *staging = lowering.findShared(copy.getStaging());
  const PrivateBuffer *fragment = lowering.findPrivate(copy.getSource());
  std::optional<TmaBoxes> boxes = describeTmaBoxes(stagingType);
  if (!map || !tensor || !staging || !fragment || !boxes)
    return copy.emitOpError("is a TMA store without a tensor map; its "
                            "staging tile's layout must be one a TMA box "
                            "reads");
  FragmentElements elements(lowering, loc, fragmentType.getShape(),
                            fragmentType.getLayout());
  if (failed(elements.initialize()))
    return copy.emitOpError("stores a fragment whose layout ")
           << fragmentType.getLayout() << " it cannot map";

  auto constant = [&](int64_t value) {
    return lowering.indexConstant(loc, value);
  };
  auto toI32 = [&](Value index) {
    return arith::IndexCastOp::create(builder, loc, builder.getI32Type(),
                                      index);
  };
  SmallVector<Value> origin = lowering.lookup(lane, copy.getTargetIndices());
  int64_t bandRows = stagingType.getDimSize(0);
  int64_t bands = fragmentType.getDimSize(0) / bandRows;
  int64_t registers = elements.getNumRegisters();
  int64_t chunk = elements.pairsAreConsecutive() && registers % 2 == 0 ? 2 : 1;
  int64_t chunkBytes = chunk * storageBytes(tensor->elementType);
  Value issuer = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                       lowering.getThreadIndex(), constant(0));

  for (int64_t band = 0; band < bands; ++band) {
    // The previous store (of this band or of the last tile) has read C_s.
    lowering.emitGuarded(loc, issuer, [&] {
      NVVM::CpAsyncBulkWaitGroupOp::create(builder, loc, /*group=*/0,
                                           /*read=*/builder.getUnitAttr());
    });
    lowering.emitBarrier(loc);
    Value first = constant(band * bandRows);
    for (int64_t reg = 0; reg < registers; reg += chunk) {
      RegisterElement element = elements.lookup(reg);
      Value row =
          arith::SubIOp::create(builder, loc, element.coordinates[0], first);
      // Rows above the band wrap around to large unsigned values.
      Value inBand = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, row, constant(bandRows));
      Value valid = element.valid ? arith::AndIOp::create(builder, loc, inBand,
                                                          element.valid)
                                  : inBand;
      lowering.emitGuarded(loc, valid, [&] {
        Value value = packRegisters(lowering, loc, *fragment, reg, chunk,
                                    tensor->elementType);
        LLVM::StoreOp::create(builder, loc, value,
                              lowering.sharedElementPointer(
                                  loc, *staging, {row, element.coordinates[1]}),
                              chunkBytes);
      });
    }
    // Every thread's writes are visible to the TMA unit (emitBarrier fences
    // the async proxy on wgmma kernels).
    lowering.emitBarrier(loc);
    lowering.emitGuarded(loc, issuer, [&] {
      Value bandRow =
          toI32(arith::AddIOp::create(builder, loc, origin[0], first));
      for (int64_t panel = 0; panel < boxes->panels; ++panel) {
        Value firstColumn = constant(panel * boxes->boxColumns);
        Value column =
            toI32(arith::AddIOp::create(builder, loc, origin[1], firstColumn));
        Value source = lowering.sharedElementPointer(
            loc, *staging, {constant(0), firstColumn});
        NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
            builder, loc, map, source, ValueRange{column, bandRow},
            /*l2CacheHint=*/Value(), NVVM::TMAStoreMode::TILE,
            /*predicate=*/Value());
      }
      NVVM::CpAsyncBulkCommitGroupOp::create(builder, loc);
    });
  }
  return success();
}

} // namespace

LogicalResult tilec::emitTmaStore(KernelLowering &lowering, tile::CopyOp copy,
                                  Lane &lane) {
  // The staging addresses depend on the thread only: hoisted out of the
  // persistent tile loop, they would hold registers through the main loop.
  return lowering.withPinnedThreadIndex(
      copy.getLoc(), [&] { return emitBands(lowering, copy, lane); });
}

void tilec::populateTmaStoreLowerings(LoweringSet &set) {
  set.add<tile::TmaStoreWaitOp>([](KernelLowering &lowering,
                                   tile::TmaStoreWaitOp wait, Lane &) {
    NVVM::CpAsyncBulkWaitGroupOp::create(lowering.getBuilder(), wait.getLoc(),
                                         /*group=*/0, /*read=*/UnitAttr());
    return success();
  });
}
