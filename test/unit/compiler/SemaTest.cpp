//===- SemaTest.cpp - Tests of semantic analysis --------------------------===//

#include "TestUtil.h"

#include "compiler/Casting.h"
#include "compiler/Symbol.h"

#include <catch2/catch.hpp>

using namespace tilec;
using namespace tilec::ast;
using namespace tilec::test;

namespace {

/// Wraps `Body` in a kernel with a few parameters and tiles.
std::string inKernel(const std::string &Body,
                     const std::string &Consts = "block = 128, dtype = f16") {
  return "kernel k<" + Consts +
         ">(A: dtype[M, N], B: f32[N], s: f32, n: i32) {\n"
         "  with kernel(ceildiv(M, block), threads = 128) as (bx) {\n"
         "    let S = alloc_shared([block, 32], dtype);\n"
         "    let F = alloc_fragment([block], f32);\n"
         "    let G = alloc_fragment([block, 32], f32);\n" +
         Body + "\n  }\n}\n";
}

/// Returns the kernel-level constant `Name` of the first kernel.
const Constant &constParam(const FrontEndRun &Run, const std::string &Name) {
  for (const Symbol *S : Run.Prog->Kernels.at(0).ConstParams)
    if (S->Name == Name)
      return *S->Const;
  FAIL("no constant " << Name);
  static Constant None;
  return None;
}

} // namespace

TEST_CASE("the reference programs are accepted", "[sema]") {
  for (const char *Name : {"vector_add", "gemm", "gemm_bias_gelu", "softmax",
                           "row_sum", "flash_attention"}) {
    INFO(Name);
    std::string Source = referenceProgram(Name);
    REQUIRE_FALSE(Source.empty());
    FrontEndRun Run = analyze(Source);
    CHECK(Run.rendered() == "");
    REQUIRE(Run.Prog->Kernels.size() == 1);
    CHECK(Run.Prog->Kernels[0].Launch != nullptr);
  }
}

TEST_CASE("ABI order: tensors, dims by first appearance, scalars", "[sema]") {
  FrontEndRun Run = analyze(
      "kernel k<d = 64>(x: f32, A: f16[M, K], B: f16[K, N], C: f16[N, d]) {\n"
      "  with kernel(1) { }\n}\n");
  REQUIRE(Run.rendered() == "");
  const KernelInfo &K = Run.Prog->Kernels[0];
  std::vector<std::string> Tensors, Dims, Scalars;
  for (const Symbol *S : K.Tensors)
    Tensors.push_back(S->Name);
  for (const Symbol *S : K.Dims)
    Dims.push_back(S->Name);
  for (const Symbol *S : K.Scalars)
    Scalars.push_back(S->Name);
  CHECK(Tensors == std::vector<std::string>{"A", "B", "C"});
  CHECK(Dims == std::vector<std::string>{"M", "K", "N"});
  CHECK(Scalars == std::vector<std::string>{"x"});
  CHECK(K.Tensors[2]->Buffer.Shape == std::vector<std::int64_t>{-1, 64});
}

TEST_CASE("compile-time parameters fold", "[sema]") {
  FrontEndRun Run = analyze(
      "kernel k<a = 4, b = a * 8 + 1, t = true, u = !t, ty = bf16>() {\n"
      "  with kernel(ceildiv(b, a), threads = a * 32) { }\n}\n");
  REQUIRE(Run.rendered() == "");
  CHECK(constParam(Run, "b").Int == 33);
  CHECK(constParam(Run, "u").Bool == false);
  CHECK(constParam(Run, "ty").Type == ScalarKind::BF16);
  const LaunchStmt &Launch = *Run.Prog->Kernels[0].Launch;
  CHECK(Launch.Threads == 128);
  CHECK(Launch.Config->Args[0]->Const->Int == 9);
}

TEST_CASE("untyped constants take the type of their context", "[sema]") {
  FrontEndRun Run = analyze(inKernel(R"(
    for i in parallel(block) {
      F[i] = i < 3 ? -inf : 0.5 * pi;
      let h = cast<f16>(2) * S[i, 0];
      F[i] = cast<f32>(h) + 1;
    })"));
  REQUIRE(Run.rendered() == "");
}

TEST_CASE("compile-time parameter overrides (-D)", "[sema]") {
  SemaOptions Options;
  Options.Defines = {{"block", "64"}, {"dtype", "bf16"}};
  FrontEndRun Run = analyze(inKernel(""), Options);
  REQUIRE(Run.rendered() == "");
  CHECK(constParam(Run, "block").Int == 64);
  CHECK(constParam(Run, "dtype").Type == ScalarKind::BF16);
}

TEST_CASE("compile-time parameter override errors (-D)", "[sema]") {
  auto Run = [](std::vector<Define> Defines) {
    SemaOptions Options;
    Options.Defines = std::move(Defines);
    return analyze(inKernel(""), Options);
  };
  CHECK(Run({{"block", "abc"}})
            .hasError("-D block=abc: 'abc' is not an integer"));
  CHECK(Run({{"dtype", "f99"}})
            .hasError("-D dtype=f99: 'f99' is not an element type"));
  CHECK(Run({{"block", "99999999999999999999"}}).hasError("is not an integer"));
  CHECK(Run({{"nope", "1"}})
            .hasError("-D nope=1: no kernel in test.tile has a compile-time "
                      "parameter named 'nope'"));
  CHECK(Run({{"M", "1"}}).hasError("compile-time parameter named 'M'"));
  CHECK(Run({{"block", "1"}, {"block", "2"}})
            .hasError("-D block is given more than once"));
  FrontEndRun Zero = Run({{"block", "0"}});
  CHECK(Zero.hasError("a tile extent must be between 1 and 1048576, got 0"));
  CHECK(Zero.rendered().find("note: 'block' is 0, set by -D block=0") !=
        std::string::npos);
  CHECK(Run({{"block", "1099511627776"}})
            .hasError("a tile extent must be between"));
}

TEST_CASE("kernel selection (--kernel)", "[sema]") {
  SemaOptions Options;
  Options.SelectedKernels = {"other"};
  CHECK(analyze(inKernel(""), Options).hasError("no kernel named 'other'"));
  Options.SelectedKernels = {"k"};
  Options.Defines = {{"block", "64"}};
  CHECK(analyze(inKernel(""), Options).rendered() == "");
}

TEST_CASE("function recursion is detected without deep recursion", "[sema]") {
  CHECK(analyze("fn f(x: f32) -> f32 { return f(x); }")
            .hasError("recursive call to 'f' ('f' -> 'f')"));
  CHECK(analyze("fn f(x: f32) -> f32 { return g(x); }\n"
                "fn g(x: f32) -> f32 { return f(x); }")
            .hasError("recursive call to 'f' ('f' -> 'g' -> 'f')"));
  // A long cycle: iterative search, shortened message.
  std::string Chain;
  for (int I = 0; I != 20000; ++I)
    Chain += "fn h" + std::to_string(I) + "(x: f32) -> f32 { return h" +
             std::to_string((I + 1) % 20000) + "(x); }\n";
  FrontEndRun Run = analyze(Chain);
  CHECK(Run.hasError("recursive call to 'h0' ('h0' -> 'h1' -> 'h2' -> 'h3' "
                     "-> ... -> 'h19997' -> 'h19998' -> 'h19999' -> 'h0')"));
  CHECK(Run.Diags->getNumErrors() == 2);
}

TEST_CASE("inlining is bounded", "[sema]") {
  // Each function calls the previous one twice: 2^60 nodes once inlined.
  std::string Source = "fn h0(x: f32) -> f32 { return x; }\n";
  for (int I = 1; I != 60; ++I)
    Source += "fn h" + std::to_string(I) + "(x: f32) -> f32 { return h" +
              std::to_string(I - 1) + "(x) + h" + std::to_string(I - 1) +
              "(x); }\n";
  Source += inKernel("for i in parallel(block) { F[i] = h59(F[i]); }");
  FrontEndRun Big = analyze(Source);
  CHECK(Big.errors() ==
        std::vector<std::string>{"kernel 'k' is too large: more than 1048576 "
                                 "expression nodes after inlining functions"});

  // A long chain of calls is too deep once inlined.
  std::string Deep = "fn h0(x: f32) -> f32 { return x; }\n";
  for (int I = 1; I != 2000; ++I)
    Deep += "fn h" + std::to_string(I) + "(x: f32) -> f32 { return h" +
            std::to_string(I - 1) + "(x); }\n";
  FrontEndRun DeepRun = analyze(Deep);
  CHECK(DeepRun.errors() ==
        std::vector<std::string>{"expression too deeply nested after "
                                 "inlining 'h1023' (more than 1024 levels)"});
}

TEST_CASE("names", "[sema]") {
  CHECK(analyze(inKernel("let q = blok;"))
            .hasError(
                "use of undeclared identifier 'blok'; did you mean 'block'?"));
  CHECK(analyze(inKernel("let S = 1;")).hasError("redefinition of 'S'"));
  CHECK(analyze(inKernel("let f16 = 1;"))
            .hasError("'f16' is the name of a type"));
  CHECK(analyze(inKernel("let inf = 1;"))
            .hasError("'inf' is a builtin constant"));
  CHECK(analyze("fn exp(x: f32) -> f32 { return x; }")
            .hasError("'exp' is a builtin and cannot be redefined"));
  CHECK(analyze("kernel k() { with kernel(1) {} }\n"
                "kernel k() { with kernel(1) {} }")
            .hasError("redefinition of kernel 'k'"));
  // Sibling scopes may reuse names.
  CHECK(analyze(inKernel("for i in parallel(4) { }\n"
                         "for i in parallel(4) { }"))
            .rendered() == "");
}

TEST_CASE("types", "[sema]") {
  CHECK(analyze(inKernel("let x = s + n;"))
            .hasError("mismatched operand types for '+': f32 and i32"));
  CHECK(analyze(inKernel("let x = A + 1;"))
            .hasError("'A' is a tensor parameter, not a scalar value"));
  CHECK(analyze(inKernel("let x = s && true;"))
            .hasError("operands of '&&' must be bool, got f32"));
  CHECK(analyze(inKernel("if s { }"))
            .hasError("the condition of 'if' must be bool, got f32"));
  CHECK(analyze(inKernel("let x = cast<i8>(300);"))
            .hasError("constant 300 does not fit in i8"));
  CHECK(analyze(inKernel("let x = 1 / 0;")).hasError("division by zero"));
  CHECK(analyze(inKernel("let x = 9223372036854775807 + 1;"))
            .hasError("integer overflow in a constant expression"));
  CHECK(analyze(inKernel("let x = exp(n);"))
            .hasError("'exp' expects a floating-point argument, got i32"));
  CHECK(analyze(inKernel("let x = 1; x = 2;"))
            .hasError("cannot assign to 'x': it is a 'let' value"));
}

TEST_CASE("placement rules", "[sema]") {
  CHECK(analyze(inKernel("F[0] = 1.0;"))
            .hasError(
                "fragment 'F' can only be indexed inside a 'parallel' loop"));
  CHECK(analyze(inKernel("for i in parallel(block) { clear(F); }"))
            .hasError("'clear' cannot be used inside a 'parallel' loop"));
  CHECK(analyze(inKernel("for i in parallel(4) { for j in parallel(4) { } }"))
            .hasError("'parallel' loops cannot be nested"));
  CHECK(analyze(
            inKernel("for i in serial(4) { let T = alloc_shared([4], f32); }"))
            .hasError("'alloc_shared' can only be used directly inside"));
  CHECK(analyze(inKernel("for i in serial(n) { }"))
            .hasError("the trip count of 'serial' must be index, got i32"));
}

TEST_CASE("tile statements", "[sema]") {
  CHECK(analyze(inKernel("let T = alloc_shared([M, 4], f16);"))
            .hasError(
                "a tile extent must be a compile-time constant, but 'M' is a "
                "symbolic dimension"));
  CHECK(analyze(inKernel("gemm(S, S, G);"))
            .hasError("'gemm' reduction dimension K is 32 in A 'S' [128, 32] "
                      "but 128 in B"));
  CHECK(analyze(inKernel("copy(F, G);"))
            .hasError("'copy' between tiles of different shapes"));
  CHECK(analyze(inKernel("reduce_sum(G, F, dim = 1);")).rendered() == "");
  CHECK(analyze(inKernel("reduce_sum(G, F, dim = 0);"))
            .hasError("the target of 'reduce_sum' must have shape [32]"));
  CHECK(analyze(inKernel("reduce_sum(G, F, axis = 0);"))
            .hasError("unknown named argument 'axis' for 'reduce_sum' "
                      "(accepted: dim, clear)"));
  CHECK(analyze(inKernel("copy(A);"))
            .hasError("'copy' expects 2 arguments, got 1"));
  CHECK(analyze(inKernel("copy(A[0, 0], S);")).rendered() == "");
  CHECK(analyze(inKernel("copy(A[0], S);"))
            .hasError("the region origin of 'A' needs 2 indices, got 1"));
}

TEST_CASE("limits of launches and tiles", "[sema]") {
  CHECK(analyze(inKernel("", "block = 128, dtype = f16, t = 100")).rendered() ==
        "");
  CHECK(
      analyze("kernel k() { with kernel(1, threads = 100) { } }")
          .hasError(
              "threads must be a multiple of 32 between 32 and 1024, got 100"));
  CHECK(analyze("kernel k() { with kernel(0) { } }")
            .hasError("grid extent x must be between 1 and 2147483647, got 0"));
  CHECK(analyze("kernel k() { with kernel(1, 1, 1, 1) { } }")
            .hasError("a grid has at most 3 dimensions, got 4"));
  CHECK(analyze("kernel k() { with kernel(1) { let T = alloc_fragment([4096, "
                "8192], f32); } }")
            .hasError("has more than 16777216 elements"));
  CHECK(analyze("kernel k() { }")
            .hasError("kernel 'k' has no 'with kernel(...)' block"));
}

TEST_CASE("shared memory against the target's limit", "[sema]") {
  FrontEndRun Run = analyze("kernel k() { with kernel(1) {\n"
                            "  let a = alloc_shared([128, 256], f32);\n"
                            "  let b = alloc_shared([128, 128], f32);\n"
                            "} }");
  REQUIRE(Run.rendered() == "");
  const KernelInfo &K = Run.Prog->Kernels[0];
  checkSharedMemoryLimit(K, Arch::SM90a, *Run.Diags);
  CHECK_FALSE(Run.Diags->hasErrors());
  checkSharedMemoryLimit(K, Arch::SM80, *Run.Diags);
  CHECK(Run.hasError("kernel 'k' needs 196608 bytes of shared memory with "
                     "this allocation, but sm_80 allows at most 166912 bytes "
                     "per block"));
  CHECK(Run.Diags->getDiagnostics().back().Loc.Line == 3);
}
