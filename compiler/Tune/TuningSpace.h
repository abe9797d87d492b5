//===- TuningSpace.h - A kernel's tuning space, read from YAML --*- C++ -*-===//
//
// A tuning space (docs/tuning.md) names a `.tile` kernel, the architectures
// to compile it for, candidate values for some of its compile-time
// parameters, constraints over them, limits on what ptxas may report, and
// the problem shapes the kernel is tuned for:
//
//   spec: gemm.tile                 # relative to the YAML file
//   arch: sm_90a                    # or a list
//   parameters:
//     block_M: [64, 128, 256]
//     stages: [2, 3, 4]
//   constraints:
//     - (block_M * block_K + block_K * block_N) * stages * 2 <= 227 * 1024
//   limits: {max_registers: 255, max_spill_bytes: 0,
//            max_performance_warnings: 0}
//   fast_math: true                 # optional: tilec --fast-math
//   shapes:
//     - {M: 4096, N: 4096, K: 4096}
//
// Loading checks everything against the kernel (parameter names and value
// kinds, expression types, dimension names) and reports each problem at its
// place in the file, `file:line:col: error: ...` with the line and a caret,
// as tilec reports errors in `.tile` files.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_TUNE_TUNINGSPACE_H
#define TILEC_COMPILER_TUNE_TUNINGSPACE_H

#include "compiler/Diagnostics.h"
#include "compiler/SourceFile.h"
#include "compiler/Target.h"
#include "compiler/Tune/KernelSpec.h"
#include "compiler/Tune/SpaceExpr.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilec {

/// A compile-time parameter the space varies.
struct SpaceParameter {
  /// The parameter's index in KernelSpec::getParams().
  std::size_t Index = 0;
  /// Its candidate values, in the file's order (distinct).
  std::vector<Constant> Values;
};

/// A constraint every compiled candidate satisfies.
struct SpaceConstraint {
  /// The expression as written.
  std::string Text;
  /// The parsed expression (boolean), over the kernel's parameters.
  SpaceExpr Expr;
  /// Where the expression is in the YAML file: the byte offset of its first
  /// character.
  std::uint32_t Offset = 0;
  /// True if byte I of `Text` is byte `Offset + I` of the file (a plain or
  /// simply quoted scalar on one line); otherwise every position in the
  /// text maps to `Offset`.
  bool Exact = false;
};

/// One problem shape: a value for each of the kernel's dimensions.
struct SpaceShape {
  /// Dimension name and extent, in the kernel's order of dimensions.
  std::vector<std::pair<std::string, std::int64_t>> Dims;
};

/// What a compiled candidate may use, per ptxas.
struct SpaceLimits {
  /// The most registers per thread (`max_registers`), if bounded beyond
  /// what a block of the candidate's threads can get.
  std::optional<unsigned> MaxRegisters;
  /// The most bytes of spill stores plus spill loads (`max_spill_bytes`).
  std::uint64_t MaxSpillBytes = 0;
  /// The most ptxas performance notes (`max_performance_warnings`: C75xx,
  /// such as serialized wgmma; the metadata's
  /// `resources.performance_warnings`).
  std::uint64_t MaxPerformanceWarnings = 0;
};

/// A tuning space, checked against its kernel.
struct TuningSpace {
  /// The YAML file (its path as given, and its bytes).
  std::unique_ptr<SourceFile> File;
  /// The kernel, from the `.tile` file `spec` names.
  std::unique_ptr<KernelSpec> Kernel;
  /// The architectures, in the file's order (distinct).
  std::vector<Arch> Archs;
  /// The parameters varied, in the kernel's order of parameters.
  std::vector<SpaceParameter> Parameters;
  /// The constraints, in the file's order.
  std::vector<SpaceConstraint> Constraints;
  /// The limits on registers and spills.
  SpaceLimits Limits;
  /// Every candidate is compiled with `tilec --fast-math` (`fast_math`).
  bool FastMath = false;
  /// The problem shapes, in the file's order.
  std::vector<SpaceShape> Shapes;

  /// Returns the variables expressions use: every compile-time parameter
  /// of the kernel, in its order.
  std::vector<ExprVariable> getVariables() const;
  /// Returns the location of byte `Offset` of constraint `C`'s text.
  SourceLoc getLoc(const SpaceConstraint &C, std::size_t Offset) const;
};

/// Reads the tuning space in the YAML file `Path` and the kernel it names.
/// Reports every problem found (located in the YAML file, or in the
/// `.tile` file for the kernel's own errors) to `Sink` and returns null if
/// there was one.
std::unique_ptr<TuningSpace> loadTuningSpace(const std::string &Path,
                                             const DiagnosticSink &Sink);

} // namespace tilec

#endif // TILEC_COMPILER_TUNE_TUNINGSPACE_H
