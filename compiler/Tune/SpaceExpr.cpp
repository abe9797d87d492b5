//===- SpaceExpr.cpp - Expressions over a tuning space's parameters -------===//

#include "compiler/Tune/SpaceExpr.h"

#include "compiler/Limits.h"
#include "compiler/Suggestions.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

using namespace tilec;

/// An operation of the expression tree.
enum class ExprOp {
  Literal,
  Variable,
  Neg,
  Not,
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  And,
  Or,
  Min,
  Max,
  Sizeof,
};

struct SpaceExpr::Node {
  /// What the node computes.
  ExprOp Op = ExprOp::Literal;
  /// The kind of its value.
  Constant::Kind Kind = Constant::Kind::Int;
  /// Where it is: the operator, the literal, the name or the function name.
  std::size_t Offset = 0;
  /// The value of a Literal.
  Constant Value;
  /// The index of a Variable.
  std::size_t Index = 0;
  /// The operands (one or two).
  std::shared_ptr<const Node> Lhs, Rhs;
  /// The height of the tree below and including the node (1 for a leaf).
  unsigned Height = 1;
};

using Node = SpaceExpr::Node;
using NodePtr = std::shared_ptr<const Node>;

const char *tilec::describeKind(Constant::Kind K) {
  switch (K) {
  case Constant::Kind::Int:
    return "an integer";
  case Constant::Kind::Float:
    return "a floating-point number";
  case Constant::Kind::Bool:
    return "a boolean";
  case Constant::Kind::Type:
    return "an element type";
  }
  return "";
}

namespace {

bool isNumber(Constant::Kind K) {
  return K == Constant::Kind::Int || K == Constant::Kind::Float;
}

/// Returns the spelling of a binary or unary operator.
const char *getSpelling(ExprOp Op) {
  switch (Op) {
  case ExprOp::Neg:
  case ExprOp::Sub:
    return "-";
  case ExprOp::Not:
    return "!";
  case ExprOp::Add:
    return "+";
  case ExprOp::Mul:
    return "*";
  case ExprOp::Div:
    return "/";
  case ExprOp::Rem:
    return "%";
  case ExprOp::Lt:
    return "<";
  case ExprOp::Le:
    return "<=";
  case ExprOp::Gt:
    return ">";
  case ExprOp::Ge:
    return ">=";
  case ExprOp::Eq:
    return "==";
  case ExprOp::Ne:
    return "!=";
  case ExprOp::And:
    return "&&";
  case ExprOp::Or:
    return "||";
  case ExprOp::Min:
    return "min";
  case ExprOp::Max:
    return "max";
  case ExprOp::Sizeof:
    return "sizeof";
  case ExprOp::Literal:
  case ExprOp::Variable:
    break;
  }
  return "";
}

/// A recursive-descent parser that checks types as it builds the tree.
class ExprParser {
public:
  ExprParser(std::string_view Text, const std::vector<ExprVariable> &Variables,
             ExprError &Error)
      : Text(Text), Variables(Variables), Error(Error) {}

  NodePtr parse() {
    skipSpace();
    if (Pos == Text.size())
      return fail(Pos, "empty expression");
    NodePtr Root = parseBinary(0);
    if (!Root)
      return nullptr;
    if (Pos != Text.size())
      return fail(Pos, "unexpected '" + std::string(peekToken()) +
                           "' after the expression");
    return Root;
  }

private:
  /// The binary operators by precedence level, loosest first.
  struct BinaryOp {
    std::string_view Spelling;
    ExprOp Op;
  };

  NodePtr fail(std::size_t Offset, std::string Message) {
    if (!Failed) {
      Error.Offset = Offset;
      Error.Message = std::move(Message);
      Failed = true;
    }
    return nullptr;
  }

  void skipSpace() {
    while (Pos != Text.size() && (Text[Pos] == ' ' || Text[Pos] == '\t' ||
                                  Text[Pos] == '\n' || Text[Pos] == '\r'))
      ++Pos;
  }

  /// Returns the token at the position, for messages: a name, a number or
  /// one character.
  std::string_view peekToken() const {
    std::size_t End = Pos;
    while (End != Text.size() && (std::isalnum(uchar(Text[End])) ||
                                  Text[End] == '_' || Text[End] == '.'))
      ++End;
    return Text.substr(Pos, End == Pos ? 1 : End - Pos);
  }

  static unsigned char uchar(char C) { return static_cast<unsigned char>(C); }

  /// Consumes `Spelling` if the text continues with it (an operator that is
  /// not the start of a longer one).
  bool consume(std::string_view Spelling) {
    if (Text.substr(Pos, Spelling.size()) != Spelling)
      return false;
    std::size_t End = Pos + Spelling.size();
    // `<` must not take the first half of `<=`, nor `!` that of `!=`.
    if ((Spelling == "<" || Spelling == ">" || Spelling == "!") &&
        End != Text.size() && Text[End] == '=')
      return false;
    Pos = End;
    skipSpace();
    return true;
  }

  NodePtr parseBinary(unsigned Level) {
    static const std::vector<std::vector<BinaryOp>> Levels = {
        {{"||", ExprOp::Or}},
        {{"&&", ExprOp::And}},
        {{"==", ExprOp::Eq}, {"!=", ExprOp::Ne}},
        {{"<=", ExprOp::Le},
         {">=", ExprOp::Ge},
         {"<", ExprOp::Lt},
         {">", ExprOp::Gt}},
        {{"+", ExprOp::Add}, {"-", ExprOp::Sub}},
        {{"*", ExprOp::Mul}, {"/", ExprOp::Div}, {"%", ExprOp::Rem}},
    };
    if (Level == Levels.size())
      return parseUnary();
    NodePtr Lhs = parseBinary(Level + 1);
    while (Lhs) {
      checkStrayOperator();
      if (Failed)
        return nullptr;
      std::size_t OpPos = Pos;
      const BinaryOp *Found = nullptr;
      for (const BinaryOp &Candidate : Levels[Level])
        if (consume(Candidate.Spelling)) {
          Found = &Candidate;
          break;
        }
      if (!Found)
        return Lhs;
      NodePtr Rhs = parseBinary(Level + 1);
      if (!Rhs)
        return nullptr;
      Lhs = makeBinary(Found->Op, OpPos, std::move(Lhs), std::move(Rhs));
    }
    return nullptr;
  }

  /// Reports the operators the language does not have where a binary
  /// operator may follow.
  void checkStrayOperator() {
    std::string_view Rest = Text.substr(Pos);
    if (!Rest.empty() && Rest[0] == '=' && Rest.substr(0, 2) != "==")
      fail(Pos, "'=' is not a comparison; write '=='");
    else if (!Rest.empty() && Rest[0] == '&' && Rest.substr(0, 2) != "&&")
      fail(Pos, "'&' is not an operator here; write '&&' for 'and'");
    else if (!Rest.empty() && Rest[0] == '|' && Rest.substr(0, 2) != "||")
      fail(Pos, "'|' is not an operator here; write '||' for 'or'");
  }

  /// Parses a unary expression; every nested level of the expression
  /// (a parenthesis, an argument, a unary operator) comes through here.
  NodePtr parseUnary() {
    if (Depth == limits::MaxNestingDepth)
      return fail(Pos, "the expression nests more than " +
                           std::to_string(limits::MaxNestingDepth) +
                           " levels deep");
    ++Depth;
    NodePtr Result = parseUnaryOperand();
    --Depth;
    return Result;
  }

  NodePtr parseUnaryOperand() {
    std::size_t OpPos = Pos;
    if (consume("-")) {
      NodePtr Operand = parseUnary();
      if (!Operand)
        return nullptr;
      return makeUnary(ExprOp::Neg, OpPos, std::move(Operand));
    }
    if (consume("!")) {
      NodePtr Operand = parseUnary();
      if (!Operand)
        return nullptr;
      return makeUnary(ExprOp::Not, OpPos, std::move(Operand));
    }
    return parsePrimary();
  }

  NodePtr parsePrimary() {
    std::size_t Start = Pos;
    if (Pos == Text.size())
      return fail(Pos, "expected a value at the end of the expression");
    char C = Text[Pos];
    if (consume("(")) {
      NodePtr Inner = parseBinary(0);
      if (!Inner)
        return nullptr;
      if (!consume(")"))
        return fail(Pos, Pos == Text.size()
                             ? "missing ')' to close the '(' at offset " +
                                   std::to_string(Start)
                             : "expected ')', found '" +
                                   std::string(peekToken()) + "'");
      return Inner;
    }
    if (std::isdigit(uchar(C)) || C == '.')
      return parseNumber();
    if (std::isalpha(uchar(C)) || C == '_')
      return parseName();
    return fail(Pos,
                "expected a value, found '" + std::string(peekToken()) + "'");
  }

  NodePtr parseNumber() {
    std::size_t Start = Pos;
    bool IsFloat = false;
    while (Pos != Text.size()) {
      char C = Text[Pos];
      if (std::isdigit(uchar(C))) {
        ++Pos;
      } else if (C == '.') {
        IsFloat = true;
        ++Pos;
      } else if ((C == 'e' || C == 'E') && Pos + 1 != Text.size() &&
                 (std::isdigit(uchar(Text[Pos + 1])) ||
                  ((Text[Pos + 1] == '+' || Text[Pos + 1] == '-') &&
                   Pos + 2 != Text.size() &&
                   std::isdigit(uchar(Text[Pos + 2]))))) {
        IsFloat = true;
        Pos += 2;
      } else {
        break;
      }
    }
    std::string Spelling(Text.substr(Start, Pos - Start));
    if (Pos != Text.size() &&
        (std::isalpha(uchar(Text[Pos])) || Text[Pos] == '_')) {
      Pos = Start;
      return fail(Start, "malformed number '" + std::string(peekToken()) + "'");
    }
    skipSpace();
    auto Literal = std::make_shared<Node>();
    Literal->Offset = Start;
    if (IsFloat) {
      char *End = nullptr;
      errno = 0;
      double Value = std::strtod(Spelling.c_str(), &End);
      if (End != Spelling.c_str() + Spelling.size())
        return fail(Start, "malformed number '" + Spelling + "'");
      if (errno == ERANGE || !std::isfinite(Value))
        return fail(Start, "number '" + Spelling + "' is out of range");
      Literal->Kind = Constant::Kind::Float;
      Literal->Value = Constant::getFloat(Value);
      return Literal;
    }
    std::int64_t Value = 0;
    for (char Digit : Spelling)
      if (__builtin_mul_overflow(Value, 10, &Value) ||
          __builtin_add_overflow(Value, Digit - '0', &Value))
        return fail(Start,
                    "integer '" + Spelling + "' does not fit in 64 bits");
    Literal->Kind = Constant::Kind::Int;
    Literal->Value = Constant::getInt(Value);
    return Literal;
  }

  NodePtr parseName() {
    std::size_t Start = Pos;
    while (Pos != Text.size() &&
           (std::isalnum(uchar(Text[Pos])) || Text[Pos] == '_'))
      ++Pos;
    std::string Name(Text.substr(Start, Pos - Start));
    skipSpace();
    auto Leaf = std::make_shared<Node>();
    Leaf->Offset = Start;
    for (std::size_t I = 0; I != Variables.size(); ++I)
      if (Variables[I].Name == Name) {
        Leaf->Op = ExprOp::Variable;
        Leaf->Kind = Variables[I].Kind;
        Leaf->Index = I;
        return Leaf;
      }
    if (Name == "true" || Name == "false") {
      Leaf->Kind = Constant::Kind::Bool;
      Leaf->Value = Constant::getBool(Name == "true");
      return Leaf;
    }
    if (std::optional<ScalarKind> Type = parseElementType(Name)) {
      Leaf->Kind = Constant::Kind::Type;
      Leaf->Value = Constant::getType(*Type);
      return Leaf;
    }
    std::optional<ExprOp> Function;
    unsigned Arity = 2;
    if (Name == "min")
      Function = ExprOp::Min;
    else if (Name == "max")
      Function = ExprOp::Max;
    else if (Name == "sizeof") {
      Function = ExprOp::Sizeof;
      Arity = 1;
    }
    if (!Function) {
      std::vector<std::string_view> Known = {"min", "max", "sizeof", "true",
                                             "false"};
      for (const ExprVariable &Variable : Variables)
        Known.push_back(Variable.Name);
      std::string Message = "unknown name '" + Name + "'";
      std::string Closest = closestName(Name, Known);
      if (!Closest.empty())
        Message += "; did you mean '" + Closest + "'?";
      else
        Message += " (not a compile-time parameter of the kernel, an "
                   "element type or a function)";
      return fail(Start, Message);
    }
    if (!consume("("))
      return fail(Pos,
                  "'" + Name + "' is a function: write '" + Name + "(...)'");
    std::vector<NodePtr> Args;
    if (!consume(")")) {
      while (true) {
        NodePtr Arg = parseBinary(0);
        if (!Arg)
          return nullptr;
        Args.push_back(std::move(Arg));
        if (consume(")"))
          break;
        if (!consume(","))
          return fail(Pos,
                      Pos == Text.size()
                          ? "missing ')' after the arguments of '" + Name + "'"
                          : "expected ',' or ')', found '" +
                                std::string(peekToken()) + "'");
      }
    }
    if (Args.size() != Arity)
      return fail(Start, "'" + Name + "' takes " + std::to_string(Arity) +
                             (Arity == 1 ? " argument" : " arguments") +
                             ", but " + std::to_string(Args.size()) +
                             (Args.size() == 1 ? " was" : " were") + " given");
    if (*Function == ExprOp::Sizeof)
      return makeUnary(ExprOp::Sizeof, Start, std::move(Args[0]));
    return makeBinary(*Function, Start, std::move(Args[0]), std::move(Args[1]));
  }

  NodePtr makeUnary(ExprOp Op, std::size_t Offset, NodePtr Operand) {
    auto Result = std::make_shared<Node>();
    Result->Op = Op;
    Result->Offset = Offset;
    std::string Spelling = std::string("'") + getSpelling(Op) + "'";
    switch (Op) {
    case ExprOp::Neg:
      if (!isNumber(Operand->Kind))
        return fail(Offset, Spelling + " needs a number, but its operand is " +
                                describeKind(Operand->Kind));
      Result->Kind = Operand->Kind;
      break;
    case ExprOp::Not:
      if (Operand->Kind != Constant::Kind::Bool)
        return fail(Offset, Spelling + " needs a boolean, but its operand is " +
                                describeKind(Operand->Kind));
      Result->Kind = Constant::Kind::Bool;
      break;
    default:
      if (Operand->Kind != Constant::Kind::Type)
        return fail(Operand->Offset,
                    Spelling + " needs an element type, but its argument is " +
                        describeKind(Operand->Kind));
      Result->Kind = Constant::Kind::Int;
      break;
    }
    Result->Height = Operand->Height + 1;
    Result->Lhs = std::move(Operand);
    return checkHeight(std::move(Result));
  }

  /// Fails on a tree too tall to evaluate recursively (a long chain of
  /// operators).
  NodePtr checkHeight(std::shared_ptr<Node> Result) {
    if (Result->Height > limits::MaxExprHeight)
      return fail(Result->Offset, "the expression is too large (more than " +
                                      std::to_string(limits::MaxExprHeight) +
                                      " operations deep)");
    return Result;
  }

  NodePtr makeBinary(ExprOp Op, std::size_t Offset, NodePtr Lhs, NodePtr Rhs) {
    auto Result = std::make_shared<Node>();
    Result->Op = Op;
    Result->Offset = Offset;
    Constant::Kind L = Lhs->Kind, R = Rhs->Kind;
    std::string Spelling = std::string("'") + getSpelling(Op) + "'";
    auto Mismatch = [&](const char *Needs) {
      const Node &Bad = *(isAcceptable(Op, L) ? Rhs : Lhs);
      bool IsLeft = !isAcceptable(Op, L);
      bool IsFunction = Op == ExprOp::Min || Op == ExprOp::Max;
      return fail(Bad.Offset,
                  Spelling + " needs " + Needs + ", but its " +
                      (IsFunction
                           ? (IsLeft ? "first argument" : "second argument")
                           : (IsLeft ? "left operand" : "right operand")) +
                      " is " + describeKind(Bad.Kind));
    };
    switch (Op) {
    case ExprOp::Add:
    case ExprOp::Sub:
    case ExprOp::Mul:
    case ExprOp::Div:
    case ExprOp::Min:
    case ExprOp::Max:
      if (!isNumber(L) || !isNumber(R))
        return Mismatch("numbers");
      Result->Kind = L == Constant::Kind::Int && R == Constant::Kind::Int
                         ? Constant::Kind::Int
                         : Constant::Kind::Float;
      break;
    case ExprOp::Rem:
      if (L != Constant::Kind::Int || R != Constant::Kind::Int)
        return Mismatch("integers");
      Result->Kind = Constant::Kind::Int;
      break;
    case ExprOp::Lt:
    case ExprOp::Le:
    case ExprOp::Gt:
    case ExprOp::Ge:
      if (!isNumber(L) || !isNumber(R))
        return Mismatch("numbers");
      Result->Kind = Constant::Kind::Bool;
      break;
    case ExprOp::Eq:
    case ExprOp::Ne:
      if (!(isNumber(L) && isNumber(R)) && L != R)
        return fail(Offset, Spelling +
                                " compares values of one kind, but its "
                                "left operand is " +
                                describeKind(L) + " and its right operand " +
                                describeKind(R));
      Result->Kind = Constant::Kind::Bool;
      break;
    case ExprOp::And:
    case ExprOp::Or:
      if (L != Constant::Kind::Bool || R != Constant::Kind::Bool)
        return Mismatch("booleans");
      Result->Kind = Constant::Kind::Bool;
      break;
    default:
      break;
    }
    Result->Height = std::max(Lhs->Height, Rhs->Height) + 1;
    Result->Lhs = std::move(Lhs);
    Result->Rhs = std::move(Rhs);
    return checkHeight(std::move(Result));
  }

  /// Returns true if `K` is a valid operand kind of binary `Op`.
  static bool isAcceptable(ExprOp Op, Constant::Kind K) {
    switch (Op) {
    case ExprOp::Rem:
      return K == Constant::Kind::Int;
    case ExprOp::And:
    case ExprOp::Or:
      return K == Constant::Kind::Bool;
    default:
      return isNumber(K);
    }
  }

  std::string_view Text;
  const std::vector<ExprVariable> &Variables;
  ExprError &Error;
  std::size_t Pos = 0;
  unsigned Depth = 0;
  bool Failed = false;
};

/// Evaluates expression trees for one set of values.
class ExprEvaluator {
public:
  ExprEvaluator(const std::vector<Constant> &Values, ExprError &Error)
      : Values(Values), Error(Error) {}

  std::optional<Constant> evaluate(const Node &N) {
    switch (N.Op) {
    case ExprOp::Literal:
      return N.Value;
    case ExprOp::Variable:
      return Values[N.Index];
    case ExprOp::And:
    case ExprOp::Or: {
      // Short-circuit, as C does: `b != 0 && a / b > 2` is safe.
      std::optional<Constant> L = evaluate(*N.Lhs);
      if (!L)
        return std::nullopt;
      if (L->Bool == (N.Op == ExprOp::Or))
        return L;
      return evaluate(*N.Rhs);
    }
    default:
      break;
    }
    std::optional<Constant> L = evaluate(*N.Lhs);
    if (!L)
      return std::nullopt;
    if (!N.Rhs)
      return evaluateUnary(N, *L);
    std::optional<Constant> R = evaluate(*N.Rhs);
    if (!R)
      return std::nullopt;
    if (N.Op == ExprOp::Eq || N.Op == ExprOp::Ne) {
      bool Equal = L->K == Constant::Kind::Bool   ? L->Bool == R->Bool
                   : L->K == Constant::Kind::Type ? L->Type == R->Type
                                                  : compare(*L, *R) == 0;
      return Constant::getBool(Equal == (N.Op == ExprOp::Eq));
    }
    switch (N.Op) {
    case ExprOp::Lt:
      return Constant::getBool(compare(*L, *R) < 0);
    case ExprOp::Le:
      return Constant::getBool(compare(*L, *R) <= 0);
    case ExprOp::Gt:
      return Constant::getBool(compare(*L, *R) > 0);
    case ExprOp::Ge:
      return Constant::getBool(compare(*L, *R) >= 0);
    case ExprOp::Min:
      return compare(*L, *R) <= 0 ? promote(*L, N.Kind) : promote(*R, N.Kind);
    case ExprOp::Max:
      return compare(*L, *R) >= 0 ? promote(*L, N.Kind) : promote(*R, N.Kind);
    default:
      break;
    }
    if (N.Kind == Constant::Kind::Int)
      return evaluateInt(N, L->Int, R->Int);
    return evaluateFloat(N, toDouble(*L), toDouble(*R));
  }

private:
  static double toDouble(const Constant &C) {
    return C.K == Constant::Kind::Int ? static_cast<double>(C.Int) : C.Float;
  }

  static Constant promote(const Constant &C, Constant::Kind K) {
    return K == Constant::Kind::Float ? Constant::getFloat(toDouble(C)) : C;
  }

  /// Compares two numbers: negative, zero or positive. Two integers compare
  /// exactly; otherwise as doubles.
  static int compare(const Constant &L, const Constant &R) {
    if (L.K == Constant::Kind::Int && R.K == Constant::Kind::Int)
      return L.Int < R.Int ? -1 : L.Int > R.Int;
    double A = toDouble(L), B = toDouble(R);
    return A < B ? -1 : A > B;
  }

  std::optional<Constant> fail(const Node &N, std::string Message) {
    Error.Offset = N.Offset;
    Error.Message = std::move(Message);
    return std::nullopt;
  }

  std::optional<Constant> evaluateUnary(const Node &N, const Constant &V) {
    switch (N.Op) {
    case ExprOp::Not:
      return Constant::getBool(!V.Bool);
    case ExprOp::Sizeof:
      return Constant::getInt(getByteSize(V.Type));
    default:
      break;
    }
    if (V.K == Constant::Kind::Float)
      return Constant::getFloat(-V.Float);
    if (V.Int == INT64_MIN)
      return fail(N, "integer overflow: -(" + V.toString() + ")");
    return Constant::getInt(-V.Int);
  }

  std::optional<Constant> evaluateInt(const Node &N, std::int64_t A,
                                      std::int64_t B) {
    std::int64_t Result = 0;
    bool Overflow = false;
    switch (N.Op) {
    case ExprOp::Add:
      Overflow = __builtin_add_overflow(A, B, &Result);
      break;
    case ExprOp::Sub:
      Overflow = __builtin_sub_overflow(A, B, &Result);
      break;
    case ExprOp::Mul:
      Overflow = __builtin_mul_overflow(A, B, &Result);
      break;
    default:
      if (B == 0)
        return fail(N, std::string("division by zero: ") + std::to_string(A) +
                           " " + getSpelling(N.Op) + " 0");
      Overflow = A == INT64_MIN && B == -1;
      // Truncating, as C and the tile language divide.
      if (!Overflow)
        Result = N.Op == ExprOp::Div ? A / B : A % B;
      break;
    }
    if (Overflow)
      return fail(N, std::string("integer overflow: ") + std::to_string(A) +
                         " " + getSpelling(N.Op) + " " + std::to_string(B));
    return Constant::getInt(Result);
  }

  std::optional<Constant> evaluateFloat(const Node &N, double A, double B) {
    switch (N.Op) {
    case ExprOp::Add:
      return Constant::getFloat(A + B);
    case ExprOp::Sub:
      return Constant::getFloat(A - B);
    case ExprOp::Mul:
      return Constant::getFloat(A * B);
    default:
      if (B == 0)
        return fail(N, "division by zero: " + Constant::getFloat(A).toString() +
                           " / 0");
      return Constant::getFloat(A / B);
    }
  }

  const std::vector<Constant> &Values;
  ExprError &Error;
};

} // namespace

std::optional<SpaceExpr>
SpaceExpr::parse(std::string_view Text,
                 const std::vector<ExprVariable> &Variables, ExprError &Error) {
  NodePtr Root = ExprParser(Text, Variables, Error).parse();
  if (!Root)
    return std::nullopt;
  return SpaceExpr(std::move(Root));
}

Constant::Kind SpaceExpr::getKind() const { return Root->Kind; }

std::optional<Constant> SpaceExpr::evaluate(const std::vector<Constant> &Values,
                                            ExprError &Error) const {
  return ExprEvaluator(Values, Error).evaluate(*Root);
}
