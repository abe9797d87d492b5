//===- IntExprTest.cpp - Grid expression parsing and evaluation -----------===//

#include "IntExpr.h"

#include <catch2/catch.hpp>

using tilert::detail::IntExpr;
using tilert::detail::Status;

namespace {

const std::vector<std::string> Names = {"N", "K", "M"};

/// Parses and evaluates `text` with N, K, M = `values`; fails the test on any
/// error.
int64_t eval(const std::string &text, std::vector<int64_t> values = {0, 0, 0}) {
  IntExpr Expr;
  Status Parsed = IntExpr::parse(text, Names, Expr);
  INFO(text << ": " << Parsed.message());
  REQUIRE(Parsed.ok());
  int64_t Result = 0;
  Status Evaluated = Expr.evaluate(values, Result);
  INFO(Evaluated.message());
  REQUIRE(Evaluated.ok());
  return Result;
}

std::string parseError(const std::string &text) {
  IntExpr Expr;
  Status Parsed = IntExpr::parse(text, Names, Expr);
  INFO(text);
  REQUIRE_FALSE(Parsed.ok());
  CHECK(Parsed.code() == TILERT_ERROR_INVALID_ARGUMENT);
  return Parsed.message();
}

std::string evalError(const std::string &text, std::vector<int64_t> values) {
  IntExpr Expr;
  REQUIRE(IntExpr::parse(text, Names, Expr).ok());
  int64_t Result = 0;
  Status Evaluated = Expr.evaluate(values, Result);
  INFO(text);
  REQUIRE_FALSE(Evaluated.ok());
  CHECK(Evaluated.code() == TILERT_ERROR_INVALID_ARGUMENT);
  return Evaluated.message();
}

std::string nested(const std::string &open, const std::string &core,
                   const std::string &close, int depth) {
  std::string Text;
  for (int I = 0; I < depth; ++I)
    Text += open;
  Text += core;
  for (int I = 0; I < depth; ++I)
    Text += close;
  return Text;
}

} // namespace

TEST_CASE("operators follow the grammar's precedence", "[intexpr]") {
  CHECK(eval("2+3*4") == 14);
  CHECK(eval("(2+3)*4") == 20);
  CHECK(eval("10-4-3") == 3);
  CHECK(eval("100/10/5") == 2);
  CHECK(eval("2*3%4") == 2);
  CHECK(eval("7 % 4 + 1") == 4);
  CHECK(eval(" ( N + 1 ) * 2 ", {5, 0, 0}) == 12);
  CHECK(eval("42") == 42);
  CHECK(eval("9223372036854775807") == INT64_MAX);
}

TEST_CASE("division and modulo truncate toward zero", "[intexpr]") {
  CHECK(eval("(0-7)/2") == -3);
  CHECK(eval("7/(0-2)") == -3);
  CHECK(eval("(0-7)%2") == -1);
}

TEST_CASE("ceildiv rounds toward positive infinity", "[intexpr]") {
  CHECK(eval("ceildiv(1000, 256)") == 4);
  CHECK(eval("ceildiv(1024, 256)") == 4);
  CHECK(eval("ceildiv(1025, 256)") == 5);
  CHECK(eval("ceildiv(0, 5)") == 0);
  CHECK(eval("ceildiv(0-7, 2)") == -3);
  CHECK(eval("ceildiv(7, 0-2)") == -3);
  CHECK(eval("ceildiv(0-7, 0-2)") == 4);
  CHECK(eval("ceildiv(N, 1024)", {268435456, 0, 0}) == 262144);
  CHECK(eval("ceildiv(N, 1024)", {INT64_MAX, 0, 0}) == INT64_MAX / 1024 + 1);
}

TEST_CASE("min, max and dims evaluate", "[intexpr]") {
  CHECK(eval("min(N, K)", {3, 9, 0}) == 3);
  CHECK(eval("max(N, K)", {3, 9, 0}) == 9);
  CHECK(eval("max(min(N, K), M) * 2", {3, 9, 7}) == 14);
  CHECK(eval("ceildiv(M * K, min(N, 64))", {5, 3, 128}) == 77);
  IntExpr Expr;
  REQUIRE(IntExpr::parse("M + N * N", Names, Expr).ok());
  CHECK(Expr.usedNames() == std::vector<size_t>{0, 2});
  CHECK(Expr.text() == "M + N * N");
}

TEST_CASE("a name followed by '(' that is not a function is an error",
          "[intexpr]") {
  CHECK_THAT(parseError("N(2)"), Catch::Contains("unknown function 'N'") &&
                                     Catch::Contains("column 1"));
  CHECK_THAT(parseError("floor(N, 2)"), Catch::Contains("unknown function"));
}

TEST_CASE("division by zero is an evaluation error", "[intexpr]") {
  CHECK_THAT(evalError("N / K", {5, 0, 0}),
             Catch::Contains("division by zero"));
  CHECK_THAT(evalError("N % K", {5, 0, 0}),
             Catch::Contains("division by zero"));
  CHECK_THAT(evalError("ceildiv(N, K)", {5, 0, 0}),
             Catch::Contains("division by zero"));
}

TEST_CASE("64-bit overflow is an evaluation error", "[intexpr]") {
  CHECK_THAT(evalError("N * N", {int64_t(1) << 32, 0, 0}),
             Catch::Contains("overflow"));
  CHECK_THAT(evalError("N + 1", {INT64_MAX, 0, 0}),
             Catch::Contains("overflow"));
  CHECK_THAT(evalError("0 - N - 2", {INT64_MAX, 0, 0}),
             Catch::Contains("overflow"));
  CHECK_THAT(evalError("(0 - N - 1) / (0 - 1)", {INT64_MAX, 0, 0}),
             Catch::Contains("overflow"));
  CHECK_THAT(evalError("ceildiv(0 - N - 1, 0 - 1)", {INT64_MAX, 0, 0}),
             Catch::Contains("overflow"));
  CHECK(eval("(0 - N - 1) % (0 - 1)", {INT64_MAX, 0, 0}) == 0);
  CHECK_THAT(parseError("99999999999999999999"),
             Catch::Contains("does not fit in a signed 64-bit integer"));
  CHECK_THAT(parseError("9223372036854775808"),
             Catch::Contains("does not fit"));
}

TEST_CASE("nesting depth is bounded without exhausting the stack",
          "[intexpr]") {
  // The top-level expression is depth 1, each parenthesis one more.
  CHECK(eval(nested("(", "N", ")", IntExpr::MaxDepth - 1), {7, 0, 0}) == 7);
  CHECK_THAT(parseError(nested("(", "N", ")", IntExpr::MaxDepth)),
             Catch::Contains("nested more than 64 levels"));
  CHECK_THAT(parseError(nested("(", "1", ")", 1000000)),
             Catch::Contains("nested more than 64 levels"));
  CHECK_THAT(parseError(nested("min(1, ", "1", ")", 1000000)),
             Catch::Contains("nested more than 64 levels"));
  CHECK_THAT(parseError(nested("(", "", "", 1000000)),
             Catch::Contains("nested more than 64 levels"));
  // Deepest accepted function nesting still fits the evaluation stack.
  CHECK(eval(nested("max(N, ", "1", ")", IntExpr::MaxDepth - 1), {3, 0, 0}) ==
        3);
  // Three pending operands per level: the most the evaluator must hold.
  CHECK(eval(nested("N + N * max(N, ", "N", ")", IntExpr::MaxDepth - 1),
             {1, 0, 0}) == IntExpr::MaxDepth);
}

TEST_CASE("long flat expressions need no recursion", "[intexpr]") {
  std::string Text = "1";
  for (int I = 0; I < 100000; ++I)
    Text += "+1";
  CHECK(eval(Text) == 100001);
}

TEST_CASE("garbage is rejected with a column", "[intexpr]") {
  CHECK_THAT(parseError(""), Catch::Contains("empty expression"));
  CHECK_THAT(parseError("   "), Catch::Contains("empty expression"));
  CHECK_THAT(parseError("N +"), Catch::Contains("expression ended"));
  CHECK_THAT(parseError("+N"), Catch::Contains("column 1"));
  CHECK_THAT(parseError("N N"), Catch::Contains("unexpected 'N' at column 3"));
  CHECK_THAT(parseError("3N"), Catch::Contains("after a number"));
  CHECK_THAT(parseError("ceildiv(N)"), Catch::Contains("expected ','"));
  CHECK_THAT(parseError("ceildiv N"),
             Catch::Contains("unknown dimension 'ceildiv'"));
  CHECK_THAT(parseError("max(1, 2, 3)"), Catch::Contains("expected ')'"));
  CHECK_THAT(parseError("N $ 2"),
             Catch::Contains("unexpected '$' at column 3"));
  CHECK_THAT(parseError(")"), Catch::Contains("found ')'"));
  CHECK_THAT(parseError("(N"), Catch::Contains("expected ')'"));
  CHECK_THAT(parseError("-1"), Catch::Contains("found '-'"));
  CHECK_THAT(parseError("1.5"), Catch::Contains("unexpected '.'"));
  CHECK_THAT(parseError("Q * 2"),
             Catch::Contains("unknown dimension 'Q' (known: N, K, M)") &&
                 Catch::Contains("column 1"));
  CHECK_THAT(parseError(std::string("N\0+1", 4)), Catch::Contains("column 2"));
}
