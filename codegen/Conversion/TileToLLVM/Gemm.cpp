//===- Gemm.cpp - tile.gemm to the tensor-core path its layout chose ------===//

#include "codegen/Conversion/TileToLLVM/TensorCoreGemm.h"

using namespace mlir;
using namespace tilec;

void tilec::populateGemmLowerings(LoweringSet &set) {
  set.add<tile::GemmOp>([](KernelLowering &lowering, tile::GemmOp gemm,
                           Lane &lane) -> LogicalResult {
    if (lane.fragmentIndex)
      return gemm.emitOpError("inside a 'tile.parallel' loop is not "
                              "supported");
    auto layout = dyn_cast_or_null<tile::MmaLayoutAttr>(
        cast<tile::BufferType>(gemm.getC().getType()).getLayout());
    if (layout && layout.getWarpgroup())
      return emitWgmmaGemm(lowering, gemm);
    return emitMmaSyncGemm(lowering, gemm);
  });
}
