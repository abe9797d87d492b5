//===- SpaceExprTest.cpp - Expressions over a tuning space's parameters ---===//

#include "compiler/Tune/SpaceExpr.h"

#include <catch2/catch.hpp>

using namespace tilec;

namespace {

/// The variables of the tests: a GEMM's parameters.
const std::vector<ExprVariable> Variables = {
    {"dtype", Constant::Kind::Type},  {"block_M", Constant::Kind::Int},
    {"block_N", Constant::Kind::Int}, {"block_K", Constant::Kind::Int},
    {"stages", Constant::Kind::Int},  {"threads", Constant::Kind::Int},
    {"scale", Constant::Kind::Float}, {"swizzle", Constant::Kind::Bool},
};

/// Their values: f16, 128 x 256 x 64 tiles, 3 stages, 256 threads.
const std::vector<Constant> Values = {
    Constant::getType(ScalarKind::F16),
    Constant::getInt(128),
    Constant::getInt(256),
    Constant::getInt(64),
    Constant::getInt(3),
    Constant::getInt(256),
    Constant::getFloat(0.5),
    Constant::getBool(true),
};

/// Parses and evaluates `Text`; fails the test on an error.
Constant eval(const std::string &Text,
              const std::vector<Constant> &With = Values) {
  ExprError Error;
  std::optional<SpaceExpr> Expr = SpaceExpr::parse(Text, Variables, Error);
  INFO(Text << ": " << Error.Message);
  REQUIRE(Expr);
  std::optional<Constant> Value = Expr->evaluate(With, Error);
  INFO(Text << ": " << Error.Message);
  REQUIRE(Value);
  CHECK(Value->K == Expr->getKind());
  return *Value;
}

/// Returns the error parsing `Text` gives.
ExprError parseError(const std::string &Text) {
  ExprError Error;
  std::optional<SpaceExpr> Expr = SpaceExpr::parse(Text, Variables, Error);
  INFO(Text);
  CHECK(!Expr);
  return Error;
}

/// Returns the error evaluating `Text` gives.
ExprError evalError(const std::string &Text) {
  ExprError Error;
  std::optional<SpaceExpr> Expr = SpaceExpr::parse(Text, Variables, Error);
  INFO(Text << ": " << Error.Message);
  REQUIRE(Expr);
  CHECK(!Expr->evaluate(Values, Error));
  return Error;
}

} // namespace

TEST_CASE("integer arithmetic with C's precedence", "[space-expr]") {
  CHECK(eval("1 + 2 * 3").Int == 7);
  CHECK(eval("(1 + 2) * 3").Int == 9);
  CHECK(eval("10 - 4 - 3").Int == 3);
  CHECK(eval("7 / 2").Int == 3);
  CHECK(eval("-7 / 2").Int == -3);
  CHECK(eval("-7 % 3").Int == -1);
  CHECK(eval("--4").Int == 4);
  CHECK(eval("(block_M * block_K + block_K * block_N) * stages * 2").Int ==
        (128 * 64 + 64 * 256) * 3 * 2);
  CHECK(eval("  block_M\t*\nblock_N ").Int == 128 * 256);
}

TEST_CASE("comparisons and logic give booleans", "[space-expr]") {
  CHECK(eval("threads % 128 == 0").Bool);
  CHECK_FALSE(eval("threads % 96 == 0").Bool);
  CHECK(eval("(block_M * block_K + block_K * block_N) * stages * "
             "sizeof(dtype) <= 227 * 1024")
            .Bool);
  CHECK(eval("block_M < block_N && block_N >= 256").Bool);
  CHECK(eval("block_M > 128 || block_K != 32").Bool);
  CHECK_FALSE(eval("!(block_M == 128)").Bool);
  CHECK(eval("swizzle == true").Bool);
  CHECK(eval("!swizzle || block_M == 128").Bool);
  // && binds tighter than ||.
  CHECK(eval("true || false && false").Bool);
  CHECK(eval("1 < 2 == true").Bool);
}

TEST_CASE("element types compare and have sizes", "[space-expr]") {
  CHECK(eval("dtype == f16").Bool);
  CHECK_FALSE(eval("dtype != f16").Bool);
  CHECK(eval("sizeof(dtype)").Int == 2);
  CHECK(eval("sizeof(f32) * sizeof(bf16)").Int == 8);
  CHECK(eval("sizeof(f64)").Int == 8);
}

TEST_CASE("floating-point numbers mix with integers", "[space-expr]") {
  CHECK(eval("scale * 4").Float == 2.0);
  CHECK(eval("1.5 + 1").K == Constant::Kind::Float);
  CHECK(eval("block_M / 3.0").Float == Approx(128 / 3.0));
  CHECK(eval("scale < 1").Bool);
  CHECK(eval("2 == 2.0").Bool);
  CHECK(eval("1e3").Float == 1000.0);
  CHECK(eval("2.5e-1").Float == 0.25);
  CHECK(eval(".5 == scale").Bool);
}

TEST_CASE("min and max", "[space-expr]") {
  CHECK(eval("min(block_M, block_N)").Int == 128);
  CHECK(eval("max(block_M, block_N)").Int == 256);
  CHECK(eval("max(1, scale)").Float == 1.0);
  CHECK(eval("max(1, scale)").K == Constant::Kind::Float);
  CHECK(eval("min(max(1, 2), 3) * 2").Int == 4);
}

TEST_CASE("&& and || stop at the first operand that decides", "[space-expr]") {
  std::vector<Constant> ZeroK = Values;
  ZeroK[3] = Constant::getInt(0);
  CHECK_FALSE(eval("block_K != 0 && block_M / block_K > 1", ZeroK).Bool);
  CHECK(eval("block_K == 0 || block_M / block_K > 1", ZeroK).Bool);
}

TEST_CASE("syntax errors point at the offending character", "[space-expr]") {
  ExprError E = parseError("block_M * ");
  CHECK(E.Offset == 10);
  CHECK(E.Message == "expected a value at the end of the expression");
  E = parseError("(block_M + 1");
  CHECK(E.Offset == 12);
  CHECK(E.Message == "missing ')' to close the '(' at offset 0");
  E = parseError("block_M + 1)");
  CHECK(E.Offset == 11);
  CHECK(E.Message == "unexpected ')' after the expression");
  E = parseError("block_M = 128");
  CHECK(E.Offset == 8);
  CHECK(E.Message == "'=' is not a comparison; write '=='");
  E = parseError("swizzle & true");
  CHECK(E.Offset == 8);
  E = parseError("block_M # 2");
  CHECK(E.Offset == 8);
  CHECK(E.Message == "unexpected '#' after the expression");
  E = parseError("12abc");
  CHECK(E.Offset == 0);
  CHECK(E.Message == "malformed number '12abc'");
  E = parseError("1.2.3");
  CHECK(E.Message == "malformed number '1.2.3'");
  E = parseError("99999999999999999999");
  CHECK(E.Message == "integer '99999999999999999999' does not fit in 64 bits");
  E = parseError("");
  CHECK(E.Message == "empty expression");
  E = parseError("min(1, 2");
  CHECK(E.Message == "missing ')' after the arguments of 'min'");
  E = parseError("min(1 2)");
  CHECK(E.Offset == 6);
  CHECK(E.Message == "expected ',' or ')', found '2'");
}

TEST_CASE("unknown names are errors, with suggestions", "[space-expr]") {
  ExprError E = parseError("2 * block_m");
  CHECK(E.Offset == 4);
  CHECK(E.Message == "unknown name 'block_m'; did you mean 'block_M'?");
  E = parseError("num_warps == 4");
  CHECK(E.Offset == 0);
  CHECK(E.Message == "unknown name 'num_warps' (not a compile-time parameter "
                     "of the kernel, an element type or a function)");
  E = parseError("sizof(dtype)");
  CHECK(E.Message == "unknown name 'sizof'; did you mean 'sizeof'?");
  E = parseError("min + 1");
  CHECK(E.Message == "'min' is a function: write 'min(...)'");
  E = parseError("sizeof(dtype, dtype)");
  CHECK(E.Message == "'sizeof' takes 1 argument, but 2 were given");
  E = parseError("max(1)");
  CHECK(E.Message == "'max' takes 2 arguments, but 1 was given");
}

TEST_CASE("type errors name the operand and its kind", "[space-expr]") {
  ExprError E = parseError("dtype * 2");
  CHECK(E.Offset == 0);
  CHECK(E.Message ==
        "'*' needs numbers, but its left operand is an element type");
  E = parseError("block_M + swizzle");
  CHECK(E.Offset == 10);
  CHECK(E.Message == "'+' needs numbers, but its right operand is a boolean");
  E = parseError("scale % 2");
  CHECK(E.Message == "'%' needs integers, but its left operand is a "
                     "floating-point number");
  E = parseError("block_M && swizzle");
  CHECK(E.Message == "'&&' needs booleans, but its left operand is an "
                     "integer");
  E = parseError("!block_M");
  CHECK(E.Offset == 0);
  CHECK(E.Message == "'!' needs a boolean, but its operand is an integer");
  E = parseError("-swizzle");
  CHECK(E.Message == "'-' needs a number, but its operand is a boolean");
  E = parseError("dtype == 16");
  CHECK(E.Offset == 6);
  CHECK(E.Message == "'==' compares values of one kind, but its left "
                     "operand is an element type and its right operand an "
                     "integer");
  E = parseError("dtype < f32");
  CHECK(E.Message ==
        "'<' needs numbers, but its left operand is an element type");
  E = parseError("sizeof(block_M)");
  CHECK(E.Offset == 7);
  CHECK(E.Message == "'sizeof' needs an element type, but its argument is an "
                     "integer");
  E = parseError("min(dtype, 1)");
  CHECK(E.Message ==
        "'min' needs numbers, but its first argument is an element type");
}

TEST_CASE("evaluation errors: division by zero, overflow", "[space-expr]") {
  ExprError E = evalError("block_M / (block_K - 64)");
  CHECK(E.Offset == 8);
  CHECK(E.Message == "division by zero: 128 / 0");
  E = evalError("block_M % (stages - 3)");
  CHECK(E.Message == "division by zero: 128 % 0");
  E = evalError("scale / 0");
  CHECK(E.Message == "division by zero: 0.5 / 0");
  E = evalError("9223372036854775807 + block_M");
  CHECK(E.Offset == 20);
  CHECK(E.Message == "integer overflow: 9223372036854775807 + 128");
  E = evalError("block_M * 9223372036854775807");
  CHECK(E.Message == "integer overflow: 128 * 9223372036854775807");
  E = evalError("(-9223372036854775807 - 1) / -1");
  CHECK(E.Message == "integer overflow: -9223372036854775808 / -1");
  E = evalError("-(-9223372036854775807 - 1)");
  CHECK(E.Message == "integer overflow: -(-9223372036854775808)");
}

TEST_CASE("expressions too deep to evaluate are errors", "[space-expr]") {
  ExprError E = parseError(std::string(300, '(') + "1" + std::string(300, ')'));
  CHECK(E.Offset == 200);
  CHECK(E.Message == "the expression nests more than 200 levels deep");
  E = parseError(std::string(300, '-') + "1");
  CHECK(E.Message == "the expression nests more than 200 levels deep");
  std::string Chain = "1";
  for (int I = 0; I != 300; ++I)
    Chain += " + 1";
  E = parseError(Chain);
  CHECK(E.Message ==
        "the expression is too large (more than 256 operations deep)");
  CHECK(eval(std::string(150, '(') + "1" + std::string(150, ')')).Int == 1);
}
