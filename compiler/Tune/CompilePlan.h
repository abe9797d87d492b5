//===- CompilePlan.h - What a compile phase compiles ------------*- C++ -*-===//
//
// Expands a tuning space into candidates (every combination of its
// parameters' values, the last parameter varying fastest), drops the
// candidates that break a constraint, runs the front end on the others and
// drops, per architecture, those whose shared-memory tiles do not fit in a
// block: what is left is one compile job per candidate and architecture.
// The kernel's defaults (but for the parameters the space gives a single
// value, which are set) are always a candidate, whether the space holds them
// or not and whatever the constraints say, so that a package always has its
// default variant. Every candidate must have the launch signature of the
// first (a package is one kernel to its callers). Everything here is cheap (no
// MLIR, no ptxas): it runs before anything is compiled, and it counts what it
// dropped and why.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_TUNE_COMPILEPLAN_H
#define TILEC_COMPILER_TUNE_COMPILEPLAN_H

#include "compiler/Tune/TuningSpace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// The most candidates a space may expand to.
constexpr std::uint64_t MaxSpaceCandidates = 100000;

/// One point of a tuning space.
struct Candidate {
  /// The value of every compile-time parameter, in the kernel's order: the
  /// space's values, and the defaults of the parameters it does not vary.
  std::vector<Constant> Values;
  /// The `-D` overrides that compile it: the space's parameters, in the
  /// kernel's order, with the candidate's values.
  std::vector<Define> Defines;
  /// The file-name stem tilec gives the variant (KernelSpec::check); empty
  /// if the front end rejected it.
  std::string Stem;
};

/// One compilation: a candidate for an architecture.
struct CompileJob {
  /// The candidate's index in CompilePlan::Candidates.
  std::size_t Candidate = 0;
  /// The architecture.
  Arch Target = Arch::SM90a;
};

/// A candidate the front end rejected.
struct FrontEndFailure {
  /// The candidate's index in CompilePlan::Candidates.
  std::size_t Candidate = 0;
  /// The first error, on one line.
  std::string Error;
};

/// What the compile phase compiles, and what it dropped before.
struct CompilePlan {
  /// How many candidates the space's parameters give (their product).
  std::uint64_t Expanded = 0;
  /// For each constraint of the space: the candidates it dropped (those
  /// that satisfy the constraints before it and break it).
  std::vector<std::uint64_t> ConstraintDrops;
  /// The candidates that satisfy every constraint, then the kernel's
  /// defaults if they are not among them.
  std::vector<Candidate> Candidates;
  /// The index of the package's default variant in `Candidates`.
  std::size_t Default = 0;
  /// True if the defaults are not a point of the space that satisfies the
  /// constraints (they were added).
  bool DefaultAdded = false;
  /// The candidates the front end rejected.
  std::vector<FrontEndFailure> FrontEndFailures;
  /// For each architecture of the space: the candidates whose shared
  /// memory does not fit in a block.
  std::vector<std::uint64_t> SharedMemoryDrops;
  /// The front end's message for the first shared-memory drop per
  /// architecture (empty if none).
  std::vector<std::string> SharedMemoryExamples;
  /// The compilations, the defaults' first.
  std::vector<CompileJob> Jobs;
};

/// Returns the candidate's `-D` values as `name=value, ...` (`the
/// defaults` if it has none), for messages.
std::string describeCandidate(const Candidate &C);

/// Plans the compile phase of `Space`. An expression that cannot be
/// evaluated for a candidate (a division by zero, an overflow) or a space
/// of more than MaxSpaceCandidates candidates, or candidates of different
/// launch signatures, are reported to `Sink` and give nullopt.
std::optional<CompilePlan> planCompile(const TuningSpace &Space,
                                       const DiagnosticSink &Sink);

} // namespace tilec

#endif // TILEC_COMPILER_TUNE_COMPILEPLAN_H
