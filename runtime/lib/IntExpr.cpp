//===- IntExpr.cpp - Integer expressions over named dims --------*- C++ -*-===//

#include "IntExpr.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace tilert::detail {

/// Recursive-descent parser emitting postfix code; recursion is bounded by
/// IntExpr::MaxDepth.
class IntExprParser {
public:
  IntExprParser(std::string_view text, const std::vector<std::string> &names,
                IntExpr &out)
      : Text(text), Names(names), Out(out) {}

  Status run() {
    skipSpace();
    if (Pos == Text.size())
      return makeError(TILERT_ERROR_INVALID_ARGUMENT, "empty expression");
    if (parseExpr()) {
      skipSpace();
      if (Pos != Text.size())
        fail(strCat("unexpected '", Text[Pos], "'"));
    }
    if (!Error.empty())
      return Status(TILERT_ERROR_INVALID_ARGUMENT, Error);
    std::sort(Out.UsedNames.begin(), Out.UsedNames.end());
    Out.UsedNames.erase(std::unique(Out.UsedNames.begin(), Out.UsedNames.end()),
                        Out.UsedNames.end());
    return Status::success();
  }

private:
  using OpKind = IntExpr::OpKind;

  bool fail(const std::string &message) {
    if (Error.empty())
      Error = strCat(message, " at column ", Pos + 1);
    return false;
  }

  void skipSpace() {
    while (Pos < Text.size() &&
           std::isspace(static_cast<unsigned char>(Text[Pos])))
      ++Pos;
  }

  bool consume(char c) {
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == c) {
      ++Pos;
      return true;
    }
    return false;
  }

  bool expect(char c) {
    if (consume(c))
      return true;
    if (Pos == Text.size())
      return fail(strCat("expected '", c, "' but the expression ended"));
    return fail(strCat("expected '", c, "' but found '", Text[Pos], "'"));
  }

  void emit(OpKind kind, int64_t value = 0) {
    Out.Code.push_back({kind, value});
    switch (kind) {
    case OpKind::Constant:
    case OpKind::Name:
      ++StackSize;
      break;
    default:
      --StackSize; // Binary: pops two, pushes one.
      break;
    }
    Out.MaxStack = std::max(Out.MaxStack, StackSize);
  }

  // expr := term (("+"|"-") term)*
  bool parseExpr() {
    if (++Depth > IntExpr::MaxDepth)
      return fail(strCat("expression nested more than ", IntExpr::MaxDepth,
                         " levels deep"));
    if (!parseTerm())
      return false;
    while (true) {
      if (consume('+')) {
        if (!parseTerm())
          return false;
        emit(OpKind::Add);
      } else if (consume('-')) {
        if (!parseTerm())
          return false;
        emit(OpKind::Sub);
      } else {
        break;
      }
    }
    --Depth;
    return true;
  }

  // term := factor (("*"|"/"|"%") factor)*
  bool parseTerm() {
    if (!parseFactor())
      return false;
    while (true) {
      OpKind Kind;
      if (consume('*'))
        Kind = OpKind::Mul;
      else if (consume('/'))
        Kind = OpKind::Div;
      else if (consume('%'))
        Kind = OpKind::Mod;
      else
        return true;
      if (!parseFactor())
        return false;
      emit(Kind);
    }
  }

  // factor := INT | NAME | "(" expr ")" | ("ceildiv"|"min"|"max") "(" expr ","
  // expr ")"
  bool parseFactor() {
    skipSpace();
    if (Pos == Text.size())
      return fail("expected a number, a dimension name or '(' but the "
                  "expression ended");
    char C = Text[Pos];
    if (std::isdigit(static_cast<unsigned char>(C)))
      return parseInteger();
    if (std::isalpha(static_cast<unsigned char>(C)) || C == '_')
      return parseNameOrCall();
    if (consume('('))
      return parseExpr() && expect(')');
    return fail(strCat("expected a number, a dimension name or '(' but found '",
                       C, "'"));
  }

  bool parseInteger() {
    size_t Start = Pos;
    int64_t Value = 0;
    bool Overflow = false;
    while (Pos < Text.size() &&
           std::isdigit(static_cast<unsigned char>(Text[Pos]))) {
      Overflow |= __builtin_mul_overflow(Value, 10, &Value);
      Overflow |= __builtin_add_overflow(Value, Text[Pos] - '0', &Value);
      ++Pos;
    }
    if (Pos < Text.size() &&
        (std::isalpha(static_cast<unsigned char>(Text[Pos])) ||
         Text[Pos] == '_'))
      return fail(strCat("unexpected '", Text[Pos], "' after a number"));
    if (Overflow) {
      std::string Literal(Text.substr(Start, Pos - Start));
      Pos = Start;
      return fail(strCat("integer literal ", Literal,
                         " does not fit in a signed 64-bit integer"));
    }
    emit(OpKind::Constant, Value);
    return true;
  }

  bool parseNameOrCall() {
    size_t Start = Pos;
    while (Pos < Text.size() &&
           (std::isalnum(static_cast<unsigned char>(Text[Pos])) ||
            Text[Pos] == '_'))
      ++Pos;
    std::string_view Name = Text.substr(Start, Pos - Start);
    size_t AfterName = Pos;
    skipSpace();
    bool IsCall = Pos < Text.size() && Text[Pos] == '(';
    if (IsCall && (Name == "ceildiv" || Name == "min" || Name == "max")) {
      ++Pos;
      if (!parseExpr() || !expect(',') || !parseExpr() || !expect(')'))
        return false;
      emit(Name == "ceildiv" ? OpKind::CeilDiv
           : Name == "min"   ? OpKind::Min
                             : OpKind::Max);
      return true;
    }
    if (IsCall) {
      Pos = Start;
      return fail(
          strCat("unknown function '", Name, "' (known: ceildiv, min, max)"));
    }
    Pos = AfterName;
    auto It = std::find(Names.begin(), Names.end(), Name);
    if (It == Names.end()) {
      Pos = Start;
      std::string Known = joinNames(Names);
      return fail(strCat("unknown dimension '", Name,
                         "' (known: ", Known.empty() ? "none" : Known, ")"));
    }
    size_t Index = static_cast<size_t>(It - Names.begin());
    Out.UsedNames.push_back(Index);
    emit(OpKind::Name, static_cast<int64_t>(Index));
    return true;
  }

  std::string_view Text;
  const std::vector<std::string> &Names;
  IntExpr &Out;
  size_t Pos = 0;
  int Depth = 0;
  size_t StackSize = 0;
  std::string Error;
};

Status IntExpr::parse(std::string_view text,
                      const std::vector<std::string> &names, IntExpr &out) {
  IntExpr Result;
  Result.Text = std::string(text);
  TILERT_TRY(IntExprParser(text, names, Result).run());
  out = std::move(Result);
  return Status::success();
}

namespace {

/// The largest evaluation stack any parseable expression needs: at most three
/// pending operands per nesting level.
constexpr size_t StackCapacity = 3 * IntExpr::MaxDepth + 3;

// The errors, out of line: grids are evaluated on every launch.
[[gnu::cold]] Status overflow() {
  return makeError(TILERT_ERROR_INVALID_ARGUMENT, "integer overflow");
}

[[gnu::cold]] Status divisionByZero() {
  return makeError(TILERT_ERROR_INVALID_ARGUMENT, "division by zero");
}

[[gnu::cold]] Status unparsed() {
  return makeError(TILERT_ERROR_INTERNAL, "evaluating an unparsed expression");
}

[[gnu::cold]] Status missingValue(size_t index) {
  return makeError(TILERT_ERROR_INTERNAL, "no value for name #", index);
}

} // namespace

Status IntExpr::evaluate(const std::vector<int64_t> &values,
                         int64_t &result) const {
  if (Code.empty() || MaxStack > StackCapacity)
    return unparsed();
  std::array<int64_t, StackCapacity> Stack;
  size_t Size = 0;
  for (const Op &Operation : Code) {
    if (Operation.Kind == OpKind::Constant) {
      Stack[Size++] = Operation.Value;
      continue;
    }
    if (Operation.Kind == OpKind::Name) {
      size_t Index = static_cast<size_t>(Operation.Value);
      if (Index >= values.size())
        return missingValue(Index);
      Stack[Size++] = values[Index];
      continue;
    }
    int64_t Rhs = Stack[--Size];
    int64_t &Lhs = Stack[Size - 1];
    switch (Operation.Kind) {
    case OpKind::Add:
      if (__builtin_add_overflow(Lhs, Rhs, &Lhs))
        return overflow();
      break;
    case OpKind::Sub:
      if (__builtin_sub_overflow(Lhs, Rhs, &Lhs))
        return overflow();
      break;
    case OpKind::Mul:
      if (__builtin_mul_overflow(Lhs, Rhs, &Lhs))
        return overflow();
      break;
    case OpKind::Div:
    case OpKind::Mod:
    case OpKind::CeilDiv: {
      if (Rhs == 0)
        return divisionByZero();
      if (Lhs == INT64_MIN && Rhs == -1) {
        if (Operation.Kind != OpKind::Mod)
          return overflow();
        Lhs = 0;
        break;
      }
      int64_t Quotient = Lhs / Rhs;
      int64_t Remainder = Lhs % Rhs;
      if (Operation.Kind == OpKind::Mod)
        Lhs = Remainder;
      else if (Operation.Kind == OpKind::Div)
        Lhs = Quotient;
      else // Round toward +infinity: exact for every sign combination.
        Lhs = Quotient + (Remainder != 0 && ((Lhs < 0) == (Rhs < 0)) ? 1 : 0);
      break;
    }
    case OpKind::Min:
      Lhs = std::min(Lhs, Rhs);
      break;
    case OpKind::Max:
      Lhs = std::max(Lhs, Rhs);
      break;
    case OpKind::Constant:
    case OpKind::Name:
      break;
    }
  }
  result = Stack[0];
  return Status::success();
}

} // namespace tilert::detail
