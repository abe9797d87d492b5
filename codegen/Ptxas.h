//===- Ptxas.h - Assembling PTX into a cubin with ptxas ---------*- C++ -*-===//

#ifndef TILEC_CODEGEN_PTXAS_H
#define TILEC_CODEGEN_PTXAS_H

#include "codegen/GpuTarget.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tilec {

/// The version of a ptxas binary.
struct PtxasVersion {
  /// The full version: "13.0.88".
  std::string text;
  /// The CUDA release it belongs to: 13 and 0.
  unsigned major = 0;
  unsigned minor = 0;
};

/// Extracts the version from the output of `ptxas --version`
/// ("Cuda compilation tools, release 13.0, V13.0.88").
llvm::Expected<PtxasVersion> parsePtxasVersion(llvm::StringRef output);

/// Runs `ptxas --version` and parses its output.
llvm::Expected<PtxasVersion> queryPtxasVersion(llvm::StringRef ptxasPath);

/// A cubin and the `ptxas -v` report that came with it.
struct PtxasOutput {
  std::string cubin;
  std::string report;
};

/// Returns the arguments (without the program) with which ptxas assembles
/// `ptxPath` into `cubinPath` for `target`: `-arch=<arch> -O<optLevel> -v`,
/// plus `-lineinfo` when `lineInfo` is set.
std::vector<std::string> getPtxasArguments(const GpuTarget &target,
                                           unsigned optLevel, bool lineInfo,
                                           llvm::StringRef ptxPath,
                                           llvm::StringRef cubinPath);

/// Assembles `ptx` for `target` with the arguments of getPtxasArguments.
/// On failure the error carries ptxas's messages.
llvm::Expected<PtxasOutput> runPtxas(llvm::StringRef ptxasPath,
                                     llvm::StringRef ptx,
                                     const GpuTarget &target, unsigned optLevel,
                                     bool lineInfo);

} // namespace tilec

#endif // TILEC_CODEGEN_PTXAS_H
