//===- SpaceExpr.h - Expressions over tuning parameters ---------*- C++ -*-===//
//
// The constraints of a tuning space (docs/tuning.md) are expressions over the
// kernel's compile-time parameters, such as
//
//   (block_M * block_K + block_K * block_N) * stages * sizeof(dtype)
//       <= 227 * 1024
//   threads % 128 == 0
//
// with C's operators and precedence (`||`, `&&`, `==` `!=`, `<` `<=` `>`
// `>=`, `+` `-`, `*` `/` `%`, unary `-` and `!`), integer, floating-point
// and boolean literals, element types (`f16`) and the functions `min`, `max`
// and `sizeof` (the bytes of an element type). An expression is parsed and
// type-checked once; evaluating it for a candidate's values can still fail on
// a division by zero or an integer overflow. Errors carry the byte offset in
// the expression's text so that the caller can point at it.
//
// Plain C++17: values are the front end's compile-time constants
// (compiler/Types.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_TUNE_SPACEEXPR_H
#define TILEC_COMPILER_TUNE_SPACEEXPR_H

#include "compiler/Types.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// A name an expression may use: a compile-time parameter and its kind.
struct ExprVariable {
  /// The parameter's name.
  std::string Name;
  /// The kind of its values.
  Constant::Kind Kind = Constant::Kind::Int;
};

/// A problem with an expression.
struct ExprError {
  /// The byte offset in the expression's text it is about.
  std::size_t Offset = 0;
  /// What is wrong, as a sentence without a trailing period.
  std::string Message;
};

/// Returns how messages name a value of kind `K`: "an integer", "a
/// floating-point number", "a boolean", "an element type".
const char *describeKind(Constant::Kind K);

/// A parsed and type-checked expression.
class SpaceExpr {
public:
  /// One node of the expression tree (defined in SpaceExpr.cpp).
  struct Node;

  /// Parses `Text`, whose names are `Variables` (by index), element types,
  /// `true`, `false` and the functions, and checks its types. Returns
  /// nullopt and sets `Error` if it is malformed or ill-typed.
  static std::optional<SpaceExpr>
  parse(std::string_view Text, const std::vector<ExprVariable> &Variables,
        ExprError &Error);

  /// Returns the kind of the expression's value.
  Constant::Kind getKind() const;

  /// Evaluates the expression with `Values[I]` for `Variables[I]` of
  /// parse() (each of the declared kind). Returns nullopt and sets `Error`
  /// on a division by zero or an integer overflow.
  std::optional<Constant> evaluate(const std::vector<Constant> &Values,
                                   ExprError &Error) const;

private:
  explicit SpaceExpr(std::shared_ptr<const Node> Root)
      : Root(std::move(Root)) {}

  std::shared_ptr<const Node> Root;
};

} // namespace tilec

#endif // TILEC_COMPILER_TUNE_SPACEEXPR_H
