//===- ParserTest.cpp - Tests of the parser -------------------------------===//

#include "TestUtil.h"

#include "compiler/Casting.h"

#include <catch2/catch.hpp>

using namespace tilec;
using namespace tilec::ast;
using namespace tilec::test;

namespace {

/// Parses `Text` as the initializer of a `let` in a function and returns it.
const Expr &parseExpr(FrontEndRun &Run, const std::string &Text) {
  Run = parse("fn f() -> f32 { let v = " + Text + "; return 0.0; }");
  REQUIRE_FALSE(Run.Diags->hasErrors());
  REQUIRE(Run.File->Fns.size() == 1);
  return *cast<LetStmt>(*Run.File->Fns[0]->Body.Stmts[0]).Init;
}

/// Prints an expression with explicit parentheses.
std::string show(const Expr &E) {
  switch (E.getKind()) {
  case Expr::Kind::IntLiteral:
    return std::to_string(cast<IntLiteralExpr>(E).Value);
  case Expr::Kind::Name:
    return cast<NameExpr>(E).Name;
  case Expr::Kind::BoolLiteral:
    return cast<BoolLiteralExpr>(E).Value ? "true" : "false";
  case Expr::Kind::Unary:
    return std::string(cast<UnaryExpr>(E).Op == UnaryOp::Neg ? "-" : "!") +
           show(*cast<UnaryExpr>(E).Operand);
  case Expr::Kind::Binary: {
    const auto &B = cast<BinaryExpr>(E);
    return "(" + show(*B.LHS) + " " + getSpelling(B.Op) + " " + show(*B.RHS) +
           ")";
  }
  case Expr::Kind::Ternary: {
    const auto &T = cast<TernaryExpr>(E);
    return "(" + show(*T.Cond) + " ? " + show(*T.Then) + " : " + show(*T.Else) +
           ")";
  }
  case Expr::Kind::Call: {
    const auto &C = cast<CallExpr>(E);
    std::string S = C.Callee + "(";
    for (const ExprPtr &A : C.Args)
      S += show(*A) + ",";
    for (const NamedArg &A : C.NamedArgs)
      S += A.Name.Name + "=" + show(*A.Value) + ",";
    return S + ")";
  }
  case Expr::Kind::Index: {
    const auto &I = cast<IndexExpr>(E);
    std::string S = I.Name + "[";
    for (const ExprPtr &A : I.Indices)
      S += show(*A) + ",";
    return S + "]";
  }
  case Expr::Kind::Cast:
    return "cast<" + cast<CastExpr>(E).Target.Name + ">(" +
           show(*cast<CastExpr>(E).Operand) + ")";
  default:
    return "?";
  }
}

} // namespace

TEST_CASE("operator precedence and associativity", "[parser]") {
  FrontEndRun Run;
  CHECK(show(parseExpr(Run, "a + b * c")) == "(a + (b * c))");
  CHECK(show(parseExpr(Run, "a - b - c")) == "((a - b) - c)");
  CHECK(show(parseExpr(Run, "a < b && c || d")) == "(((a < b) && c) || d)");
  CHECK(show(parseExpr(Run, "a == b != c")) == "((a == b) != c)");
  CHECK(show(parseExpr(Run, "-a * !b")) == "(-a * !b)");
  CHECK(show(parseExpr(Run, "a ? b : c ? d : e")) == "(a ? b : (c ? d : e))");
  CHECK(show(parseExpr(Run, "a || b ? c : d")) == "((a || b) ? c : d)");
  CHECK(show(parseExpr(Run, "(a + b) % c")) == "((a + b) % c)");
  CHECK(show(parseExpr(Run, "-5 - -3")) == "(-5 - -3)");
}

TEST_CASE("calls, subscripts, casts and named arguments", "[parser]") {
  FrontEndRun Run;
  CHECK(show(parseExpr(Run, "f(x, g(y),)")) == "f(x,g(y,),)");
  CHECK(show(parseExpr(Run, "A[i, j + 1]")) == "A[i,(j + 1),]");
  CHECK(show(parseExpr(Run, "cast<f16>(x * 2)")) == "cast<f16>((x * 2))");
  CHECK(show(parseExpr(Run, "r(a, dim = 1, clear = false)")) ==
        "r(a,dim=1,clear=false,)");
}

TEST_CASE("integer literal limits", "[parser]") {
  FrontEndRun Run;
  CHECK(cast<IntLiteralExpr>(parseExpr(Run, "-9223372036854775808")).Value ==
        INT64_MIN);
  CHECK(cast<IntLiteralExpr>(parseExpr(Run, "0x7FFFFFFFFFFFFFFF")).Value ==
        INT64_MAX);
  FrontEndRun Big = parse("fn f() -> index { return 9223372036854775808; }");
  CHECK(Big.hasError("integer literal '9223372036854775808' is too large"));
  FrontEndRun Huge = parse("fn f() -> f32 { return 1e999; }");
  CHECK(Huge.hasError("floating-point literal '1e999' is out of range"));
}

TEST_CASE("a kernel header", "[parser]") {
  FrontEndRun Run =
      parse("kernel k<dtype = f16, n = 4,>(A: dtype[M, 64], s: f32,) {}");
  REQUIRE_FALSE(Run.Diags->hasErrors());
  const KernelDecl &K = *Run.File->Kernels.at(0);
  CHECK(K.Name.Name == "k");
  REQUIRE(K.ConstParams.size() == 2);
  CHECK(K.ConstParams[1].Name.Name == "n");
  REQUIRE(K.Params.size() == 2);
  CHECK(K.Params[0].IsTensor);
  CHECK(K.Params[0].Dims[0].Name == "M");
  CHECK(K.Params[0].Dims[1].Value == 64);
  CHECK_FALSE(K.Params[1].IsTensor);
}

TEST_CASE("the greater-than ends the compile-time parameters", "[parser]") {
  FrontEndRun Run = parse("kernel k<a = 2 * 3, b = (4 > 3)>() {}");
  CHECK_FALSE(Run.Diags->hasErrors());
  CHECK(Run.File->Kernels.at(0)->ConstParams.size() == 2);
}

TEST_CASE("statements", "[parser]") {
  FrontEndRun Run = parse(R"(
kernel k() {
  with kernel(1, 2, threads = 64) as (bx, by) {
    for i, j in parallel(4, 4) { x[i, j] = 1; }
    if a { } else if b { } else { }
    copy(A[0], B);
    v = 3;
    ;
  }
})");
  REQUIRE_FALSE(Run.Diags->hasErrors());
  const auto &Launch =
      cast<LaunchStmt>(*Run.File->Kernels.at(0)->Body.Stmts.at(0));
  CHECK(Launch.BlockVars.size() == 2);
  CHECK(Launch.Config->Args.size() == 2);
  CHECK(Launch.Config->NamedArgs.size() == 1);
  REQUIRE(Launch.Body.Stmts.size() == 4);
  CHECK(isa<ForStmt>(Launch.Body.Stmts[0].get()));
  const auto &If = cast<IfStmt>(*Launch.Body.Stmts[1]);
  REQUIRE(If.Else);
  CHECK(isa<IfStmt>(If.Else->Stmts.at(0).get()));
  CHECK(isa<CallStmt>(Launch.Body.Stmts[2].get()));
  CHECK(isa<AssignStmt>(Launch.Body.Stmts[3].get()));
}

TEST_CASE("statement-level recovery reports several errors", "[parser]") {
  FrontEndRun Run = parse(R"(
kernel k() {
  with kernel(1) {
    let a = ;
    let b = 1
    let c = 2;
    x + 1;
    copy(A, B;
  }
}
kernel k2() {}
)");
  std::vector<std::string> Errors = Run.errors();
  REQUIRE(Errors.size() == 4);
  CHECK(Errors[0] == "expected an expression, found ';'");
  CHECK(Errors[1] == "expected ';' after the 'let' statement, found 'let'");
  CHECK(Errors[2] == "expected '=' or '(' after 'x', found '+'");
  CHECK(Errors[3] == "expected ',' or ')' in the argument list, found ';'");
  // The second kernel still parses.
  CHECK(Run.File->Kernels.size() == 2);
}

TEST_CASE("a missing closing brace is reported once", "[parser]") {
  FrontEndRun Run = parse("kernel k() { with kernel(1) { if a {\n");
  std::vector<std::string> Errors = Run.errors();
  REQUIRE(Errors.size() == 1);
  CHECK(Errors[0] == "expected '}', found end of file");
}

TEST_CASE("top-level garbage", "[parser]") {
  FrontEndRun Run = parse("let x = 1; kernel k() {}");
  CHECK(Run.errors().at(0) == "expected 'fn' or 'kernel', found 'let'");
  CHECK(Run.File->Kernels.size() == 1);
}

TEST_CASE("empty and header-only files", "[parser]") {
  CHECK_FALSE(parse("").Diags->hasErrors());
  CHECK_FALSE(parse("  // nothing\n").Diags->hasErrors());
  CHECK(parse("kernel").hasError("expected a kernel name"));
  CHECK(parse("kernel k<a = 1>(A: f32[N])").hasError("expected '{'"));
}

TEST_CASE("deep nesting is a located fatal error", "[parser]") {
  std::string Deep = "fn f() -> index { return " + std::string(100000, '(') +
                     "1" + std::string(100000, ')') + "; }";
  FrontEndRun Run = parse(Deep);
  REQUIRE(Run.Diags->getNumErrors() == 1);
  CHECK(Run.errors()[0] == "nesting too deep (more than 200 levels)");
  CHECK(Run.Diags->getDiagnostics()[0].Loc.Line == 1);

  std::string Blocks = "kernel k() { with kernel(1) { ";
  for (int I = 0; I != 100000; ++I)
    Blocks += "if a { ";
  FrontEndRun Nested = parse(Blocks);
  CHECK(Nested.errors().at(0) == "nesting too deep (more than 200 levels)");

  std::string Unary =
      "fn f() -> index { return " + std::string(100000, '-') + "x; }";
  CHECK(parse(Unary).errors().at(0) ==
        "nesting too deep (more than 200 levels)");
}

TEST_CASE("long operator chains are bounded too", "[parser]") {
  std::string Chain = "fn f() -> index { return x";
  for (int I = 0; I != 100000; ++I)
    Chain += " + x";
  FrontEndRun Run = parse(Chain + "; }");
  CHECK(Run.errors().at(0) == "expression too deeply nested (more than 256 "
                              "levels)");
}

TEST_CASE("'as' and 'in' are contextual keywords", "[parser]") {
  FrontEndRun Run = parse("kernel k(as: f32, in: f32) {\n"
                          "  with kernel(1) as (as2) {\n"
                          "    for in in serial(4) { let as = in; }\n"
                          "  }\n}\n");
  CHECK(Run.rendered() == "");
}
