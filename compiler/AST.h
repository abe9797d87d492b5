//===- AST.h - Abstract syntax tree of the .tile language -------*- C++ -*-===//
//
// The AST built by the parser. Nodes own their children through unique_ptr;
// the parser bounds the height of every tree (limits::MaxExprHeight,
// limits::MaxNestingDepth), so the recursive destruction and every recursive
// walk stay within a small stack budget.
//
// Semantic analysis annotates the tree in place (the fields under "Set by
// semantic analysis"); those annotations describe the last analysis run.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_AST_H
#define TILEC_COMPILER_AST_H

#include "compiler/Builtins.h"
#include "compiler/SourceFile.h"
#include "compiler/Types.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace tilec {

struct Symbol;

namespace ast {

class FnDecl;

/// `To`, const-qualified like `From`.
template <typename From, typename To>
using MatchConst = std::conditional_t<std::is_const_v<From>, const To, To>;

/// A name as written in the source, with its location.
struct Ident {
  /// The spelling.
  std::string Name;
  /// Where it is.
  SourceLoc Loc;
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Base class of expressions.
class Expr {
public:
  /// The concrete node classes.
  enum class Kind {
    IntLiteral,
    FloatLiteral,
    BoolLiteral,
    StringLiteral,
    Name,
    Index,
    Call,
    Cast,
    Unary,
    Binary,
    Ternary,
    List,
    Error,
  };

  virtual ~Expr() = default;
  Expr(const Expr &) = delete;
  Expr &operator=(const Expr &) = delete;

  /// Returns the node class.
  Kind getKind() const { return K; }
  /// Returns the location diagnostics about this expression point at: the
  /// operator of a unary, binary or conditional expression, the name of a
  /// reference, call or subscript, else the first character.
  SourceLoc getLoc() const { return Loc; }
  /// Returns the location of the first character.
  SourceLoc getBeginLoc() const { return Begin; }
  /// Returns the offset just past the last character.
  std::uint32_t getEndOffset() const { return EndOffset; }
  /// Returns the height of the tree rooted here (1 for a leaf).
  unsigned getHeight() const { return Height; }

  /// Sets the source extent (the parser calls this once the expression ends).
  void setRange(SourceLoc NewBegin, std::uint32_t NewEnd) {
    Begin = NewBegin;
    EndOffset = NewEnd;
  }

  /// Set by semantic analysis: the type (never untyped after analysis).
  ExprType Ty;
  /// Set by semantic analysis: the value, when the expression is a
  /// compile-time constant.
  std::optional<Constant> Const;
  /// Set by semantic analysis: the height after inlining function calls.
  unsigned InlinedHeight = 1;

protected:
  Expr(Kind K, SourceLoc Loc, unsigned Height = 1)
      : K(K), Loc(Loc), Begin(Loc), Height(Height) {}

private:
  Kind K;
  SourceLoc Loc;
  SourceLoc Begin;
  std::uint32_t EndOffset = 0;
  unsigned Height;
};

/// An owned expression.
using ExprPtr = std::unique_ptr<Expr>;

/// Returns one more than the tallest of `Children` (null ones ignored).
unsigned heightAbove(std::initializer_list<const Expr *> Children);
/// Returns one more than the tallest of `Children`.
unsigned heightAbove(const std::vector<ExprPtr> &Children);

/// An integer literal: `128`, `0x1F`.
class IntLiteralExpr : public Expr {
public:
  /// Creates the literal `Value`.
  IntLiteralExpr(SourceLoc Loc, std::int64_t Value)
      : Expr(Kind::IntLiteral, Loc), Value(Value) {}
  /// The value.
  std::int64_t Value;
  /// Returns true for integer literals.
  static bool classof(const Expr *E) {
    return E->getKind() == Kind::IntLiteral;
  }
};

/// A floating-point literal: `0.5`, `1e-3`.
class FloatLiteralExpr : public Expr {
public:
  /// Creates the literal `Value`.
  FloatLiteralExpr(SourceLoc Loc, double Value)
      : Expr(Kind::FloatLiteral, Loc), Value(Value) {}
  /// The value.
  double Value;
  /// Returns true for floating-point literals.
  static bool classof(const Expr *E) {
    return E->getKind() == Kind::FloatLiteral;
  }
};

/// `true` or `false`.
class BoolLiteralExpr : public Expr {
public:
  /// Creates the literal `Value`.
  BoolLiteralExpr(SourceLoc Loc, bool Value)
      : Expr(Kind::BoolLiteral, Loc), Value(Value) {}
  /// The value.
  bool Value;
  /// Returns true for boolean literals.
  static bool classof(const Expr *E) {
    return E->getKind() == Kind::BoolLiteral;
  }
};

/// A string literal (only as the message of `print`).
class StringLiteralExpr : public Expr {
public:
  /// Creates the literal whose decoded contents are `Value`.
  StringLiteralExpr(SourceLoc Loc, std::string Value)
      : Expr(Kind::StringLiteral, Loc), Value(std::move(Value)) {}
  /// The contents, escapes decoded.
  std::string Value;
  /// Returns true for string literals.
  static bool classof(const Expr *E) {
    return E->getKind() == Kind::StringLiteral;
  }
};

/// A reference to a named value: a parameter, dim, `let`, loop variable,
/// block index, element type, `inf` or `pi`.
class NameExpr : public Expr {
public:
  /// Creates a reference to `Name`.
  NameExpr(SourceLoc Loc, std::string Name)
      : Expr(Kind::Name, Loc), Name(std::move(Name)) {}
  /// The name as written.
  std::string Name;
  /// Set by semantic analysis: what the name refers to (null for the
  /// predefined names `inf`, `pi` and element types).
  const Symbol *Sym = nullptr;
  /// Returns true for name references.
  static bool classof(const Expr *E) { return E->getKind() == Kind::Name; }
};

/// `A[i, j]`: an element of a buffer, or in `copy` the origin of a region.
class IndexExpr : public Expr {
public:
  /// Creates `Name[Indices...]`.
  IndexExpr(SourceLoc Loc, std::string Name, std::vector<ExprPtr> Indices)
      : Expr(Kind::Index, Loc, heightAbove(Indices)), Name(std::move(Name)),
        Indices(std::move(Indices)) {}
  /// The buffer's name.
  std::string Name;
  /// The subscripts.
  std::vector<ExprPtr> Indices;
  /// Set by semantic analysis: the buffer.
  const Symbol *Sym = nullptr;
  /// Returns true for subscripts.
  static bool classof(const Expr *E) { return E->getKind() == Kind::Index; }
};

/// A named argument of a call: `transpose_B = true`.
struct NamedArg {
  /// The argument's name.
  Ident Name;
  /// Its value.
  ExprPtr Value;
};

/// A call of a builtin or a `fn`, or a loop range (`parallel(M, N)`).
class CallExpr : public Expr {
public:
  /// Creates `Callee(Args..., NamedArgs...)`.
  CallExpr(SourceLoc Loc, std::string Callee, std::vector<ExprPtr> Args,
           std::vector<NamedArg> NamedArgs);
  /// The callee's name.
  std::string Callee;
  /// Positional arguments.
  std::vector<ExprPtr> Args;
  /// Named arguments, in source order.
  std::vector<NamedArg> NamedArgs;
  /// Set by semantic analysis: the builtin called, if it is one.
  std::optional<Builtin> BuiltinId;
  /// Set by semantic analysis: the function called, if it is one.
  const FnDecl *Fn = nullptr;

  /// Returns the named argument `Name`, or null.
  const NamedArg *findNamedArg(std::string_view Name) const;
  /// Returns true for calls.
  static bool classof(const Expr *E) { return E->getKind() == Kind::Call; }
};

/// `cast<T>(x)`.
class CastExpr : public Expr {
public:
  /// Creates `cast<Target>(Operand)`.
  CastExpr(SourceLoc Loc, Ident Target, ExprPtr Operand)
      : Expr(Kind::Cast, Loc, heightAbove({Operand.get()})),
        Target(std::move(Target)), Operand(std::move(Operand)) {}
  /// The target type as written.
  Ident Target;
  /// The converted value.
  ExprPtr Operand;
  /// Returns true for casts.
  static bool classof(const Expr *E) { return E->getKind() == Kind::Cast; }
};

/// Unary operators.
enum class UnaryOp { Neg, Not };

/// `-x` or `!x`.
class UnaryExpr : public Expr {
public:
  /// Creates `Op Operand`.
  UnaryExpr(SourceLoc Loc, UnaryOp Op, ExprPtr Operand)
      : Expr(Kind::Unary, Loc, heightAbove({Operand.get()})), Op(Op),
        Operand(std::move(Operand)) {}
  /// The operator.
  UnaryOp Op;
  /// The operand.
  ExprPtr Operand;
  /// Returns true for unary expressions.
  static bool classof(const Expr *E) { return E->getKind() == Kind::Unary; }
};

/// Binary operators.
enum class BinaryOp {
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Shl,
  Shr,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  And,
  Or,
};

/// Returns the spelling of `Op`: `+`, `&&`.
const char *getSpelling(BinaryOp Op);
/// Returns true for `== != < <= > >=`.
bool isComparison(BinaryOp Op);

/// `a op b`.
class BinaryExpr : public Expr {
public:
  /// Creates `LHS Op RHS`.
  BinaryExpr(SourceLoc Loc, BinaryOp Op, ExprPtr LHS, ExprPtr RHS)
      : Expr(Kind::Binary, Loc, heightAbove({LHS.get(), RHS.get()})), Op(Op),
        LHS(std::move(LHS)), RHS(std::move(RHS)) {}
  /// The operator.
  BinaryOp Op;
  /// The left operand.
  ExprPtr LHS;
  /// The right operand.
  ExprPtr RHS;
  /// Returns true for binary expressions.
  static bool classof(const Expr *E) { return E->getKind() == Kind::Binary; }
};

/// `c ? a : b`.
class TernaryExpr : public Expr {
public:
  /// Creates `Cond ? Then : Else`.
  TernaryExpr(SourceLoc Loc, ExprPtr Cond, ExprPtr Then, ExprPtr Else)
      : Expr(Kind::Ternary, Loc,
             heightAbove({Cond.get(), Then.get(), Else.get()})),
        Cond(std::move(Cond)), Then(std::move(Then)), Else(std::move(Else)) {}
  /// The condition.
  ExprPtr Cond;
  /// The value if the condition holds.
  ExprPtr Then;
  /// The value otherwise.
  ExprPtr Else;
  /// Returns true for conditional expressions.
  static bool classof(const Expr *E) { return E->getKind() == Kind::Ternary; }
};

/// `[a, b, ...]` (only as the shape of an allocation).
class ListExpr : public Expr {
public:
  /// Creates `[Elements...]`.
  ListExpr(SourceLoc Loc, std::vector<ExprPtr> Elements)
      : Expr(Kind::List, Loc, heightAbove(Elements)),
        Elements(std::move(Elements)) {}
  /// The elements.
  std::vector<ExprPtr> Elements;
  /// Returns true for lists.
  static bool classof(const Expr *E) { return E->getKind() == Kind::List; }
};

/// Stands in for an expression the parser could not build (already
/// reported); semantic analysis stays silent about it.
class ErrorExpr : public Expr {
public:
  /// Creates the placeholder.
  explicit ErrorExpr(SourceLoc Loc) : Expr(Kind::Error, Loc) {}
  /// Returns true for placeholders.
  static bool classof(const Expr *E) { return E->getKind() == Kind::Error; }
};

/// Calls `Fn` on each direct child of `E` (an `Expr` or `const Expr`).
template <typename ExprT, typename Callback>
void forEachChild(ExprT &E, Callback &&Fn) {
  switch (E.getKind()) {
  case Expr::Kind::Index:
    for (auto &Index : static_cast<MatchConst<ExprT, IndexExpr> &>(E).Indices)
      Fn(*Index);
    return;
  case Expr::Kind::Call: {
    auto &Call = static_cast<MatchConst<ExprT, CallExpr> &>(E);
    for (auto &Arg : Call.Args)
      Fn(*Arg);
    for (auto &Arg : Call.NamedArgs)
      Fn(*Arg.Value);
    return;
  }
  case Expr::Kind::Cast:
    Fn(*static_cast<MatchConst<ExprT, CastExpr> &>(E).Operand);
    return;
  case Expr::Kind::Unary:
    Fn(*static_cast<MatchConst<ExprT, UnaryExpr> &>(E).Operand);
    return;
  case Expr::Kind::Binary: {
    auto &Binary = static_cast<MatchConst<ExprT, BinaryExpr> &>(E);
    Fn(*Binary.LHS);
    Fn(*Binary.RHS);
    return;
  }
  case Expr::Kind::Ternary: {
    auto &Ternary = static_cast<MatchConst<ExprT, TernaryExpr> &>(E);
    Fn(*Ternary.Cond);
    Fn(*Ternary.Then);
    Fn(*Ternary.Else);
    return;
  }
  case Expr::Kind::List:
    for (auto &Element : static_cast<MatchConst<ExprT, ListExpr> &>(E).Elements)
      Fn(*Element);
    return;
  default:
    return;
  }
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt;
/// An owned statement.
using StmtPtr = std::unique_ptr<Stmt>;

/// `{ statements }`.
struct Block {
  /// The `{`.
  SourceLoc LBrace;
  /// The `}`.
  SourceLoc RBrace;
  /// The statements, in order.
  std::vector<StmtPtr> Stmts;
};

/// Base class of statements.
class Stmt {
public:
  /// The concrete node classes.
  enum class Kind { Let, Assign, Call, For, If, Launch, Return };

  virtual ~Stmt() = default;
  Stmt(const Stmt &) = delete;
  Stmt &operator=(const Stmt &) = delete;

  /// Returns the node class.
  Kind getKind() const { return K; }
  /// Returns the location of the statement's first token.
  SourceLoc getLoc() const { return Loc; }

protected:
  Stmt(Kind K, SourceLoc Loc) : K(K), Loc(Loc) {}

private:
  Kind K;
  SourceLoc Loc;
};

/// `let name = init;`
class LetStmt : public Stmt {
public:
  /// Creates the binding of `Name` to `Init`.
  LetStmt(SourceLoc Loc, Ident Name, ExprPtr Init)
      : Stmt(Kind::Let, Loc), Name(std::move(Name)), Init(std::move(Init)) {}
  /// The bound name.
  Ident Name;
  /// The initializer.
  ExprPtr Init;
  /// Set by semantic analysis: the symbol declared.
  const Symbol *Sym = nullptr;
  /// Returns true for `let`.
  static bool classof(const Stmt *S) { return S->getKind() == Kind::Let; }
};

/// `target = value;` where the target is `name` or `name[indices]`.
class AssignStmt : public Stmt {
public:
  /// Creates the assignment of `Value` to `Target`.
  AssignStmt(SourceLoc Loc, ExprPtr Target, ExprPtr Value)
      : Stmt(Kind::Assign, Loc), Target(std::move(Target)),
        Value(std::move(Value)) {}
  /// A NameExpr or IndexExpr.
  ExprPtr Target;
  /// The assigned value.
  ExprPtr Value;
  /// Returns true for assignments.
  static bool classof(const Stmt *S) { return S->getKind() == Kind::Assign; }
};

/// The options of a tile statement, resolved from its named arguments and
/// their defaults by semantic analysis.
struct TileStmtOptions {
  /// gemm: `transpose_A`.
  bool TransposeA = false;
  /// gemm: `transpose_B`.
  bool TransposeB = false;
  /// gemm and reductions: `clear` (default false for gemm, true for
  /// reductions).
  bool Clear = false;
  /// gemm: `policy` (`square`, `full_row` or `full_col`).
  std::string Policy = "square";
  /// Reductions: the reduced dimension, normalized to [0, rank).
  std::int64_t Dim = 0;
  /// annotate_layout: the layout name (`linear`, `swizzled` or `padded`).
  std::string Layout;
  /// use_swizzle: the panel size.
  std::int64_t Panel = 0;
  /// print: the message (the value's source text when none is given).
  std::string Message;
};

/// A builtin called as a statement: `copy(A, B);`.
class CallStmt : public Stmt {
public:
  /// Creates the statement calling `Call`.
  CallStmt(SourceLoc Loc, std::unique_ptr<CallExpr> Call)
      : Stmt(Kind::Call, Loc), Call(std::move(Call)) {}
  /// The call.
  std::unique_ptr<CallExpr> Call;
  /// Set by semantic analysis: the statement's resolved options.
  TileStmtOptions Options;
  /// Returns true for call statements.
  static bool classof(const Stmt *S) { return S->getKind() == Kind::Call; }
};

/// `for i, j in range(args) { body }`.
class ForStmt : public Stmt {
public:
  /// Creates the loop.
  ForStmt(SourceLoc Loc, std::vector<Ident> Vars,
          std::unique_ptr<CallExpr> Range, Block Body)
      : Stmt(Kind::For, Loc), Vars(std::move(Vars)), Range(std::move(Range)),
        Body(std::move(Body)) {}
  /// The induction variables.
  std::vector<Ident> Vars;
  /// The range: `parallel(...)`, `pipelined(...)`, `serial(...)` or
  /// `unroll(...)`.
  std::unique_ptr<CallExpr> Range;
  /// The body.
  Block Body;
  /// Set by semantic analysis: the induction variables' symbols.
  std::vector<const Symbol *> VarSyms;
  /// Set by semantic analysis: the extents of a `parallel` loop.
  std::vector<std::int64_t> Extents;
  /// Set by semantic analysis: the stages of a `pipelined` loop.
  std::int64_t Stages = 0;
  /// Returns true for loops.
  static bool classof(const Stmt *S) { return S->getKind() == Kind::For; }
};

/// `if cond { then } else { else }`; `else if` is an `else` block holding one
/// `if` statement.
class IfStmt : public Stmt {
public:
  /// Creates the conditional.
  IfStmt(SourceLoc Loc, ExprPtr Cond, Block Then, std::optional<Block> Else)
      : Stmt(Kind::If, Loc), Cond(std::move(Cond)), Then(std::move(Then)),
        Else(std::move(Else)) {}
  /// The condition.
  ExprPtr Cond;
  /// The block run when the condition holds.
  Block Then;
  /// The block run otherwise, if any.
  std::optional<Block> Else;
  /// Returns true for conditionals.
  static bool classof(const Stmt *S) { return S->getKind() == Kind::If; }
};

/// `with kernel(grid..., threads = T) as (bx, by) { body }`.
class LaunchStmt : public Stmt {
public:
  /// Creates the launch; `Config` holds the grid extents as positional
  /// arguments and `threads` as a named one.
  LaunchStmt(SourceLoc Loc, std::unique_ptr<CallExpr> Config,
             std::vector<Ident> BlockVars, Block Body)
      : Stmt(Kind::Launch, Loc), Config(std::move(Config)),
        BlockVars(std::move(BlockVars)), Body(std::move(Body)) {}
  /// `kernel(...)`.
  std::unique_ptr<CallExpr> Config;
  /// The names bound to the block indices (possibly fewer than the grid's
  /// rank when the `as` clause is left out).
  std::vector<Ident> BlockVars;
  /// The body, at thread-block level.
  Block Body;
  /// Set by semantic analysis: the block-index symbols, one per grid dim
  /// (null where the source gives no name).
  std::vector<const Symbol *> BlockSyms;
  /// Set by semantic analysis: threads per block.
  std::int64_t Threads = 0;
  /// Returns true for launches.
  static bool classof(const Stmt *S) { return S->getKind() == Kind::Launch; }
};

/// `return value;` (only at the end of a `fn`).
class ReturnStmt : public Stmt {
public:
  /// Creates the return of `Value`.
  ReturnStmt(SourceLoc Loc, ExprPtr Value)
      : Stmt(Kind::Return, Loc), Value(std::move(Value)) {}
  /// The returned value.
  ExprPtr Value;
  /// Returns true for returns.
  static bool classof(const Stmt *S) { return S->getKind() == Kind::Return; }
};

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

/// `name = default` in a kernel's `<...>` list.
struct ConstParamDecl {
  /// The parameter's name.
  Ident Name;
  /// Its default: an integer, boolean or element type, possibly computed
  /// from earlier compile-time parameters.
  ExprPtr Default;
  /// Set by semantic analysis: the parameter's symbol (with its value).
  const Symbol *Sym = nullptr;
};

/// One dimension of a tensor parameter: a name or an integer literal.
struct DimDecl {
  /// The name, or empty for a literal.
  std::string Name;
  /// The literal's value (when `Name` is empty).
  std::int64_t Value = 0;
  /// Where it is.
  SourceLoc Loc;
};

/// A runtime parameter: `A: dtype[M, K]` (a tensor) or `scale: f32` (a
/// scalar).
struct ParamDecl {
  /// The parameter's name.
  Ident Name;
  /// The element type as written (a type name or a type parameter).
  Ident TypeName;
  /// True for a tensor (a `[...]` follows the type).
  bool IsTensor = false;
  /// The tensor's dims.
  std::vector<DimDecl> Dims;
  /// Set by semantic analysis: the parameter's symbol.
  const Symbol *Sym = nullptr;
};

/// `kernel name<const params>(params) { body }`.
class KernelDecl {
public:
  /// The kernel's name.
  Ident Name;
  /// Compile-time parameters, in order.
  std::vector<ConstParamDecl> ConstParams;
  /// Runtime parameters, in order.
  std::vector<ParamDecl> Params;
  /// The body.
  Block Body;
};

/// A parameter of a `fn`.
struct FnParamDecl {
  /// The parameter's name.
  Ident Name;
  /// Its scalar type as written.
  Ident TypeName;
};

/// `fn name(params) -> type { lets...; return value; }`.
class FnDecl {
public:
  /// The function's name.
  Ident Name;
  /// Its parameters.
  std::vector<FnParamDecl> Params;
  /// The result type as written.
  Ident ResultType;
  /// The body.
  Block Body;

  /// Set by semantic analysis: the parameters' symbols.
  std::vector<const Symbol *> ParamSyms;
  /// Set by semantic analysis: the parameters' types.
  std::vector<ScalarKind> ParamKinds;
  /// Set by semantic analysis: the result type.
  ScalarKind ResultKind = ScalarKind::F32;
  /// Set by semantic analysis: true if the signature is valid (calls can be
  /// checked against it).
  bool SignatureValid = false;
  /// Set by semantic analysis: the height of the body after inlining.
  unsigned InlinedHeight = 1;
  /// Set by semantic analysis: the nodes of the body after inlining
  /// (saturating).
  std::uint64_t InlinedNodes = 1;
};

/// A parsed source file.
struct File {
  /// The functions, in source order.
  std::vector<std::unique_ptr<FnDecl>> Fns;
  /// The kernels, in source order.
  std::vector<std::unique_ptr<KernelDecl>> Kernels;
};

} // namespace ast
} // namespace tilec

#endif // TILEC_COMPILER_AST_H
