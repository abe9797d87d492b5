//===- Lowerings.cpp - The registry of tile op lowerings ------------------===//

#include "codegen/Conversion/TileToLLVM/Lowerings.h"

#include "dialects/Tile/TileOps.h"

using namespace mlir;
using namespace tilec;

void tilec::populateKernelLowerings(LoweringSet &set) {
  // Their per-thread storage is allocated when the kernel is set up.
  auto allocated = [](KernelLowering &, Operation *, Lane &) {
    return success();
  };
  set.add<tile::AllocFragmentOp>(allocated);
  set.add<tile::AllocLocalOp>(allocated);
  set.add<tile::AllocVarOp>(allocated);
}

const LoweringSet &tilec::getTileLowerings() {
  static const LoweringSet lowerings = [] {
    LoweringSet set;
    populateKernelLowerings(set);
    populateMemoryLowerings(set);
    populateControlFlowLowerings(set);
    populateParallelLowerings(set);
    populateCopyLowerings(set);
    populateGemmLowerings(set);
    populateReduceLowerings(set);
    populatePrintLowerings(set);
    populateSharedMemoryLowerings(set);
    populateRasterizationLowerings(set);
    populateWarpSpecializationLowerings(set);
    populateTmaStoreLowerings(set);
    return set;
  }();
  return lowerings;
}
