//===- EmitStagesTest.cpp - Parsing --emit lists --------------------------===//

#include "codegen/ArtifactWriter.h"

#include <catch2/catch.hpp>

using tilec::EmitStages;
using tilec::parseEmitStages;

TEST_CASE("emit lists select stages", "[emit]") {
  llvm::Expected<EmitStages> all =
      parseEmitStages("llvm,ptx,cubin,fatbin,json");
  REQUIRE(static_cast<bool>(all));
  CHECK(all->llvm);
  CHECK(all->ptx);
  CHECK(all->cubin);
  CHECK(all->fatbin);
  CHECK(all->json);
  CHECK(all->needsCubin());

  llvm::Expected<EmitStages> ptx = parseEmitStages("ptx, json");
  REQUIRE(static_cast<bool>(ptx));
  CHECK(ptx->ptx);
  CHECK(ptx->json);
  CHECK(!ptx->cubin);
  CHECK(!ptx->needsCubin());
}

TEST_CASE("unknown stages are rejected", "[emit]") {
  for (const char *list : {"sass", "ptx,,json", "", "PTX"}) {
    llvm::Expected<EmitStages> stages = parseEmitStages(list);
    REQUIRE(!stages);
    CHECK(llvm::toString(stages.takeError()).find("unknown emit stage") !=
          std::string::npos);
  }
}
