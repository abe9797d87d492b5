//===- Target.cpp - The GPU architectures tilec compiles for --------------===//

#include "compiler/Target.h"

#include <iterator>

using namespace tilec;

namespace {

constexpr unsigned featureBits(TargetFeature F) {
  return static_cast<unsigned>(F);
}

/// What every supported architecture has (sm_80 and newer).
constexpr unsigned AmpereFeatures =
    featureBits(TargetFeature::CpAsync) | featureBits(TargetFeature::Ldmatrix) |
    featureBits(TargetFeature::MmaSync) | featureBits(TargetFeature::Mbarrier);
/// What sm_90 adds.
constexpr unsigned HopperFeatures = AmpereFeatures |
                                    featureBits(TargetFeature::Tma) |
                                    featureBits(TargetFeature::Clusters);
/// What only the architecture-specific sm_90a has.
constexpr unsigned HopperArchSpecificFeatures =
    HopperFeatures | featureBits(TargetFeature::Wgmma) |
    featureBits(TargetFeature::Setmaxnreg);

/// The target table: one row per Arch, in the enum's order.
constexpr TargetDescription Targets[] = {
    {Arch::SM80, "sm_80", 80, false, 70, 80, 163 * 1024, 2048, 32,
     AmpereFeatures},
    {Arch::SM86, "sm_86", 86, false, 71, 80, 99 * 1024, 1536, 16,
     AmpereFeatures},
    {Arch::SM89, "sm_89", 89, false, 78, 80, 99 * 1024, 1536, 24,
     AmpereFeatures},
    {Arch::SM90, "sm_90", 90, false, 78, 80, 227 * 1024, 2048, 32,
     HopperFeatures},
    {Arch::SM90a, "sm_90a", 90, true, 80, 83, 227 * 1024, 2048, 32,
     HopperArchSpecificFeatures},
};

/// Architectures newer than the table that LLVM 22 and ptxas 13 both know,
/// without their `a`/`f` suffixes: the name, the family and the compute
/// capability.
struct FutureArch {
  std::string_view Name;
  const char *Family;
  const char *ComputeCapability;
};
constexpr FutureArch FutureArchs[] = {
    {"sm_100", "Blackwell", "10.0"},
    {"sm_103", "Blackwell", "10.3"},
    {"sm_110", "Blackwell (Jetson Thor)", "11.0"},
    {"sm_120", "Blackwell (GeForce RTX 50, RTX PRO)", "12.0"},
    {"sm_121", "Blackwell (DGX Spark)", "12.1"},
};

} // namespace

TargetRange tilec::getTargets() {
  return {std::begin(Targets), std::end(Targets)};
}

const TargetDescription &tilec::getTargetDescription(Arch A) {
  return Targets[static_cast<unsigned>(A)];
}

const TargetDescription *tilec::lookupTarget(std::string_view Name) {
  for (const TargetDescription &Target : Targets)
    if (Name == Target.Name)
      return &Target;
  return nullptr;
}

std::string tilec::describeFutureArch(std::string_view Name) {
  std::string_view Base = Name;
  if (!Base.empty() && (Base.back() == 'a' || Base.back() == 'f'))
    Base.remove_suffix(1);
  for (const FutureArch &Future : FutureArchs)
    if (Base == Future.Name)
      return "architecture '" + std::string(Name) + "' (" + Future.Family +
             ", compute capability " + Future.ComputeCapability +
             ") is not supported yet: tilec's code generator targets " +
             getArchList();
  return {};
}

std::optional<Arch> tilec::parseArch(std::string_view Name) {
  if (const TargetDescription *Target = lookupTarget(Name))
    return Target->A;
  return std::nullopt;
}

const char *tilec::getArchName(Arch A) { return getTargetDescription(A).Name; }

std::string tilec::getArchList() {
  std::string List;
  for (const TargetDescription &Target : Targets)
    List += (List.empty() ? "" : ", ") + std::string(Target.Name);
  return List;
}

const char *tilec::getFeatureName(TargetFeature F) {
  switch (F) {
  case TargetFeature::CpAsync:
    return "cp.async";
  case TargetFeature::Ldmatrix:
    return "ldmatrix";
  case TargetFeature::MmaSync:
    return "mma.sync";
  case TargetFeature::Mbarrier:
    return "mbarrier";
  case TargetFeature::Tma:
    return "TMA";
  case TargetFeature::Clusters:
    return "thread-block clusters";
  case TargetFeature::Wgmma:
    return "wgmma";
  case TargetFeature::Setmaxnreg:
    return "setmaxnreg";
  }
  return "unknown feature";
}
