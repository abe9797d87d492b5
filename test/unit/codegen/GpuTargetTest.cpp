//===- GpuTargetTest.cpp - Architectures and PTX versions -----------------===//

#include "codegen/GpuTarget.h"

#include <catch2/catch.hpp>

using namespace tilec;

TEST_CASE("every supported arch resolves with its default PTX", "[target]") {
  for (llvm::StringRef arch : supportedArchs()) {
    llvm::Expected<GpuTarget> target = resolveGpuTarget(arch);
    REQUIRE(static_cast<bool>(target));
    CHECK(target->arch == arch.str());
    CHECK(target->ptxVersion == defaultPtxVersion(arch));
    CHECK(target->ptxVersion >= minPtxVersion(arch));
    CHECK(target->ptxVersion <= kMaxPtxVersion);
  }
}

TEST_CASE("target properties", "[target]") {
  llvm::Expected<GpuTarget> hopper = resolveGpuTarget("sm_90a");
  REQUIRE(static_cast<bool>(hopper));
  CHECK(hopper->smVersion == 90);
  CHECK(hopper->archSpecific);
  CHECK(hopper->ptxVersion == 83);
  CHECK(hopper->ptxFeature() == "+ptx83");
  CHECK(hopper->fatbinSm() == "90a");

  llvm::Expected<GpuTarget> ampere = resolveGpuTarget("sm_86", 78);
  REQUIRE(static_cast<bool>(ampere));
  CHECK(ampere->smVersion == 86);
  CHECK(!ampere->archSpecific);
  CHECK(ampere->ptxFeature() == "+ptx78");
  CHECK(ampere->fatbinSm() == "86");
}

TEST_CASE("unsupported architectures are rejected", "[target]") {
  for (const char *arch : {"sm_75", "90a", "", "SM_90"}) {
    llvm::Expected<GpuTarget> target = resolveGpuTarget(arch);
    REQUIRE(!target);
    std::string message = llvm::toString(target.takeError());
    CHECK(message.find("unsupported GPU architecture") != std::string::npos);
    CHECK(message.find("sm_80, sm_86, sm_89, sm_90, sm_90a") !=
          std::string::npos);
  }
  // Blackwell is known, not supported yet.
  llvm::Expected<GpuTarget> blackwell = resolveGpuTarget("sm_100a");
  REQUIRE(!blackwell);
  std::string message = llvm::toString(blackwell.takeError());
  CHECK(message.find("'sm_100a' (Blackwell, compute capability 10.0) is not "
                     "supported yet") != std::string::npos);
  CHECK(message.find("sm_80, sm_86, sm_89, sm_90, sm_90a") !=
        std::string::npos);
}

TEST_CASE("PTX versions outside the arch's range are rejected", "[target]") {
  // sm_90a needs PTX ISA 8.0; sm_89 7.8.
  llvm::Expected<GpuTarget> old = resolveGpuTarget("sm_90a", 78);
  REQUIRE(!old);
  CHECK(llvm::toString(old.takeError()) ==
        "PTX ISA 7.8 cannot target sm_90a (valid: 8.0 to 9.0)");
  llvm::Expected<GpuTarget> ada = resolveGpuTarget("sm_89", 77);
  REQUIRE(!ada);
  llvm::consumeError(ada.takeError());
  llvm::Expected<GpuTarget> unknown = resolveGpuTarget("sm_80", 79);
  REQUIRE(!unknown);
  CHECK(llvm::toString(unknown.takeError()) == "unknown PTX ISA version 7.9");
  llvm::Expected<GpuTarget> future = resolveGpuTarget("sm_80", 91);
  REQUIRE(!future);
  llvm::consumeError(future.takeError());
  CHECK(static_cast<bool>(resolveGpuTarget("sm_80", 70)));
  CHECK(static_cast<bool>(resolveGpuTarget("sm_90a", 90)));
}

TEST_CASE("PTX versions accepted by ptxas releases", "[target]") {
  CHECK(maxPtxVersionForCudaRelease(10, 2) == 0);
  CHECK(maxPtxVersionForCudaRelease(11, 0) == 70);
  CHECK(maxPtxVersionForCudaRelease(11, 8) == 78);
  CHECK(maxPtxVersionForCudaRelease(12, 0) == 80);
  CHECK(maxPtxVersionForCudaRelease(12, 3) == 83);
  CHECK(maxPtxVersionForCudaRelease(12, 6) == 85);
  CHECK(maxPtxVersionForCudaRelease(12, 8) == 87);
  CHECK(maxPtxVersionForCudaRelease(12, 9) == 88);
  CHECK(maxPtxVersionForCudaRelease(13, 0) == 90);
  CHECK(maxPtxVersionForCudaRelease(14, 2) == kMaxPtxVersion);
  CHECK(formatPtxVersion(83) == "8.3");
}
