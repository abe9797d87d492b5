//===- CacheKeyTest.cpp - Tests of the compile cache's key ----------------===//

#include "compiler/Cache/CacheKey.h"

#include <catch2/catch.hpp>

#include <functional>
#include <set>

using namespace tilec;

namespace {
CacheKeyInputs getInputs() {
  CacheKeyInputs Inputs;
  Inputs.TilecVersion = "0.1.0";
  Inputs.TilecCommit = "abc";
  Inputs.TilecBuild = "exe:01;";
  Inputs.LLVMVersion = "22.1.8";
  Inputs.SourcePath = "specs/gemm.tile";
  Inputs.SourceSha256 = std::string(64, 'a');
  Inputs.Kernel = "gemm";
  Inputs.Constants = {{"block_M", "int", "128"}, {"dtype", "type", "f16"}};
  Inputs.Defines = {"block_M=128"};
  Inputs.KernelSelection = {"gemm"};
  Inputs.Targets = {"sm_90a/ptx86"};
  Inputs.Stages = {"cubin", "json"};
  Inputs.FileStem = "gemm";
  Inputs.Tools = {{"ptxas", "/cuda/bin/ptxas", "V13.0.88", "1:2:3.4"}};
  return Inputs;
}
} // namespace

TEST_CASE("cache key: stable and well-formed", "[cache]") {
  std::string Key = computeCacheKey(getInputs());
  CHECK(isCacheKey(Key));
  CHECK(computeCacheKey(getInputs()) == Key);
  CHECK_FALSE(isCacheKey(Key.substr(1)));
  CHECK_FALSE(isCacheKey(std::string(64, 'A')));
  CHECK_FALSE(isCacheKey(std::string(63, 'a') + "g"));
}

TEST_CASE("cache key: every input changes it", "[cache]") {
  using Change = std::function<void(CacheKeyInputs &)>;
  std::vector<std::pair<const char *, Change>> Changes = {
      {"tilec version", [](auto &I) { I.TilecVersion = "0.2.0"; }},
      {"commit", [](auto &I) { I.TilecCommit = "abd"; }},
      {"build", [](auto &I) { I.TilecBuild = "exe:02;"; }},
      {"LLVM", [](auto &I) { I.LLVMVersion = "22.1.9"; }},
      {"source path", [](auto &I) { I.SourcePath = "./specs/gemm.tile"; }},
      {"source bytes", [](auto &I) { I.SourceSha256[0] = 'b'; }},
      {"kernel", [](auto &I) { I.Kernel = "gemm2"; }},
      {"constant value", [](auto &I) { I.Constants[0].Value = "64"; }},
      {"constant kind", [](auto &I) { I.Constants[0].Kind = "float"; }},
      {"constant name", [](auto &I) { I.Constants[0].Name = "block_N"; }},
      {"constant order",
       [](auto &I) { std::swap(I.Constants[0], I.Constants[1]); }},
      {"no constants", [](auto &I) { I.Constants.clear(); }},
      {"defines", [](auto &I) { I.Defines.push_back("stages=2"); }},
      {"kernel selection", [](auto &I) { I.KernelSelection.clear(); }},
      {"arch", [](auto &I) { I.Targets = {"sm_90/ptx86"}; }},
      {"PTX version", [](auto &I) { I.Targets = {"sm_90a/ptx87"}; }},
      {"arch order",
       [](auto &I) { I.Targets = {"sm_80/ptx86", "sm_90a/ptx86"}; }},
      {"arch order 2",
       [](auto &I) { I.Targets = {"sm_90a/ptx86", "sm_80/ptx86"}; }},
      {"stages", [](auto &I) { I.Stages.push_back("ptx"); }},
      {"file stem", [](auto &I) { I.FileStem = "gemm-block_M_64"; }},
      {"output name", [](auto &I) { I.OutputNameTemplate = "{kernel}"; }},
      {"-O", [](auto &I) { I.OptLevel = 2; }},
      {"-lineinfo", [](auto &I) { I.LineInfo = true; }},
      {"--fast-math", [](auto &I) { I.FastMath = true; }},
      {"--stats", [](auto &I) { I.Stats = true; }},
      {"binaries listed", [](auto &I) { I.ListBinaries = false; }},
      {"ptxas path", [](auto &I) { I.Tools[0].Path = "/other/ptxas"; }},
      {"ptxas version", [](auto &I) { I.Tools[0].Version = "V13.1.0"; }},
      {"ptxas stamp", [](auto &I) { I.Tools[0].Stamp = "1:2:3.5"; }},
      {"tool role", [](auto &I) { I.Tools[0].Role = "fatbinary"; }},
      {"another tool",
       [](auto &I) { I.Tools.push_back({"fatbinary", "/f", "V1", "1"}); }},
  };
  std::set<std::string> Keys = {computeCacheKey(getInputs())};
  for (auto &[What, Apply] : Changes) {
    CacheKeyInputs Inputs = getInputs();
    Apply(Inputs);
    INFO(What);
    CHECK(Keys.insert(computeCacheKey(Inputs)).second);
  }
}

TEST_CASE("cache key: fields do not run into each other", "[cache]") {
  // The same characters split differently between fields and list
  // elements give different keys.
  CacheKeyInputs A = getInputs(), B = getInputs();
  A.Defines = {"a", "b"};
  B.Defines = {"ab"};
  CHECK(computeCacheKey(A) != computeCacheKey(B));
  A = getInputs();
  B = getInputs();
  A.Defines = {"x"};
  A.KernelSelection = {};
  B.Defines = {};
  B.KernelSelection = {"x"};
  CHECK(computeCacheKey(A) != computeCacheKey(B));
  A = getInputs();
  B = getInputs();
  A.FileStem = "a;file_stem=1:b";
  B.FileStem = "a";
  B.OutputNameTemplate = "b";
  CHECK(computeCacheKey(A) != computeCacheKey(B));
  // Bytes that are not UTF-8 are keyed as they are.
  A = getInputs();
  B = getInputs();
  A.SourcePath = "\xff";
  B.SourcePath = "\xfe";
  CHECK(computeCacheKey(A) != computeCacheKey(B));
}

TEST_CASE("cache key: the description names every input", "[cache]") {
  nlohmann::ordered_json Description = describeCacheKeyInputs(getInputs());
  for (const char *Field :
       {"tilec_version", "tilec_commit", "tilec_build", "llvm_version",
        "source_path", "source_sha256", "kernel", "constants", "defines",
        "kernel_selection", "targets", "stages", "file_stem", "output_name",
        "opt_level", "lineinfo", "fast_math", "stats", "list_binaries", "tools"}) {
    INFO(Field);
    CHECK(Description.contains(Field));
  }
  CHECK(Description["constants"][1]["value"] == "f16");
  CHECK(Description["tools"][0]["path"] == "/cuda/bin/ptxas");
}
