//===- GridExpr.cpp - Launch grid extents as expressions over dims --------===//

#include "codegen/GridExpr.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>

using namespace tilec;

struct GridExpr::Node {
  Kind kind;
  int64_t value = 0;
  std::string name;
  std::shared_ptr<const Node> lhs, rhs;
};

GridExpr::GridExpr(std::shared_ptr<const Node> node) : node(std::move(node)) {}

GridExpr GridExpr::integer(int64_t value) {
  auto node = std::make_shared<Node>();
  node->kind = Kind::Int;
  node->value = value;
  return GridExpr(std::move(node));
}

GridExpr GridExpr::name(llvm::StringRef name) {
  auto node = std::make_shared<Node>();
  node->kind = Kind::Name;
  node->name = name.str();
  return GridExpr(std::move(node));
}

namespace {
/// Evaluates `kind` on two literals; nullopt when undefined (overflow,
/// division by zero).
std::optional<int64_t> fold(GridExpr::Kind kind, int64_t a, int64_t b) {
  int64_t result;
  switch (kind) {
  case GridExpr::Kind::Add:
    if (llvm::AddOverflow(a, b, result))
      return std::nullopt;
    return result;
  case GridExpr::Kind::Sub:
    if (llvm::SubOverflow(a, b, result))
      return std::nullopt;
    return result;
  case GridExpr::Kind::Mul:
    if (llvm::MulOverflow(a, b, result))
      return std::nullopt;
    return result;
  case GridExpr::Kind::Div:
  case GridExpr::Kind::Rem:
  case GridExpr::Kind::CeilDiv:
    if (b == 0 || (a == INT64_MIN && b == -1))
      return std::nullopt;
    if (kind == GridExpr::Kind::Div)
      return a / b;
    if (kind == GridExpr::Kind::Rem)
      return a % b;
    return llvm::divideCeilSigned(a, b);
  case GridExpr::Kind::Min:
    return std::min(a, b);
  case GridExpr::Kind::Max:
    return std::max(a, b);
  case GridExpr::Kind::Int:
  case GridExpr::Kind::Name:
    break;
  }
  return std::nullopt;
}

/// Binding strength: sums bind weakest, products next, atoms (literals,
/// names, calls) strongest.
int precedence(GridExpr::Kind kind) {
  switch (kind) {
  case GridExpr::Kind::Add:
  case GridExpr::Kind::Sub:
    return 1;
  case GridExpr::Kind::Mul:
  case GridExpr::Kind::Div:
  case GridExpr::Kind::Rem:
    return 2;
  default:
    return 3;
  }
}

const char *infixSymbol(GridExpr::Kind kind) {
  switch (kind) {
  case GridExpr::Kind::Add:
    return " + ";
  case GridExpr::Kind::Sub:
    return " - ";
  case GridExpr::Kind::Mul:
    return " * ";
  case GridExpr::Kind::Div:
    return " / ";
  case GridExpr::Kind::Rem:
    return " % ";
  default:
    return nullptr;
  }
}

const char *callName(GridExpr::Kind kind) {
  switch (kind) {
  case GridExpr::Kind::CeilDiv:
    return "ceildiv";
  case GridExpr::Kind::Min:
    return "min";
  case GridExpr::Kind::Max:
    return "max";
  default:
    return nullptr;
  }
}
} // namespace

GridExpr GridExpr::binary(Kind kind, const GridExpr &lhs, const GridExpr &rhs) {
  assert(kind != Kind::Int && kind != Kind::Name && "not a binary kind");
  std::optional<int64_t> a = lhs.asInteger(), b = rhs.asInteger();
  if (a && b)
    if (std::optional<int64_t> folded = fold(kind, *a, *b))
      return integer(*folded);
  // `x + (-c)` prints as `x - c`, and `x - (-c)` as `x + c`.
  if ((kind == Kind::Add || kind == Kind::Sub) && b && *b < 0 &&
      *b != INT64_MIN)
    return binary(kind == Kind::Add ? Kind::Sub : Kind::Add, lhs, integer(-*b));
  auto node = std::make_shared<Node>();
  node->kind = kind;
  node->lhs = lhs.node;
  node->rhs = rhs.node;
  return GridExpr(std::move(node));
}

GridExpr::Kind GridExpr::kind() const { return node->kind; }

std::optional<int64_t> GridExpr::asInteger() const {
  if (node->kind != Kind::Int)
    return std::nullopt;
  return node->value;
}

std::string GridExpr::str() const {
  std::string out;
  print(out);
  return out;
}

void GridExpr::print(std::string &out) const {
  switch (node->kind) {
  case Kind::Int:
    if (node->value < 0)
      out += "(0 - " + std::to_string(node->value).substr(1) + ")";
    else
      out += std::to_string(node->value);
    return;
  case Kind::Name:
    out += node->name;
    return;
  default:
    break;
  }

  GridExpr lhs(node->lhs), rhs(node->rhs);
  if (const char *call = callName(node->kind)) {
    out += call;
    out += '(';
    lhs.print(out);
    out += ", ";
    rhs.print(out);
    out += ')';
    return;
  }

  // Left operands need parentheses only when they bind weaker (all operators
  // are left-associative). Right operands also need them at equal strength,
  // except under the associative `+` and for a product under `*`
  // (`a * (b / c)` differs from `a * b / c` with truncating division).
  int prec = precedence(node->kind);
  bool lhsParens = precedence(lhs.kind()) < prec;
  int rhsPrec = precedence(rhs.kind());
  bool rhsParens = rhsPrec < prec;
  if (rhsPrec == prec)
    rhsParens = !(node->kind == Kind::Add ||
                  (node->kind == Kind::Mul && rhs.kind() == Kind::Mul));
  auto printOperand = [&](const GridExpr &operand, bool parens) {
    if (parens)
      out += '(';
    operand.print(out);
    if (parens)
      out += ')';
  };
  printOperand(lhs, lhsParens);
  out += infixSymbol(node->kind);
  printOperand(rhs, rhsParens);
}
