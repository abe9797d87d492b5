//===- Occupancy.h - Resident blocks per multiprocessor ---------*- C++ -*-===//
//
// How many thread blocks of a kernel one multiprocessor holds at once, and
// the search that raises that number where registers limit it.
//
// A kernel without tensor-core GEMMs is bound by memory: the more of its
// blocks are resident, the more loads are in flight while other blocks
// reduce, compute or store. ptxas allots registers to fit the `.maxntid`
// block alone, often more than one block in four of the multiprocessor's
// threads can have (softmax over rows of 4096: 62 registers, 4 blocks of 256
// threads). Under `.minnctapersm B` ptxas caps the registers so that B
// blocks fit; raiseResidentBlocks finds the highest such B, up to what the
// threads, shared memory and block limits allow, that ptxas meets without
// spilling (a binary search: ptxas runs a handful of times).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_OCCUPANCY_H
#define TILEC_CODEGEN_OCCUPANCY_H

#include "codegen/PtxasReport.h"
#include "compiler/Target.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tilec {

/// What one thread block of a kernel takes of a multiprocessor.
struct BlockFootprint {
  /// Threads per block.
  unsigned threads = 0;
  /// Registers per thread; 0 when unknown (no register limit is applied).
  unsigned registers = 0;
  /// Shared memory per block, static and dynamic, in bytes.
  std::int64_t sharedBytes = 0;
};

/// Returns how many blocks of `footprint` are resident at once on one
/// multiprocessor of `target`: the least of the thread, block, shared-memory
/// and register limits. Registers are allotted per warp in units of 256 from
/// four sub-partitions of 16384 each, as the CUDA occupancy calculator
/// counts them. Returns 0 when one block does not fit.
unsigned getResidentBlocks(const TargetDescription &target,
                           const BlockFootprint &footprint);

/// Returns getResidentBlocks without the register limit: the most blocks
/// that any register allotment could make resident.
unsigned getResidentBlocksWithoutRegisterLimit(const TargetDescription &target,
                                               const BlockFootprint &footprint);

/// A kernel's PTX as ptxas assembled it.
struct AssembledKernel {
  /// The PTX assembled.
  std::string ptx;
  /// The cubin.
  std::string cubin;
  /// What ptxas reported for the kernel's entry.
  PtxasResources resources;
  /// The `.minnctapersm` it was assembled under; 0 for none.
  unsigned minBlocks = 0;
};

/// Assembles the kernel under `.minnctapersm blocks` (and sets `minBlocks`).
using AssembleForBlocks =
    llvm::function_ref<llvm::Expected<AssembledKernel>(unsigned blocks)>;

/// Returns the kernel assembled by `assemble` for the most resident blocks
/// above those of `first` (its assembly without `.minnctapersm`, `threads`
/// per block, `dynamicSharedBytes` of dynamic shared memory) for which ptxas
/// spills nothing and uses no more stack than `first`, or nullopt when no
/// count above `first`'s qualifies (or `first` itself spills). Errors of
/// `assemble` are returned.
llvm::Expected<std::optional<AssembledKernel>>
raiseResidentBlocks(const TargetDescription &target, unsigned threads,
                    std::int64_t dynamicSharedBytes,
                    const AssembledKernel &first, AssembleForBlocks assemble);

} // namespace tilec

#endif // TILEC_CODEGEN_OCCUPANCY_H
