//===- GridExprTest.cpp - Printing grid expressions -----------------------===//

#include "codegen/GridExpr.h"

#include <catch2/catch.hpp>

using tilec::GridExpr;
using Kind = GridExpr::Kind;

namespace {
GridExpr name(const char *n) { return GridExpr::name(n); }
GridExpr num(int64_t v) { return GridExpr::integer(v); }
GridExpr bin(Kind kind, const GridExpr &a, const GridExpr &b) {
  return GridExpr::binary(kind, a, b);
}
} // namespace

TEST_CASE("atoms and calls", "[grid]") {
  CHECK(num(1).str() == "1");
  CHECK(name("N").str() == "N");
  CHECK(bin(Kind::CeilDiv, name("N"), num(1024)).str() == "ceildiv(N, 1024)");
  CHECK(bin(Kind::Min, name("M"), bin(Kind::Add, name("N"), num(1))).str() ==
        "min(M, N + 1)");
  CHECK(bin(Kind::Max, name("M"), name("N")).str() == "max(M, N)");
}

TEST_CASE("precedence and associativity", "[grid]") {
  GridExpr n = name("N"), m = name("M");
  // (N + 1023) / 1024 keeps its parentheses.
  CHECK(bin(Kind::Div, bin(Kind::Add, n, num(1023)), num(1024)).str() ==
        "(N + 1023) / 1024");
  // Products bind tighter than sums.
  CHECK(bin(Kind::Add, n, bin(Kind::Mul, m, num(2))).str() == "N + M * 2");
  CHECK(bin(Kind::Mul, bin(Kind::Add, n, m), num(2)).str() == "(N + M) * 2");
  // Right operands of -, / and % keep parentheses at equal strength.
  CHECK(bin(Kind::Sub, n, bin(Kind::Sub, m, num(1))).str() == "N - (M - 1)");
  CHECK(bin(Kind::Sub, bin(Kind::Sub, n, m), num(1)).str() == "N - M - 1");
  CHECK(bin(Kind::Add, n, bin(Kind::Sub, m, num(1))).str() == "N + M - 1");
  CHECK(bin(Kind::Div, n, bin(Kind::Mul, m, num(2))).str() == "N / (M * 2)");
  CHECK(bin(Kind::Rem, n, bin(Kind::Rem, m, num(7))).str() == "N % (M % 7)");
  // Truncating division does not associate with multiplication.
  CHECK(bin(Kind::Mul, n, bin(Kind::Div, m, num(2))).str() == "N * (M / 2)");
  CHECK(bin(Kind::Mul, n, bin(Kind::Mul, m, num(2))).str() == "N * M * 2");
  CHECK(bin(Kind::Div, bin(Kind::Mul, n, m), num(2)).str() == "N * M / 2");
}

TEST_CASE("literal folding", "[grid]") {
  CHECK(bin(Kind::CeilDiv, num(1000), num(128)).str() == "8");
  CHECK(bin(Kind::Mul, num(3), num(-4)).str() == "(0 - 12)");
  CHECK(bin(Kind::Div, num(-7), num(2)).str() == "(0 - 3)");
  CHECK(bin(Kind::Rem, num(-7), num(2)).str() == "(0 - 1)");
  CHECK(bin(Kind::CeilDiv, num(-7), num(2)).str() == "(0 - 3)");
  CHECK(bin(Kind::Min, num(3), num(9)).asInteger() == 3);
  // Undefined results stay symbolic.
  CHECK(bin(Kind::Div, num(1), num(0)).str() == "1 / 0");
  CHECK(bin(Kind::Add, num(INT64_MAX), num(1)).str() ==
        "9223372036854775807 + 1");
}

TEST_CASE("negative literals in sums", "[grid]") {
  CHECK(bin(Kind::Add, name("N"), num(-1)).str() == "N - 1");
  CHECK(bin(Kind::Sub, name("N"), num(-1)).str() == "N + 1");
  CHECK(bin(Kind::Mul, name("N"), num(-1)).str() == "N * (0 - 1)");
}
