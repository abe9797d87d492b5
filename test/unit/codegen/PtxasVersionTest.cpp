//===- PtxasVersionTest.cpp - Parsing `ptxas --version` -------------------===//

#include "codegen/Ptxas.h"

#include <catch2/catch.hpp>

TEST_CASE("the version of CUDA 13.0's ptxas", "[ptxas]") {
  const char *output = "ptxas: NVIDIA (R) Ptx optimizing assembler\n"
                       "Copyright (c) 2005-2025 NVIDIA Corporation\n"
                       "Built on Wed_Aug_20_01:55:12_PM_PDT_2025\n"
                       "Cuda compilation tools, release 13.0, V13.0.88\n"
                       "Build cuda_13.0.r13.0/compiler.36424714_0\n";
  llvm::Expected<tilec::PtxasVersion> version =
      tilec::parsePtxasVersion(output);
  REQUIRE(static_cast<bool>(version));
  CHECK(version->text == "13.0.88");
  CHECK(version->major == 13);
  CHECK(version->minor == 0);
}

TEST_CASE("output without a version is an error", "[ptxas]") {
  llvm::Expected<tilec::PtxasVersion> version =
      tilec::parsePtxasVersion("ptxas: command not found\n");
  REQUIRE(!version);
  CHECK(llvm::toString(version.takeError()).find("version") !=
        std::string::npos);
}
