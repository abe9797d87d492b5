//===- GridExpr.h - Grid extents as expressions over dims -------*- C++ -*-===//
//
// The metadata gives each grid extent as an integer expression over the
// kernel's symbolic dimensions, e.g. `ceildiv(N, 1024)`, which the runtime
// evaluates before every launch. This file holds the expression tree and its
// printer for the grammar of docs/metadata.md:
//
//   expr   := term (("+"|"-") term)*
//   term   := factor (("*"|"/"|"%") factor)*
//   factor := INT | NAME | "(" expr ")"
//           | ("ceildiv"|"min"|"max") "(" expr "," expr ")"
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_GRIDEXPR_H
#define TILEC_CODEGEN_GRIDEXPR_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tilec {

/// An immutable integer expression over dimension names. Copies share nodes.
class GridExpr {
public:
  /// Node kinds; the binary ones follow signed 64-bit semantics with
  /// truncating division.
  enum class Kind { Int, Name, Add, Sub, Mul, Div, Rem, CeilDiv, Min, Max };

  /// An integer literal (negative values print as `(0 - v)`).
  static GridExpr integer(int64_t value);
  /// A dimension name.
  static GridExpr name(llvm::StringRef name);
  /// A binary node; `kind` must not be Int or Name. Folds two literals when
  /// the result is defined (no overflow, no division by zero) and turns
  /// `x + (-c)` into `x - c`.
  static GridExpr binary(Kind kind, const GridExpr &lhs, const GridExpr &rhs);

  Kind kind() const;
  /// The literal of an Int node.
  std::optional<int64_t> asInteger() const;

  /// Prints the expression in the metadata grammar with the fewest
  /// parentheses that keep its meaning.
  std::string str() const;

private:
  struct Node;
  explicit GridExpr(std::shared_ptr<const Node> node);
  void print(std::string &out) const;
  std::shared_ptr<const Node> node;
};

} // namespace tilec

#endif // TILEC_CODEGEN_GRIDEXPR_H
