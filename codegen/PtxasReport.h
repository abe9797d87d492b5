//===- PtxasReport.h - Resource usage from `ptxas -v` -----------*- C++ -*-===//
//
// `ptxas -v` prints, for every entry function, the registers, spill traffic,
// stack frame and shared memory it uses. These numbers go into the kernel
// metadata (`resources`) and the tuner's reports.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_PTXASREPORT_H
#define TILEC_CODEGEN_PTXASREPORT_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilec {

/// Resources one entry function uses, as reported by `ptxas -v`.
struct PtxasResources {
  /// Registers per thread.
  unsigned registers = 0;
  /// Bytes stored to and loaded from local memory because of register spills.
  uint64_t spillStores = 0;
  uint64_t spillLoads = 0;
  /// Stack frame (local memory) bytes per thread.
  uint64_t localBytes = 0;
  /// Statically allocated shared memory bytes per block.
  uint64_t staticSmem = 0;
  /// Named barriers used.
  unsigned barriers = 0;
  /// ptxas's numbered notes on the function, "C7520: wgmma.mma_async
  /// instructions are serialized ...": serialized or fenced wgmma
  /// (C7514-C7520), an ignored setmaxnreg (C7508). Each one names code that
  /// runs slower than it was written to.
  std::vector<std::string> performanceWarnings;
};

/// Parses the `ptxas -v` report `text` and returns the resources of every
/// entry function it describes, keyed by the entry's name, with the
/// numbered `ptxas info : (Cnnnn)` notes that name it. Other lines
/// (warnings, timing) are ignored.
llvm::StringMap<PtxasResources> parsePtxasReport(llvm::StringRef text);

} // namespace tilec

#endif // TILEC_CODEGEN_PTXASREPORT_H
