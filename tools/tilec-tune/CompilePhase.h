//===- CompilePhase.h - tilec-tune compile ----------------------*- C++ -*-===//
//
// The compile phase of tuning (docs/tuning.md), which needs no GPU:
//   1. read the tuning space and its kernel (compiler/Tune/TuningSpace.h),
//   2. expand it, dropping the candidates that break a constraint or whose
//      shared memory does not fit in a block (compiler/Tune/CompilePlan.h),
//   3. compile the rest, one job per candidate and architecture, on worker
//      threads that each run the tilec driver in process (its own MLIR
//      context per job) through the compile cache,
//   4. drop the variants that spill or exceed the register budget,
//   5. write the kernel package: the surviving cubins and metadata and
//      index.json (compiler/Tune/PackageIndex.h), built in a staging
//      directory beside the output and renamed into place at the end.
// It reports what it dropped and why, and where the time went.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_TUNE_COMPILEPHASE_H
#define TILEC_TOOLS_TILEC_TUNE_COMPILEPHASE_H

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilec {

/// The options of `tilec-tune compile`.
struct CompilePhaseOptions {
  /// The tuning space's YAML file.
  std::string SpacePath;
  /// The package's directory (replaced if it holds a package).
  std::string OutputDir;
  /// Worker threads; 0 for one per core available.
  unsigned Jobs = 0;
  /// Compile without the compile cache.
  bool NoCache = false;
  /// `--ptxas` and `--cuda-path`, as tilec takes them; empty to search.
  std::string PtxasPath, CudaPath;
  /// Redraw a progress bar (on a terminal) instead of printing a line per
  /// job.
  bool ProgressBar = false;
};

/// Runs the compile phase, reporting to `Err`. Returns the exit status: 0
/// when the package was written and every candidate compiled, 1 after an
/// error in the space, or when a candidate failed to compile (the package
/// is still written, without it).
int runCompilePhase(const CompilePhaseOptions &Options, llvm::raw_ostream &Err);

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_TUNE_COMPILEPHASE_H
