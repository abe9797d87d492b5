//===- OutputNamesTest.cpp - Names of the files tilec writes --------------===//

#include "TestUtil.h"

#include "compiler/OutputNames.h"

#include <catch2/catch.hpp>

using namespace tilec;
using namespace tilec::test;

namespace {

/// The stem of the first kernel of `Text` analyzed with `Defines`.
std::string stemOf(const std::string &Text,
                   const std::vector<Define> &Defines = {}) {
  SemaOptions Options;
  Options.Defines = Defines;
  FrontEndRun Run = analyze(Text, Options);
  REQUIRE(Run.errors().empty());
  const KernelInfo &Kernel = Run.Prog->Kernels.at(0);
  return getVariantStem(Kernel.Decl->Name.Name, getChangedParams(Kernel));
}

const char *VectorAdd =
    "kernel vector_add<dtype = f32, block = 1024, wide = false>"
    "(A: dtype[N], C: dtype[N]) {\n"
    "  with kernel(ceildiv(N, block), threads = 128) as (bx) { }\n"
    "}\n";

} // namespace

TEST_CASE("a variant's stem names the parameters that differ from their "
          "defaults",
          "[output-names]") {
  CHECK(stemOf(VectorAdd) == "vector_add");
  // A -D that repeats the default changes nothing, so it names nothing.
  CHECK(stemOf(VectorAdd, {{"dtype", "f32"}}) == "vector_add");
  CHECK(stemOf(VectorAdd, {{"dtype", "f16"}}) == "vector_add-dtype_f16");
  CHECK(stemOf(VectorAdd, {{"dtype", "bf16"}}) == "vector_add-dtype_bf16");
  // Declaration order, whatever the order on the command line; values as
  // the source spells them (0x800 is 2048).
  CHECK(stemOf(VectorAdd,
               {{"wide", "true"}, {"block", "0x800"}, {"dtype", "f16"}}) ==
        "vector_add-dtype_f16-block_2048-wide_true");
  CHECK(stemOf(VectorAdd, {{"block", "-1"}}) == "vector_add-block_-1");
}

TEST_CASE("a default computed from another parameter follows it",
          "[output-names]") {
  const char *Gemm = "kernel gemm<block_M = 128, block_N = block_M>(A: f16[N])"
                     " {\n  with kernel(1, threads = 128) { }\n}\n";
  CHECK(stemOf(Gemm, {{"block_M", "64"}}) == "gemm-block_M_64");
  CHECK(stemOf(Gemm, {{"block_N", "64"}}) == "gemm-block_N_64");
}

TEST_CASE("values are made safe for file names", "[output-names]") {
  CHECK(getVariantStem("k", {{"scale", "1.5e-3"}, {"mode", "a/b c"}}) ==
        "k-scale_1.5e-3-mode_a_b_c");
  CHECK(getVariantStem("k", {}) == "k");
}

TEST_CASE("-o names standard output, a directory or a file", "[output-names]") {
  CHECK(classifyOutput("-", false) == OutputKind::Stdout);
  CHECK(classifyOutput("out", false) == OutputKind::Directory);
  CHECK(classifyOutput("build/kernels", false) == OutputKind::Directory);
  CHECK(classifyOutput("out.d/", false) == OutputKind::Directory);
  CHECK(classifyOutput("x.cubin", true) == OutputKind::Directory);
  CHECK(classifyOutput(".", false) == OutputKind::Directory);
  CHECK(classifyOutput("..", false) == OutputKind::Directory);
  CHECK(classifyOutput("a/.hidden", false) == OutputKind::Directory);
  CHECK(classifyOutput("build/test.tmp", false) == OutputKind::Directory);
  CHECK(classifyOutput("dir.v2/kernel", false) == OutputKind::Directory);
  CHECK(classifyOutput("x.cubin", false) == OutputKind::File);
  CHECK(classifyOutput("out/k.sm_90a.ptx", false) == OutputKind::File);
  for (const char *Name : {"k.ast", "k.tile.mlir", "k.ll", "k.ptx", "k.cubin",
                           "k.fatbin", "k.json"})
    CHECK(classifyOutput(Name, false) == OutputKind::File);
}

TEST_CASE("templates of --output-name", "[output-names]") {
  std::vector<ParamSetting> Params = {{"dtype", "f16"}, {"block", "128"}};
  std::string Error;
  CHECK(expandOutputName("{kernel}_{dtype}_b{block}", "gemm", "gemm-dtype_f16",
                         Params, Error) == "gemm_f16_b128");
  CHECK(Error.empty());
  CHECK(expandOutputName("{variant}.v2", "gemm", "gemm-dtype_f16", Params,
                         Error) == "gemm-dtype_f16.v2");
  CHECK(expandOutputName("fixed", "gemm", "gemm", Params, Error) == "fixed");
  CHECK(expandOutputName("k_{mode}", "k", "k", {{"mode", "a b"}}, Error) ==
        "k_a_b");

  auto errorOf = [&](const char *Template) {
    std::string Message;
    CHECK(expandOutputName(Template, "gemm", "gemm", Params, Message).empty());
    return Message;
  };
  CHECK(errorOf("{kernel}_{dtyp}") ==
        "--output-name '{kernel}_{dtyp}': kernel 'gemm' has no compile-time "
        "parameter 'dtyp' (placeholders: {kernel}, {variant}, {dtype}, "
        "{block})");
  CHECK(errorOf("{kernel") == "--output-name '{kernel': '{' without its '}'");
  CHECK(errorOf("a/{kernel}").find("cannot contain '/'") != std::string::npos);
  CHECK(errorOf("") == "--output-name '': the file name would be ''");
  CHECK(errorOf("..") == "--output-name '..': the file name would be '..'");
}
