//===- SemaImpl.h - Internals of semantic analysis --------------*- C++ -*-===//
//
// The analyzer class shared by Sema.cpp (declarations and statements),
// SemaExpr.cpp (expression typing and constant folding) and SemaBuiltins.cpp
// (allocations and tile statements). Not part of the library's interface.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_SEMAIMPL_H
#define TILEC_COMPILER_SEMAIMPL_H

#include "compiler/Sema.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace tilec::detail {

/// Where the statement being analyzed sits.
struct StmtContext {
  /// Inside a `fn` body.
  bool InFn = false;
  /// Inside a `with kernel` body.
  bool InLaunch = false;
  /// Directly in the `with kernel` body (not in a nested loop or `if`).
  bool AtLaunchTop = false;
  /// Inside a `parallel` loop.
  bool InParallel = false;
  /// The variables of the enclosing `parallel` loop and their extents,
  /// while the statement runs in every iteration (no `if` or nested loop in
  /// between): an index that is one of them takes every value below its
  /// extent.
  std::vector<std::pair<const Symbol *, std::int64_t>> EveryIterationVars;
};

/// A buffer operand of a tile statement: a name, or `X[i, j]` as a region
/// origin.
struct BufferOperand {
  /// The buffer.
  const Symbol *Sym = nullptr;
  /// The region origin, if one was given.
  ast::IndexExpr *Origin = nullptr;
  /// The operand's expression.
  ast::Expr *E = nullptr;
};

/// The semantic analyzer of one file.
class Sema {
public:
  /// Prepares the analysis of `File`; the result goes to `Prog`.
  Sema(ast::File &File, const SemaOptions &Options, DiagnosticEngine &Diags,
       Program &Prog)
      : File(File), Options(Options), Diags(Diags), Prog(Prog) {}

  /// Analyzes the whole file.
  void run();

  //===--------------------------------------------------------------------===//
  // Declarations and statements (Sema.cpp)
  //===--------------------------------------------------------------------===//

  /// Reports `-D` names given more than once.
  void checkDefineList();
  /// Records the functions by name (reporting duplicates and builtin or
  /// reserved names) and checks their signatures.
  void collectFunctions();
  /// Resolves the parameter and result types of `Fn`.
  void checkFunctionSignature(ast::FnDecl &Fn);
  /// Returns the functions callees first, reporting every call that closes
  /// a cycle (iteratively, whatever the length of the call chains).
  std::vector<ast::FnDecl *> orderFunctions();
  /// Checks the body of `Fn`: `let`s, then one `return` of its result type.
  void checkFunctionBody(ast::FnDecl &Fn);
  /// Computes the height and size of `Fn`'s body once its calls are
  /// inlined (its callees must have been measured).
  void measureInlining(ast::FnDecl &Fn);
  /// Returns the height and node count of `E` with calls inlined, recording
  /// the height in `E`; reports the first call too deep (once: `Reported`).
  std::pair<unsigned, std::uint64_t> measure(ast::Expr &E, bool &Reported);
  /// Checks `Kernel` and fills `Info`.
  void checkKernel(ast::KernelDecl &Kernel, KernelInfo &Info);
  /// Evaluates the compile-time parameters, applying `-D` overrides.
  void checkConstParams(ast::KernelDecl &Kernel, KernelInfo &Info);
  /// Replaces the value of `Param` with its `-D` override, if any.
  void applyDefine(Symbol &Param, const ast::KernelDecl &Kernel);
  /// Declares the tensors, their symbolic dims and the scalars.
  void checkParams(ast::KernelDecl &Kernel, KernelInfo &Info);
  /// Checks the grid, the threads and the body of the launch.
  void checkLaunch(ast::LaunchStmt &Launch, KernelInfo &Info);
  void warnUnboundGrid(const ast::CallExpr &Config);
  /// Reports `-D` overrides no selected kernel has a parameter for.
  void reportUnusedDefines();

  /// Checks the statements of `Block` in a new scope.
  void checkBlock(ast::Block &Block);
  /// Checks one statement of a launch body.
  void checkStmt(ast::Stmt &S);
  /// Checks a `let` (of a scalar or an allocation) and declares its name.
  void checkLet(ast::LetStmt &S);
  /// Checks an assignment to an element or to an `alloc_var`.
  void checkAssign(ast::AssignStmt &S);
  /// Checks a loop: its range, where it is, its variables and body.
  void checkFor(ast::ForStmt &S);
  /// Checks a conditional statement.
  void checkIf(ast::IfStmt &S);

  //===--------------------------------------------------------------------===//
  // Scopes and symbols (Sema.cpp)
  //===--------------------------------------------------------------------===//

  /// Returns the visible symbol named `Name`, or null.
  Symbol *lookup(std::string_view Name) const;
  /// Creates a symbol named `Name` in the innermost scope, unless the name is
  /// reserved or already visible (both reported); returns it either way so
  /// that later references resolve.
  Symbol *declare(Symbol::Kind K, const ast::Ident &Name, ExprType Ty);
  /// Opens a scope.
  void pushScope() { Scopes.emplace_back(); }
  /// Closes the innermost scope.
  void popScope() { Scopes.pop_back(); }
  /// Returns a visible name close to `Name`, or empty.
  std::string suggestName(std::string_view Name) const;

  //===--------------------------------------------------------------------===//
  // Expressions (SemaExpr.cpp)
  //===--------------------------------------------------------------------===//

  /// Types `E` bottom-up; the result may be an untyped constant (or a
  /// conditional over untyped constants).
  void infer(ast::Expr &E);
  /// Infers `E` and requires a scalar value (not a buffer, type, string or
  /// list); returns false (reported) otherwise.
  bool inferValue(ast::Expr &E);
  /// Gives an untyped `E` the type `K`; returns false (reported) if its
  /// value cannot be one.
  bool coerce(ast::Expr &E, ScalarKind K);
  /// Gives an untyped `E` its default type: index for integers, f32 for
  /// floating-point values.
  void resolveDefault(ast::Expr &E);
  /// Infers `E` and requires a value of type `K`, reporting a mismatch as
  /// "`What` must be K, got T".
  bool checkValueOf(ast::Expr &E, ScalarKind K, const std::string &What);
  /// Infers `E` and requires a compile-time integer.
  std::optional<std::int64_t> evalConstInt(ast::Expr &E,
                                           const std::string &What);
  /// Infers `E` and requires a compile-time boolean.
  std::optional<bool> evalConstBool(ast::Expr &E, const std::string &What);
  /// Infers `E` and requires an element type.
  std::optional<ScalarKind> evalElementType(ast::Expr &E,
                                            const std::string &What);
  /// Resolves a type name: an element type, a type parameter or (with
  /// `AllowIndex`) `index`.
  std::optional<ScalarKind> resolveTypeName(const ast::Ident &Name,
                                            bool AllowIndex);
  /// Adds notes naming the compile-time parameters in `E` that `-D` set.
  void noteDefines(const ast::Expr &E);

  /// infer() for each kind of expression.
  void inferName(ast::NameExpr &E);
  void inferIndex(ast::IndexExpr &E);
  void inferCall(ast::CallExpr &E);
  void inferFnCall(ast::CallExpr &E, const ast::FnDecl &Fn);
  void inferScalarBuiltin(ast::CallExpr &E, Builtin Id);
  void inferFloatBuiltin(ast::CallExpr &E, Builtin Id);
  void checkShift(ast::BinaryExpr &E, const ExprType &Ty, bool Foldable);
  void inferCast(ast::CastExpr &E);
  void inferUnary(ast::UnaryExpr &E);
  void inferBinary(ast::BinaryExpr &E);
  void inferTernary(ast::TernaryExpr &E);
  /// Brings the operands of `What` (an operator or builtin at `Loc`) to a
  /// common type and returns it (the error type, reported, if there is none).
  ExprType unify(ast::Expr &LHS, ast::Expr &RHS, SourceLoc Loc,
                 const std::string &What);
  /// Reports an expression whose height crosses the limit once functions
  /// (`Callee`, if it is a call) are inlined.
  void reportInlinedTooDeep(SourceLoc Loc, const ast::FnDecl *Callee);
  /// Adds `N` expression nodes to the current kernel's inlined size,
  /// reporting at `Loc` when the budget is exceeded.
  void countNodes(std::uint64_t N, SourceLoc Loc);

  //===--------------------------------------------------------------------===//
  // Builtins (SemaBuiltins.cpp)
  //===--------------------------------------------------------------------===//

  /// Reports a call of builtin `Id` with the wrong number of arguments.
  bool checkArity(const ast::CallExpr &Call, Builtin Id);
  /// Reports named arguments builtin `Id` does not accept.
  bool checkNamedArgs(const ast::CallExpr &Call, Builtin Id);
  /// Checks an allocation bound by `S` and declares the tile.
  Symbol *checkAlloc(ast::LetStmt &S, ast::CallExpr &Call, Builtin Id);
  /// Checks a call statement (a tile statement).
  void checkCallStmt(ast::CallStmt &S);
  /// Resolves a buffer operand described as `What` in messages.
  std::optional<BufferOperand>
  resolveBuffer(ast::Expr &E, const std::string &What, bool AllowOrigin);
  /// Reports an operand whose buffer is in none of the `Allowed` scopes.
  bool checkScope(const BufferOperand &Operand, const std::string &What,
                  std::initializer_list<MemScope> Allowed);
  /// The checks of each tile statement.
  void checkCopy(ast::CallStmt &S);
  void checkGemm(ast::CallStmt &S);
  void checkFillOrClear(ast::CallStmt &S, Builtin Id);
  void checkReduce(ast::CallStmt &S);
  void checkUseSwizzle(ast::CallStmt &S);
  void checkAnnotateLayout(ast::CallStmt &S);
  void checkPrint(ast::CallStmt &S);

  //===--------------------------------------------------------------------===//
  // State
  //===--------------------------------------------------------------------===//

  /// The file analyzed.
  ast::File &File;
  /// What to do.
  const SemaOptions &Options;
  /// Where problems go.
  DiagnosticEngine &Diags;
  /// The result.
  Program &Prog;

  /// Functions by name.
  std::unordered_map<std::string, ast::FnDecl *> Fns;
  /// Visible names, innermost scope last.
  std::vector<std::unordered_map<std::string, Symbol *>> Scopes;
  /// Where the current statement sits.
  StmtContext Ctx;
  /// The kernel being analyzed (null in functions).
  KernelInfo *CurKernel = nullptr;
  /// Whether `-D` overrides apply to the kernel being analyzed.
  bool ApplyDefines = false;
  /// Which `-D` overrides some kernel used.
  std::vector<bool> DefineUsed;
  /// Expression nodes after inlining in the current kernel (null outside
  /// kernels).
  std::uint64_t *NodeCount = nullptr;
  /// Set once the current kernel was reported too large.
  bool NodeBudgetReported = false;
  /// Set once the current launch body has a `use_swizzle`.
  const ast::CallStmt *SwizzleSeen = nullptr;
};

} // namespace tilec::detail

#endif // TILEC_COMPILER_SEMAIMPL_H
