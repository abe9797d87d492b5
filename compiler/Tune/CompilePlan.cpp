//===- CompilePlan.cpp - What a tuning space's compile phase compiles -----===//

#include "compiler/Tune/CompilePlan.h"

using namespace tilec;

namespace {

/// Evaluates the constraints for `C`: sets `Broken` to the first one it
/// breaks, or to the number of constraints if it satisfies all. False (and
/// reported) if one cannot be evaluated.
bool evaluateConstraints(const TuningSpace &Space, const Candidate &C,
                         const DiagnosticSink &Sink, std::size_t &Broken) {
  for (Broken = 0; Broken != Space.Constraints.size(); ++Broken) {
    const SpaceConstraint &Constraint = Space.Constraints[Broken];
    ExprError Failure;
    std::optional<Constant> Value = Constraint.Expr.evaluate(C.Values, Failure);
    if (!Value) {
      Diagnostic D;
      D.Loc = Space.getLoc(Constraint, Failure.Offset);
      D.Message = Failure.Message + " in the constraint for the candidate " +
                  describeCandidate(C);
      Sink(renderDiagnostic(Space.File.get(), "tilec-tune", D));
      return false;
    }
    if (!Value->Bool)
      return true;
  }
  return true;
}

/// Returns the candidate with the defaults of `Space`'s kernel, except
/// `Point[I]` for parameter I of the space. Without `Point`: the package's
/// default variant, the kernel's defaults except for the parameters the
/// space gives a single value (a setting, not a choice).
Candidate makeCandidate(const TuningSpace &Space,
                        const std::vector<std::size_t> *Point) {
  Candidate C;
  const std::vector<KernelParam> &Params = Space.Kernel->getParams();
  for (const KernelParam &Param : Params)
    C.Values.push_back(Param.Default);
  for (std::size_t I = 0; I != Space.Parameters.size(); ++I) {
    const SpaceParameter &Parameter = Space.Parameters[I];
    Constant Value = Point ? Parameter.Values[(*Point)[I]]
                     : Parameter.Values.size() == 1
                         ? Parameter.Values[0]
                         : Params[Parameter.Index].Default;
    C.Values[Parameter.Index] = Value;
    C.Defines.push_back({Params[Parameter.Index].Name, Value.toString()});
  }
  return C;
}

/// Returns true if `A` and `B` have the same values.
bool sameValues(const Candidate &A, const Candidate &B) {
  for (std::size_t I = 0; I != A.Values.size(); ++I)
    if (A.Values[I].toString() != B.Values[I].toString())
      return false;
  return true;
}

} // namespace

std::string tilec::describeCandidate(const Candidate &C) {
  std::string Text;
  for (const Define &D : C.Defines)
    Text += (Text.empty() ? "" : ", ") + D.Name + "=" + D.Value;
  return Text.empty() ? "the defaults" : Text;
}

std::optional<CompilePlan> tilec::planCompile(const TuningSpace &Space,
                                              const DiagnosticSink &Sink) {
  CompilePlan Plan;
  Plan.Expanded = 1;
  for (const SpaceParameter &Parameter : Space.Parameters) {
    Plan.Expanded *= Parameter.Values.size();
    if (Plan.Expanded > MaxSpaceCandidates) {
      Diagnostic D;
      D.Message = "the tuning space '" + Space.File->getName() +
                  "' has more than " + std::to_string(MaxSpaceCandidates) +
                  " candidates; give its parameters fewer values";
      Sink(renderDiagnostic(nullptr, "tilec-tune", D));
      return std::nullopt;
    }
  }

  // Every combination, the last parameter varying fastest.
  Plan.ConstraintDrops.assign(Space.Constraints.size(), 0);
  std::vector<std::size_t> Point(Space.Parameters.size(), 0);
  const Candidate Defaults = makeCandidate(Space, nullptr);
  bool HasDefault = false;
  for (std::uint64_t N = 0; N != Plan.Expanded; ++N) {
    Candidate C = makeCandidate(Space, &Point);
    std::size_t Broken = 0;
    if (!evaluateConstraints(Space, C, Sink, Broken))
      return std::nullopt;
    if (Broken != Space.Constraints.size()) {
      ++Plan.ConstraintDrops[Broken];
    } else {
      if (sameValues(C, Defaults)) {
        HasDefault = true;
        Plan.Default = Plan.Candidates.size();
      }
      Plan.Candidates.push_back(std::move(C));
    }
    for (std::size_t I = Point.size(); I-- != 0;) {
      if (++Point[I] != Space.Parameters[I].Values.size())
        break;
      Point[I] = 0;
    }
  }
  if (!HasDefault) {
    Plan.Default = Plan.Candidates.size();
    Plan.DefaultAdded = true;
    Plan.Candidates.push_back(Defaults);
  }

  // The front end, and the shared memory of each architecture. The
  // defaults are compiled first.
  Plan.SharedMemoryDrops.assign(Space.Archs.size(), 0);
  Plan.SharedMemoryExamples.assign(Space.Archs.size(), "");
  std::vector<std::size_t> Order = {Plan.Default};
  for (std::size_t I = 0; I != Plan.Candidates.size(); ++I)
    if (I != Plan.Default)
      Order.push_back(I);
  // The signature of the first candidate the front end accepts (the
  // defaults, unless it rejects them).
  std::string FirstSignature;
  std::size_t First = 0;
  for (std::size_t Index : Order) {
    Candidate &C = Plan.Candidates[Index];
    CandidateCheck Check = Space.Kernel->check(C.Defines, Space.Archs);
    if (!Check.Error.empty()) {
      Plan.FrontEndFailures.push_back({Index, Check.Error});
      continue;
    }
    if (FirstSignature.empty()) {
      FirstSignature = Check.Signature;
      First = Index;
    } else if (Check.Signature != FirstSignature) {
      // A package is one kernel to its callers: every variant takes the
      // same arguments (docs/tuning.md, Kernel packages).
      Diagnostic D;
      D.Message = "the tuning space '" + Space.File->getName() +
                  "' changes the kernel's launch signature: the candidate " +
                  describeCandidate(C) + " takes (" + Check.Signature +
                  ") but the candidate " +
                  describeCandidate(Plan.Candidates[First]) + " takes (" +
                  FirstSignature +
                  "); the variants of a package share one signature, so "
                  "give the parameters that change it (an element type, a "
                  "constant extent) one value and tune each signature in a "
                  "space of its own";
      Sink(renderDiagnostic(nullptr, "tilec-tune", D));
      return std::nullopt;
    }
    C.Stem = Check.Stem;
    for (std::size_t A = 0; A != Space.Archs.size(); ++A) {
      if (Check.SharedMemory[A].empty()) {
        Plan.Jobs.push_back({Index, Space.Archs[A]});
        continue;
      }
      if (Plan.SharedMemoryDrops[A]++ == 0)
        Plan.SharedMemoryExamples[A] = Check.SharedMemory[A];
    }
  }
  return Plan;
}
