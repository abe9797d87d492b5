//===- Occupancy.cpp - Resident blocks per multiprocessor -----------------===//

#include "codegen/Occupancy.h"

#include <algorithm>

using namespace tilec;

namespace {
/// The threads of a warp.
constexpr unsigned WarpSize = 32;
/// Registers of one multiprocessor sub-partition (four per multiprocessor on
/// sm_80 through sm_90).
constexpr unsigned RegistersPerSubPartition = 16384;
/// Sub-partitions per multiprocessor.
constexpr unsigned SubPartitions = 4;
/// Registers are allotted to a warp in units of this many.
constexpr unsigned RegisterAllocationUnit = 256;

/// Returns true if `kernel` neither spills nor needs more stack than
/// `first`.
bool spillsNoMoreThan(const PtxasResources &kernel,
                      const PtxasResources &first) {
  return kernel.spillStores == 0 && kernel.spillLoads == 0 &&
         kernel.localBytes <= first.localBytes;
}
} // namespace

unsigned
tilec::getResidentBlocksWithoutRegisterLimit(const TargetDescription &target,
                                             const BlockFootprint &footprint) {
  if (footprint.threads == 0)
    return 0;
  unsigned warps = (footprint.threads + WarpSize - 1) / WarpSize;
  unsigned blocks =
      std::min(target.MaxBlocksPerMultiprocessor,
               target.MaxThreadsPerMultiprocessor / (warps * WarpSize));
  while (blocks > 0 &&
         !target.fitsBlocksPerMultiprocessor(blocks, footprint.sharedBytes))
    --blocks;
  return blocks;
}

unsigned tilec::getResidentBlocks(const TargetDescription &target,
                                  const BlockFootprint &footprint) {
  unsigned blocks = getResidentBlocksWithoutRegisterLimit(target, footprint);
  if (footprint.registers == 0 || blocks == 0)
    return blocks;
  unsigned warps = (footprint.threads + WarpSize - 1) / WarpSize;
  unsigned perWarp = footprint.registers * WarpSize;
  perWarp = (perWarp + RegisterAllocationUnit - 1) / RegisterAllocationUnit *
            RegisterAllocationUnit;
  unsigned residentWarps = RegistersPerSubPartition / perWarp * SubPartitions;
  return std::min(blocks, residentWarps / warps);
}

llvm::Expected<std::optional<AssembledKernel>>
tilec::raiseResidentBlocks(const TargetDescription &target, unsigned threads,
                           std::int64_t dynamicSharedBytes,
                           const AssembledKernel &first,
                           AssembleForBlocks assemble) {
  const PtxasResources &used = first.resources;
  if (used.spillStores != 0 || used.spillLoads != 0)
    return std::nullopt;
  BlockFootprint footprint{threads, used.registers,
                           static_cast<std::int64_t>(used.staticSmem) +
                               dynamicSharedBytes};
  unsigned low = getResidentBlocks(target, footprint);
  unsigned high = getResidentBlocksWithoutRegisterLimit(target, footprint);
  // The highest count that ptxas meets without spilling; more resident
  // blocks leave fewer registers, so the answer is found by bisection.
  std::optional<AssembledKernel> best;
  while (low < high) {
    unsigned blocks = low + (high - low + 1) / 2;
    llvm::Expected<AssembledKernel> trial = assemble(blocks);
    if (!trial)
      return trial.takeError();
    BlockFootprint trialFootprint = footprint;
    trialFootprint.registers = trial->resources.registers;
    if (spillsNoMoreThan(trial->resources, used) &&
        getResidentBlocks(target, trialFootprint) >= blocks) {
      low = blocks;
      best = std::move(*trial);
    } else {
      high = blocks - 1;
    }
  }
  return best;
}
