//===- VariantCompiler.h - One variant of a space ---------------*- C++ -*-===//
//
// One job of the compile phase: the kernel of a tuning space with a
// candidate's `-D` values, for one architecture, compiled in process by the
// tilec driver (compiler/Driver.h) into the package's staging directory,
// through the compile cache like any tilec run. The resources come from the
// metadata JSON the driver wrote (docs/metadata.md, `resources`, `launch`),
// which ptxas filled in.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_TUNE_VARIANTCOMPILER_H
#define TILEC_TOOLS_TILEC_TUNE_VARIANTCOMPILER_H

#include "compiler/Sema.h"
#include "compiler/Target.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilec {

/// What every compilation of a compile phase shares.
struct VariantOptions {
  /// The `.tile` file.
  std::string SpecPath;
  /// The directory the files are written to.
  std::string OutputDir;
  /// Bypass the compile cache (`--no-cache`).
  bool NoCache = false;
  /// Compile with `--fast-math` (the space's `fast_math`).
  bool FastMath = false;
  /// `--ptxas` and `--cuda-path` of tilec; empty to search.
  std::string PtxasPath, CudaPath;
};

/// What compiling one variant gave.
struct CompiledVariant {
  /// True if the driver succeeded and the metadata could be read.
  bool Ok = false;
  /// Otherwise the first error, on one line.
  std::string Error;
  /// The warnings the driver printed (such as a corrupt cache entry it
  /// rebuilt), one per line.
  std::vector<std::string> Warnings;
  /// The metadata JSON's and the cubin's file names in the output
  /// directory.
  std::string Metadata, Cubin;
  /// Registers per thread, from ptxas.
  unsigned Registers = 0;
  /// Bytes of spill stores and loads, from ptxas.
  std::uint64_t SpillStores = 0, SpillLoads = 0;
  /// ptxas's performance notes ("C7520: ..."), from the metadata's
  /// `resources.performance_warnings` (none in metadata without the key).
  std::vector<std::string> PerformanceWarnings;
  /// Bytes of shared memory per block, static and dynamic.
  std::uint64_t SharedMemory = 0;
  /// Threads per block.
  unsigned Threads = 0;
  /// The wall-clock seconds the compilation took.
  double Seconds = 0;
};

/// Compiles the variant of `Options.SpecPath` with `Defines`, whose
/// file-name stem is `Stem`, for `Target`. Safe to call from several
/// threads at once.
CompiledVariant compileVariant(const VariantOptions &Options,
                               const std::vector<Define> &Defines, Arch Target,
                               const std::string &Stem);

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_TUNE_VARIANTCOMPILER_H
