//===- TargetTest.cpp - The target table ----------------------------------===//

#include "compiler/Target.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace tilec;

TEST_CASE("every architecture has its own row, found by its name", "[target]") {
  std::set<std::string> Names;
  for (const TargetDescription &Target : getTargets()) {
    CHECK(&getTargetDescription(Target.A) == &Target);
    CHECK(lookupTarget(Target.Name) == &Target);
    CHECK(parseArch(Target.Name) == Target.A);
    CHECK(std::string(getArchName(Target.A)) == Target.Name);
    CHECK(Target.MinPtxVersion <= Target.DefaultPtxVersion);
    Names.insert(Target.Name);
  }
  CHECK(Names.size() == 5);
  CHECK(getArchList() == "sm_80, sm_86, sm_89, sm_90, sm_90a");
  CHECK_FALSE(parseArch("sm_75"));
  CHECK_FALSE(parseArch("SM_90A"));
  CHECK(lookupTarget("") == nullptr);
}

TEST_CASE("Blackwell architectures are known but not supported yet",
          "[target]") {
  for (const char *Name : {"sm_100", "sm_100a", "sm_100f", "sm_103a", "sm_110a",
                           "sm_120", "sm_120a", "sm_121a"}) {
    CHECK_FALSE(parseArch(Name));
    CHECK(describeFutureArch(Name).find("is not supported yet") !=
          std::string::npos);
  }
  CHECK(describeFutureArch("sm_100a") ==
        "architecture 'sm_100a' (Blackwell, compute capability 10.0) is not "
        "supported yet: tilec's code generator targets sm_80, sm_86, sm_89, "
        "sm_90, sm_90a");
  // Neither LLVM 22 nor ptxas 13 know these.
  for (const char *Name :
       {"sm_75", "sm_101", "sm_130", "sm_100b", "sm_90a", "", "a"})
    CHECK(describeFutureArch(Name).empty());
}

TEST_CASE("capabilities follow the architectures", "[target]") {
  const TargetDescription &SM80 = getTargetDescription(Arch::SM80);
  const TargetDescription &SM90 = getTargetDescription(Arch::SM90);
  const TargetDescription &SM90a = getTargetDescription(Arch::SM90a);
  for (const TargetDescription &Target : getTargets()) {
    CHECK(Target.has(TargetFeature::CpAsync));
    CHECK(Target.has(TargetFeature::Ldmatrix));
    CHECK(Target.has(TargetFeature::MmaSync));
  }
  CHECK_FALSE(SM80.has(TargetFeature::Tma));
  CHECK(SM90.has(TargetFeature::Tma));
  CHECK(SM90.has(TargetFeature::Clusters));
  // wgmma and setmaxnreg need the architecture-specific target.
  CHECK_FALSE(SM90.has(TargetFeature::Wgmma));
  CHECK_FALSE(SM90.has(TargetFeature::Setmaxnreg));
  CHECK(SM90a.has(TargetFeature::Wgmma));
  CHECK(SM90a.has(TargetFeature::Setmaxnreg));
  CHECK(SM90a.ArchSpecific);
  CHECK_FALSE(SM90.ArchSpecific);
  CHECK(SM90a.ComputeCapability == 90);
  CHECK(getMaxSharedMemoryPerBlock(Arch::SM80) == 163 * 1024);
  CHECK(getMaxSharedMemoryPerBlock(Arch::SM86) == 99 * 1024);
  CHECK(getMaxSharedMemoryPerBlock(Arch::SM90a) == 227 * 1024);
  CHECK(std::string(getFeatureName(TargetFeature::Wgmma)) == "wgmma");
}
