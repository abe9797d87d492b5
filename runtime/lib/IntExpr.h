//===- IntExpr.h - Integer expressions over named dims ----------*- C++ -*-===//
//
// The integer expressions of the metadata's launch.grid (and tile-bench's
// --flops): `+ - * / %`, parentheses, ceildiv/min/max, integer literals and
// dim names, evaluated on signed 64-bit integers with overflow checks. The
// parser bounds the nesting depth and evaluation is iterative, so no input can
// exhaust the stack.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_INTEXPR_H
#define TILERT_LIB_INTEXPR_H

#include "Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilert::detail {

/// A parsed integer expression, stored as postfix code.
class IntExpr {
public:
  /// Deepest nesting of parentheses and function calls that parse() accepts.
  static constexpr int MaxDepth = 64;

  /// Parses `text` (grammar in docs/metadata.md), resolving names against
  /// `names` (a name's index in it is its index in evaluate()'s values). On
  /// error returns TILERT_ERROR_INVALID_ARGUMENT with a message that gives the
  /// 1-based column.
  static Status parse(std::string_view text,
                      const std::vector<std::string> &names, IntExpr &out);

  /// Evaluates the expression with `values[i]` for the i-th name. On division
  /// by zero or 64-bit overflow returns TILERT_ERROR_INVALID_ARGUMENT.
  Status evaluate(const std::vector<int64_t> &values, int64_t &result) const;

  /// Whether the expression is a constant; if so `value` is set to it (no
  /// evaluation needed: grid extents are often "1").
  bool isConstant(int64_t &value) const {
    if (Code.size() != 1 || Code[0].Kind != OpKind::Constant)
      return false;
    value = Code[0].Value;
    return true;
  }

  /// The source text.
  const std::string &text() const { return Text; }

  /// Indices (into the names given to parse()) of the names used, ascending.
  const std::vector<size_t> &usedNames() const { return UsedNames; }

private:
  friend class IntExprParser;

  enum class OpKind : uint8_t {
    Constant,
    Name,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    CeilDiv,
    Min,
    Max
  };
  struct Op {
    OpKind Kind;
    int64_t Value; ///< The constant, or the name's index.
  };

  std::string Text;
  std::vector<Op> Code;
  std::vector<size_t> UsedNames;
  size_t MaxStack = 0;
};

} // namespace tilert::detail

#endif // TILERT_LIB_INTEXPR_H
