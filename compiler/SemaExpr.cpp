//===- SemaExpr.cpp - Typing and constant folding of expressions ----------===//
//
// Expressions are typed bottom-up. Literals, integer compile-time parameters
// and constant expressions over them are *untyped*: they take the type their
// context requires (the other operand of a binary operator, the element type
// of an assignment, a function parameter), and default to index or f32. A
// non-constant expression is never untyped, except a conditional whose
// branches both are (`c ? -inf : 0.0`), which takes its type from context
// too. Constant expressions are folded exactly: integers in 64 bits with
// overflow reported, floating-point values in double precision.
//
//===----------------------------------------------------------------------===//

#include "compiler/Casting.h"
#include "compiler/Limits.h"
#include "compiler/SemaImpl.h"
#include "compiler/Suggestions.h"

#include <algorithm>
#include <cmath>

using namespace tilec;
using namespace tilec::ast;
using namespace tilec::detail;

namespace {

double toDouble(const Constant &C) {
  return C.K == Constant::Kind::Float ? C.Float : static_cast<double>(C.Int);
}

std::string formatDouble(double V) { return Constant::getFloat(V).toString(); }

/// Applies a unary math builtin to a constant.
double applyMath(Builtin Id, double V) {
  switch (Id) {
  case Builtin::Exp:
    return std::exp(V);
  case Builtin::Exp2:
    return std::exp2(V);
  case Builtin::Log:
    return std::log(V);
  case Builtin::Log2:
    return std::log2(V);
  case Builtin::Sqrt:
    return std::sqrt(V);
  case Builtin::Rsqrt:
    return 1.0 / std::sqrt(V);
  case Builtin::Tanh:
    return std::tanh(V);
  case Builtin::Erf:
    return std::erf(V);
  case Builtin::Floor:
    return std::floor(V);
  case Builtin::Sin:
    return std::sin(V);
  case Builtin::Cos:
    return std::cos(V);
  case Builtin::Sigmoid:
    return 1.0 / (1.0 + std::exp(-V));
  default:
    return std::ceil(V);
  }
}

/// Describes why `E` is not a compile-time constant ("'N' is a symbolic
/// dimension, known only at run time"), or returns empty.
std::string whyNotConstant(const Expr &E) {
  if (const auto *Name = dyn_cast<NameExpr>(&E)) {
    if (Name->Sym && !Name->Sym->Const)
      return "'" + Name->Name + "' is a " + Name->Sym->describeKind() +
             ", known only at run time";
    return {};
  }
  if (const auto *Index = dyn_cast<IndexExpr>(&E))
    return "'" + Index->Name + "[...]' reads memory at run time";
  std::string Reason;
  forEachChild(E, [&](const Expr &Child) {
    if (Reason.empty() && !Child.Const)
      Reason = whyNotConstant(Child);
  });
  return Reason;
}

/// Collects the compile-time parameters set by -D that `E` refers to.
void collectDefined(const Expr &E, std::vector<const Symbol *> &Out) {
  if (const auto *Name = dyn_cast<NameExpr>(&E))
    if (Name->Sym && Name->Sym->K == Symbol::Kind::ConstParam &&
        !Name->Sym->Define.empty() &&
        std::find(Out.begin(), Out.end(), Name->Sym) == Out.end())
      Out.push_back(Name->Sym);
  forEachChild(E, [&](const Expr &Child) { collectDefined(Child, Out); });
}

/// Returns true for the integer-valued types: untyped integers and integer
/// scalars (including index).
bool isIntegerValued(const ExprType &Ty) {
  return Ty.getKind() == ExprType::Kind::UntypedInt ||
         (Ty.isScalar() && isInteger(Ty.getScalar()));
}

} // namespace

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

void Sema::countNodes(std::uint64_t N, SourceLoc Loc) {
  if (!NodeCount)
    return;
  constexpr std::uint64_t Cap = std::uint64_t(1) << 62;
  *NodeCount = N >= Cap - std::min(*NodeCount, Cap) ? Cap : *NodeCount + N;
  if (CurKernel && !NodeBudgetReported &&
      *NodeCount > limits::MaxInlinedNodes) {
    NodeBudgetReported = true;
    Diags.error(Loc, "kernel '" + CurKernel->Decl->Name.Name +
                         "' is too large: more than " +
                         std::to_string(limits::MaxInlinedNodes) +
                         " expression nodes after inlining functions");
  }
}

void Sema::noteDefines(const Expr &E) {
  std::vector<const Symbol *> Defined;
  collectDefined(E, Defined);
  for (const Symbol *S : Defined)
    Diags.note(S->Loc, "'" + S->Name + "' is " + S->Const->toString() +
                           ", set by -D " + S->Define);
}

std::optional<ScalarKind> Sema::resolveTypeName(const Ident &Name,
                                                bool AllowIndex) {
  if (std::optional<ScalarKind> Kind = parseElementType(Name.Name))
    return Kind;
  if (Name.Name == "index") {
    if (AllowIndex)
      return ScalarKind::Index;
    Diags.error(Name.Loc, std::string("'index' is not an element type (") +
                              getElementTypeList() + ")");
    return std::nullopt;
  }
  if (const Symbol *S = lookup(Name.Name)) {
    if (S->Ty.isError())
      return std::nullopt;
    if (S->K == Symbol::Kind::ConstParam &&
        S->Ty.getKind() == ExprType::Kind::TypeValue)
      return S->Const->Type;
    Diags.error(Name.Loc, "'" + Name.Name + "' is a " + S->describeKind() +
                              ", not a type");
    Diags.note(S->Loc, "'" + Name.Name + "' is declared here");
    return std::nullopt;
  }
  Diags.error(Name.Loc, "unknown type '" + Name.Name + "' (expected " +
                            (AllowIndex ? "index or " : "") +
                            "an element type: " + getElementTypeList() + ")");
  return std::nullopt;
}

bool Sema::inferValue(Expr &E) {
  infer(E);
  const char *Problem = nullptr;
  switch (E.Ty.getKind()) {
  case ExprType::Kind::Error:
    return false;
  case ExprType::Kind::Buffer: {
    std::string Name = "it";
    if (const auto *N = dyn_cast<NameExpr>(&E))
      Name = "'" + N->Name + "'";
    const Symbol *Sym = isa<NameExpr>(&E) ? cast<NameExpr>(E).Sym : nullptr;
    Diags.error(E.getLoc(),
                Name + " is a " +
                    (Sym ? Sym->describeKind() : std::string("buffer")) +
                    ", not a scalar value; use one of its elements, like " +
                    (Sym ? Sym->Name : std::string("X")) + "[i]");
    E.Ty = ExprType::getError();
    return false;
  }
  case ExprType::Kind::TypeValue:
    Problem = "an element type cannot be used as a value";
    break;
  case ExprType::Kind::String:
    Problem = "a string can only be the message of 'print'";
    break;
  case ExprType::Kind::Shape:
    Problem = "a list can only be the shape of an allocation";
    break;
  default:
    return true;
  }
  Diags.error(E.getLoc(), Problem);
  E.Ty = ExprType::getError();
  return false;
}

bool Sema::coerce(Expr &E, ScalarKind K) {
  if (E.Ty.isError())
    return false;
  if (!E.Ty.isUntyped())
    return true;
  if (K == ScalarKind::Bool) {
    Diags.error(E.getLoc(), "expected a bool value, got " + E.Ty.describe());
    E.Ty = ExprType::getError();
    return false;
  }
  if (E.Ty.getKind() == ExprType::Kind::UntypedFloat && !isFloat(K)) {
    Diags.error(E.getLoc(), std::string("a floating-point value cannot be "
                                        "used as ") +
                                getSpelling(K));
    E.Ty = ExprType::getError();
    return false;
  }
  if (E.Const) {
    if (isFloat(K)) {
      double V = toDouble(*E.Const);
      if (std::isfinite(V) && std::fabs(V) > getMaxFinite(K)) {
        Diags.error(E.getLoc(), "constant " + formatDouble(V) +
                                    " is out of range for " + getSpelling(K));
        E.Ty = ExprType::getError();
        return false;
      }
      E.Const = Constant::getFloat(V);
    } else if (!fitsInInteger(E.Const->Int, K)) {
      Diags.error(E.getLoc(), "constant " + std::to_string(E.Const->Int) +
                                  " does not fit in " + getSpelling(K));
      E.Ty = ExprType::getError();
      return false;
    }
    E.Ty = ExprType::getScalar(K);
    return true;
  }
  // A conditional over untyped branches: give both the type.
  auto &Ternary = cast<TernaryExpr>(E);
  bool Ok = coerce(*Ternary.Then, K);
  Ok &= coerce(*Ternary.Else, K);
  E.Ty = Ok ? ExprType::getScalar(K) : ExprType::getError();
  return Ok;
}

void Sema::resolveDefault(Expr &E) {
  if (E.Ty.getKind() == ExprType::Kind::UntypedInt)
    coerce(E, ScalarKind::Index);
  else if (E.Ty.getKind() == ExprType::Kind::UntypedFloat)
    coerce(E, ScalarKind::F32);
}

bool Sema::checkValueOf(Expr &E, ScalarKind K, const std::string &What) {
  if (!inferValue(E) || !coerce(E, K))
    return false;
  if (E.Ty.isScalar(K))
    return true;
  std::string Message =
      What + " must be " + getSpelling(K) + ", got " + E.Ty.describe();
  if (K != ScalarKind::Bool && E.Ty.isNumeric())
    Message += std::string("; use cast<") + getSpelling(K) + ">(...)";
  Diags.error(E.getLoc(), Message);
  return false;
}

std::optional<std::int64_t> Sema::evalConstInt(Expr &E,
                                               const std::string &What) {
  if (!inferValue(E))
    return std::nullopt;
  if (!isIntegerValued(E.Ty)) {
    Diags.error(E.getLoc(),
                What + " must be an integer, got " + E.Ty.describe());
    return std::nullopt;
  }
  if (E.Const) {
    if (E.Ty.isUntyped())
      coerce(E, ScalarKind::Index);
    return E.Const->Int;
  }
  std::string Reason = whyNotConstant(E);
  Diags.error(E.getBeginLoc(), What + " must be a compile-time constant" +
                                   (Reason.empty() ? "" : ", but " + Reason));
  return std::nullopt;
}

std::optional<bool> Sema::evalConstBool(Expr &E, const std::string &What) {
  if (!inferValue(E))
    return std::nullopt;
  if (!E.Ty.isBool()) {
    Diags.error(E.getLoc(), What + " must be bool, got " + E.Ty.describe());
    return std::nullopt;
  }
  if (E.Const)
    return E.Const->Bool;
  std::string Reason = whyNotConstant(E);
  Diags.error(E.getBeginLoc(), What + " must be a compile-time constant" +
                                   (Reason.empty() ? "" : ", but " + Reason));
  return std::nullopt;
}

std::optional<ScalarKind> Sema::evalElementType(Expr &E,
                                                const std::string &What) {
  if (auto *Name = dyn_cast<NameExpr>(&E);
      Name && !lookup(Name->Name) && !parseScalarType(Name->Name) &&
      Name->Name != "inf" && Name->Name != "pi") {
    Diags.error(E.getLoc(), "unknown element type '" + Name->Name + "' (" +
                                getElementTypeList() + ")");
    return std::nullopt;
  }
  infer(E);
  if (E.Ty.isError())
    return std::nullopt;
  if (E.Ty.getKind() != ExprType::Kind::TypeValue || !E.Const) {
    Diags.error(E.getLoc(), What + " must be an element type (" +
                                getElementTypeList() + "), got " +
                                E.Ty.describe());
    return std::nullopt;
  }
  return E.Const->Type;
}

//===----------------------------------------------------------------------===//
// Inference
//===----------------------------------------------------------------------===//

void Sema::infer(Expr &E) {
  E.Ty = ExprType::getError();
  E.Const.reset();
  countNodes(1, E.getLoc());
  switch (E.getKind()) {
  case Expr::Kind::IntLiteral:
    E.Ty = ExprType::getUntypedInt();
    E.Const = Constant::getInt(cast<IntLiteralExpr>(E).Value);
    break;
  case Expr::Kind::FloatLiteral:
    E.Ty = ExprType::getUntypedFloat();
    E.Const = Constant::getFloat(cast<FloatLiteralExpr>(E).Value);
    break;
  case Expr::Kind::BoolLiteral:
    E.Ty = ExprType::getScalar(ScalarKind::Bool);
    E.Const = Constant::getBool(cast<BoolLiteralExpr>(E).Value);
    break;
  case Expr::Kind::StringLiteral:
    E.Ty = ExprType::getString();
    break;
  case Expr::Kind::Name:
    inferName(cast<NameExpr>(E));
    break;
  case Expr::Kind::Index:
    inferIndex(cast<IndexExpr>(E));
    break;
  case Expr::Kind::Call:
    inferCall(cast<CallExpr>(E));
    break;
  case Expr::Kind::Cast:
    inferCast(cast<CastExpr>(E));
    break;
  case Expr::Kind::Unary:
    inferUnary(cast<UnaryExpr>(E));
    break;
  case Expr::Kind::Binary:
    inferBinary(cast<BinaryExpr>(E));
    break;
  case Expr::Kind::Ternary:
    inferTernary(cast<TernaryExpr>(E));
    break;
  case Expr::Kind::List:
    E.Ty = ExprType::getShape();
    break;
  case Expr::Kind::Error:
    break;
  }
  const auto *Call = dyn_cast<CallExpr>(&E);
  if (Call && Call->Fn)
    return; // inferFnCall accounts for the inlined body.
  unsigned Height = 0;
  forEachChild(E, [&](const Expr &Child) {
    Height = std::max(Height, Child.InlinedHeight);
  });
  E.InlinedHeight = Height + 1;
  // Function bodies are measured once all are analyzed (measureInlining).
  if (CurKernel && Height == limits::MaxInlinedHeight) {
    reportInlinedTooDeep(E.getLoc(), nullptr);
    E.Ty = ExprType::getError();
  }
}

void Sema::reportInlinedTooDeep(SourceLoc Loc, const FnDecl *Callee) {
  Diags.error(Loc, "expression too deeply nested after inlining " +
                       (Callee ? "'" + Callee->Name.Name + "'"
                               : std::string("functions")) +
                       " (more than " +
                       std::to_string(limits::MaxInlinedHeight) + " levels)");
}

void Sema::inferName(NameExpr &E) {
  Symbol *S = lookup(E.Name);
  E.Sym = S;
  if (!S) {
    if (std::optional<ScalarKind> Kind = parseElementType(E.Name)) {
      E.Ty = ExprType::getTypeValue();
      E.Const = Constant::getType(*Kind);
    } else if (E.Name == "inf") {
      E.Ty = ExprType::getUntypedFloat();
      E.Const = Constant::getFloat(HUGE_VAL);
    } else if (E.Name == "pi") {
      E.Ty = ExprType::getUntypedFloat();
      E.Const = Constant::getFloat(3.14159265358979323846);
    } else if (E.Name == "index") {
      Diags.error(E.getLoc(), "'index' is a type and can only be used in "
                              "cast<index>(...) and function signatures");
    } else {
      std::string Suggestion = suggestName(E.Name);
      Diags.error(E.getLoc(), "use of undeclared identifier '" + E.Name + "'" +
                                  (Suggestion.empty() ? ""
                                                      : "; did you mean '" +
                                                            Suggestion + "'?"));
    }
    return;
  }
  if (S->Ty.isError())
    return;
  if ((S->K == Symbol::Kind::Buffer || S->K == Symbol::Kind::Tensor) &&
      S->Buffer.getRank() == 0) {
    E.Ty = ExprType::getScalar(S->Buffer.Elem);
    return;
  }
  E.Ty = S->Ty;
  E.Const = S->Const;
}

void Sema::inferIndex(IndexExpr &E) {
  Symbol *S = lookup(E.Name);
  E.Sym = S;
  if (!S) {
    std::string Suggestion = suggestName(E.Name);
    Diags.error(
        E.getLoc(),
        "use of undeclared identifier '" + E.Name + "'" +
            (Suggestion.empty() ? "" : "; did you mean '" + Suggestion + "'?"));
    return;
  }
  if (S->Ty.isError())
    return;
  if (S->K != Symbol::Kind::Tensor && S->K != Symbol::Kind::Buffer) {
    Diags.error(E.getLoc(), "'" + E.Name + "' is a " + S->describeKind() +
                                " and cannot be indexed");
    return;
  }
  const BufferInfo &Buffer = S->Buffer;
  if (Buffer.getRank() == 0) {
    Diags.error(E.getLoc(),
                "'" + E.Name + "' is a variable; use it without indices");
    return;
  }
  if (!Ctx.InLaunch) {
    Diags.error(E.getLoc(), "elements of '" + E.Name +
                                "' can only be accessed inside 'with kernel'");
    return;
  }
  if (Buffer.Scope == MemScope::Fragment && !Ctx.InParallel) {
    Diags.error(E.getLoc(),
                "fragment '" + E.Name +
                    "' can only be indexed inside a 'parallel' loop (each "
                    "element lives in the registers of one thread)");
    return;
  }
  if (E.Indices.size() != Buffer.getRank()) {
    Diags.error(E.getLoc(),
                "'" + E.Name + "' has " + std::to_string(Buffer.getRank()) +
                    " dimension" + (Buffer.getRank() == 1 ? "" : "s") +
                    " but " + std::to_string(E.Indices.size()) + " index" +
                    (E.Indices.size() == 1 ? " was" : "es were") + " given");
    return;
  }
  bool Ok = true;
  for (std::size_t I = 0; I != E.Indices.size(); ++I) {
    Expr &Index = *E.Indices[I];
    if (!checkValueOf(Index, ScalarKind::Index, "an index")) {
      Ok = false;
      continue;
    }
    std::int64_t Extent = Buffer.Shape[I];
    if (Index.Const && Buffer.Scope != MemScope::Global &&
        (Index.Const->Int < 0 || Index.Const->Int >= Extent)) {
      Diags.error(Index.getBeginLoc(),
                  "index " + std::to_string(Index.Const->Int) +
                      " is out of bounds for dimension " + std::to_string(I) +
                      " of '" + E.Name + "' (extent " + std::to_string(Extent) +
                      ")");
      Ok = false;
      continue;
    }
    // A loop variable of the enclosing `parallel` loop takes every value
    // below its extent (tiles, unlike tensors, have no bounds checks).
    auto *Name = dyn_cast<NameExpr>(&Index);
    if (!Name || Buffer.Scope == MemScope::Global)
      continue;
    for (const auto &[Var, LoopExtent] : Ctx.EveryIterationVars) {
      if (Name->Sym != Var || LoopExtent <= Extent)
        continue;
      Diags.error(
          Index.getBeginLoc(),
          "index '" + Name->Name + "' goes up to " +
              std::to_string(LoopExtent - 1) +
              " in its 'parallel' loop, out of bounds for dimension " +
              std::to_string(I) + " of '" + E.Name + "' (extent " +
              std::to_string(Extent) +
              "); guard the access with 'if' (both branches of '?:' are "
              "evaluated)");
      Ok = false;
    }
  }
  if (Ok)
    E.Ty = ExprType::getScalar(Buffer.Elem);
}

void Sema::inferCall(CallExpr &E) {
  if (auto It = Fns.find(E.Callee); It != Fns.end()) {
    E.Fn = It->second;
    inferFnCall(E, *E.Fn);
    return;
  }
  std::optional<Builtin> Id = lookupBuiltin(E.Callee);
  if (!Id) {
    // Functions, scalar builtins and allocations (`let s = alloc_shard(...)`).
    std::vector<std::string_view> Candidates;
    for (const auto &Fn : Fns)
      Candidates.push_back(Fn.first);
    for (const BuiltinInfo &Info : getBuiltins())
      if (Info.Category == BuiltinCategory::Scalar ||
          Info.Category == BuiltinCategory::Allocation)
        Candidates.push_back(Info.Name);
    std::string Suggestion = closestName(E.Callee, Candidates);
    Diags.error(
        E.getLoc(),
        "unknown function '" + E.Callee + "'" +
            (Suggestion.empty() ? "" : "; did you mean '" + Suggestion + "'?"));
    return;
  }
  E.BuiltinId = Id;
  const BuiltinInfo &Info = getBuiltinInfo(*Id);
  switch (Info.Category) {
  case BuiltinCategory::Allocation:
    Diags.error(E.getLoc(), "'" + E.Callee +
                                "' can only initialize a 'let' directly "
                                "inside 'with kernel'");
    return;
  case BuiltinCategory::Statement:
    Diags.error(E.getLoc(),
                "'" + E.Callee + "' is a statement and has no value");
    return;
  case BuiltinCategory::LoopRange:
    Diags.error(E.getLoc(),
                "'" + E.Callee + "' can only be the range of a 'for' loop");
    return;
  case BuiltinCategory::Scalar:
    inferScalarBuiltin(E, *Id);
    return;
  }
}

void Sema::inferFnCall(CallExpr &E, const FnDecl &Fn) {
  E.InlinedHeight = 1;
  if (!E.NamedArgs.empty()) {
    Diags.error(E.NamedArgs.front().Name.Loc,
                "function '" + Fn.Name.Name + "' takes no named arguments");
    return;
  }
  if (E.Args.size() != Fn.Params.size()) {
    Diags.error(E.getLoc(), "function '" + Fn.Name.Name + "' expects " +
                                std::to_string(Fn.Params.size()) + " argument" +
                                (Fn.Params.size() == 1 ? "" : "s") + ", got " +
                                std::to_string(E.Args.size()));
    Diags.note(Fn.Name.Loc, "'" + Fn.Name.Name + "' is defined here");
    return;
  }
  bool Ok = Fn.SignatureValid;
  unsigned Height = Fn.InlinedHeight;
  for (std::size_t I = 0; I != E.Args.size(); ++I) {
    Expr &Arg = *E.Args[I];
    if (Fn.SignatureValid)
      Ok &= checkValueOf(Arg, Fn.ParamKinds[I],
                         "argument " + std::to_string(I + 1) + " of '" +
                             Fn.Name.Name + "'");
    else
      inferValue(Arg);
    Height = std::max(Height, Arg.InlinedHeight);
  }
  countNodes(Fn.InlinedNodes, E.getLoc());
  E.InlinedHeight = Height + 1;
  // Function bodies are measured once all are analyzed (measureInlining); a
  // callee or an argument already too deep was reported where it crossed
  // the limit.
  if (CurKernel && Height == limits::MaxInlinedHeight) {
    reportInlinedTooDeep(E.getLoc(), &Fn);
    return;
  }
  if (Ok)
    E.Ty = ExprType::getScalar(Fn.ResultKind);
}

void Sema::inferScalarBuiltin(CallExpr &E, Builtin Id) {
  if (!checkArity(E, Id) || !checkNamedArgs(E, Id))
    return;
  const char *Name = getBuiltinInfo(Id).Name;
  switch (Id) {
  case Builtin::Abs: {
    Expr &Arg = *E.Args[0];
    if (!inferValue(Arg))
      return;
    if (!Arg.Ty.isNumeric()) {
      Diags.error(Arg.getLoc(),
                  "'abs' expects a number, got " + Arg.Ty.describe());
      return;
    }
    if (Arg.Ty.isUntyped() && !Arg.Const)
      resolveDefault(Arg);
    E.Ty = Arg.Ty;
    if (Arg.Const &&
        (Arg.Ty.isUntyped() || Arg.Ty.isScalar(ScalarKind::Index))) {
      if (Arg.Const->K == Constant::Kind::Float) {
        E.Const = Constant::getFloat(std::fabs(Arg.Const->Float));
      } else if (Arg.Const->Int == INT64_MIN) {
        Diags.error(E.getLoc(), "integer overflow in a constant expression");
        E.Ty = ExprType::getError();
      } else {
        E.Const = Constant::getInt(std::abs(Arg.Const->Int));
      }
    }
    return;
  }
  case Builtin::Max:
  case Builtin::Min:
  case Builtin::Ceildiv: {
    Expr &LHS = *E.Args[0];
    Expr &RHS = *E.Args[1];
    bool LOk = inferValue(LHS);
    if (!inferValue(RHS) || !LOk)
      return;
    for (Expr *Arg : {&LHS, &RHS})
      if (!Arg->Ty.isNumeric()) {
        Diags.error(Arg->getLoc(), std::string("'") + Name +
                                       "' expects numbers, got " +
                                       Arg->Ty.describe());
        return;
      }
    ExprType Ty = unify(LHS, RHS, E.getLoc(), std::string("'") + Name + "'");
    if (Ty.isError())
      return;
    if (Id == Builtin::Ceildiv && !isIntegerValued(Ty)) {
      Diags.error(E.getLoc(),
                  "'ceildiv' expects integers, got " + Ty.describe());
      return;
    }
    E.Ty = Ty;
    if (Id == Builtin::Ceildiv && RHS.Const &&
        RHS.Const->K == Constant::Kind::Int && RHS.Const->Int == 0) {
      Diags.error(E.getLoc(), "division by zero in 'ceildiv'");
      E.Ty = ExprType::getError();
      return;
    }
    if (!LHS.Const || !RHS.Const ||
        !(Ty.isUntyped() || Ty.isScalar(ScalarKind::Index)))
      return;
    if (Id == Builtin::Ceildiv) {
      std::int64_t A = LHS.Const->Int, B = RHS.Const->Int;
      if (A == INT64_MIN && B == -1) {
        Diags.error(E.getLoc(), "integer overflow in a constant expression");
        E.Ty = ExprType::getError();
        return;
      }
      std::int64_t Q = A / B;
      if (A % B != 0 && ((A < 0) == (B < 0)))
        ++Q;
      E.Const = Constant::getInt(Q);
      return;
    }
    bool TakeLHS;
    if (LHS.Const->K == Constant::Kind::Float ||
        RHS.Const->K == Constant::Kind::Float)
      TakeLHS =
          (toDouble(*LHS.Const) > toDouble(*RHS.Const)) == (Id == Builtin::Max);
    else
      TakeLHS = (LHS.Const->Int > RHS.Const->Int) == (Id == Builtin::Max);
    Constant Result = TakeLHS ? *LHS.Const : *RHS.Const;
    if (Ty.getKind() == ExprType::Kind::UntypedFloat)
      Result = Constant::getFloat(toDouble(Result));
    E.Const = Result;
    return;
  }
  case Builtin::Pow:
  case Builtin::Fma:
    inferFloatBuiltin(E, Id);
    return;
  default: {
    Expr &Arg = *E.Args[0];
    if (!inferValue(Arg))
      return;
    if (Arg.Ty.isUntyped()) {
      if (Arg.Const) {
        double Result = applyMath(Id, toDouble(*Arg.Const));
        if (!std::isnan(Result)) {
          E.Ty = ExprType::getUntypedFloat();
          E.Const = Constant::getFloat(Result);
          return;
        }
      }
      if (Arg.Const && Arg.Ty.getKind() == ExprType::Kind::UntypedInt)
        coerce(Arg, ScalarKind::F32);
      else
        resolveDefault(Arg);
      if (Arg.Ty.isError())
        return;
    }
    if (!Arg.Ty.isScalar() || !isFloat(Arg.Ty.getScalar())) {
      Diags.error(Arg.getLoc(), std::string("'") + Name +
                                    "' expects a floating-point argument, "
                                    "got " +
                                    Arg.Ty.describe() + "; use cast<f32>(...)");
      return;
    }
    E.Ty = Arg.Ty;
    return;
  }
  }
}

void Sema::inferFloatBuiltin(CallExpr &E, Builtin Id) {
  const char *Name = getBuiltinInfo(Id).Name;
  bool Ok = true;
  for (ExprPtr &Arg : E.Args)
    Ok &= inferValue(*Arg);
  if (!Ok)
    return;
  for (ExprPtr &Arg : E.Args)
    if (!Arg->Ty.isNumeric()) {
      Diags.error(Arg->getLoc(), std::string("'") + Name +
                                     "' expects numbers, got " +
                                     Arg->Ty.describe());
      return;
    }
  // Constants fold, in double.
  if (std::all_of(E.Args.begin(), E.Args.end(), [](const ExprPtr &Arg) {
        return Arg->Ty.isUntyped() && Arg->Const.has_value();
      })) {
    double A = toDouble(*E.Args[0]->Const), B = toDouble(*E.Args[1]->Const);
    double Result = Id == Builtin::Pow
                        ? std::pow(A, B)
                        : std::fma(A, B, toDouble(*E.Args[2]->Const));
    if (!std::isnan(Result) && !std::isinf(Result)) {
      E.Ty = ExprType::getUntypedFloat();
      E.Const = Constant::getFloat(Result);
      return;
    }
  }
  // One type for all the arguments: unify neighbours, then the first two
  // again in case the last pair fixed the middle one's type.
  std::string What = std::string("'") + Name + "'";
  ExprType Ty = unify(*E.Args[0], *E.Args[1], E.getLoc(), What);
  if (!Ty.isError() && E.Args.size() == 3) {
    Ty = unify(*E.Args[1], *E.Args[2], E.getLoc(), What);
    if (!Ty.isError())
      Ty = unify(*E.Args[0], *E.Args[1], E.getLoc(), What);
  }
  if (Ty.isError())
    return;
  if (Ty.isUntyped()) {
    // Untyped integers whose result does not fold (pow(2, 1000)).
    for (ExprPtr &Arg : E.Args)
      if (!coerce(*Arg, ScalarKind::F32))
        return;
    Ty = ExprType::getScalar(ScalarKind::F32);
  }
  if (!Ty.isScalar() || !isFloat(Ty.getScalar())) {
    Diags.error(E.getLoc(), What + " expects floating-point arguments, got " +
                                Ty.describe() + "; use cast<f32>(...)");
    return;
  }
  E.Ty = Ty;
}

void Sema::inferCast(CastExpr &E) {
  std::optional<ScalarKind> Target =
      resolveTypeName(E.Target, /*AllowIndex=*/true);
  Expr &Operand = *E.Operand;
  if (!inferValue(Operand) || !Target)
    return;
  ScalarKind K = *Target;
  if (K == ScalarKind::Bool) {
    if (!Operand.Ty.isBool()) {
      Diags.error(E.getLoc(), "cannot cast " + Operand.Ty.describe() +
                                  " to bool; compare with 0 instead");
      return;
    }
    E.Ty = Operand.Ty;
    E.Const = Operand.Const;
    return;
  }
  if (Operand.Ty.isUntyped()) {
    if (!Operand.Const) {
      resolveDefault(Operand);
    } else {
      const Constant &C = *Operand.Const;
      if (isFloat(K)) {
        double V = toDouble(C);
        if (std::isfinite(V) && std::fabs(V) > getMaxFinite(K)) {
          Diags.error(E.getLoc(), "constant " + formatDouble(V) +
                                      " is out of range for " + getSpelling(K));
          return;
        }
        E.Const = Constant::getFloat(V);
      } else {
        std::int64_t V = C.Int;
        if (C.K == Constant::Kind::Float) {
          double T = std::trunc(C.Float);
          if (!std::isfinite(T) || T < -9.2233720368547758e18 ||
              T >= 9.2233720368547758e18) {
            Diags.error(E.getLoc(), "constant " + formatDouble(C.Float) +
                                        " does not fit in " + getSpelling(K));
            return;
          }
          V = static_cast<std::int64_t>(T);
        }
        if (!fitsInInteger(V, K)) {
          Diags.error(E.getLoc(), "constant " + std::to_string(V) +
                                      " does not fit in " + getSpelling(K));
          return;
        }
        E.Const = Constant::getInt(V);
      }
      E.Ty = ExprType::getScalar(K);
      return;
    }
    if (Operand.Ty.isError())
      return;
  }
  E.Ty = ExprType::getScalar(K);
  if (!Operand.Const)
    return;
  if (Operand.Ty.isScalar(K))
    E.Const = Operand.Const;
  else if (Operand.Ty.isBool())
    E.Const = isFloat(K) ? Constant::getFloat(Operand.Const->Bool ? 1 : 0)
                         : Constant::getInt(Operand.Const->Bool ? 1 : 0);
}

void Sema::inferUnary(UnaryExpr &E) {
  Expr &Operand = *E.Operand;
  if (!inferValue(Operand))
    return;
  if (E.Op == UnaryOp::Not) {
    if (!Operand.Ty.isBool()) {
      Diags.error(E.getLoc(),
                  "operand of '!' must be bool, got " + Operand.Ty.describe());
      return;
    }
    E.Ty = Operand.Ty;
    if (Operand.Const)
      E.Const = Constant::getBool(!Operand.Const->Bool);
    return;
  }
  if (!Operand.Ty.isNumeric()) {
    Diags.error(E.getLoc(), "operand of unary '-' must be a number, got " +
                                Operand.Ty.describe());
    return;
  }
  if (Operand.Ty.isUntyped() && !Operand.Const)
    resolveDefault(Operand);
  if (Operand.Ty.isError())
    return;
  E.Ty = Operand.Ty;
  if (!Operand.Const ||
      !(Operand.Ty.isUntyped() || Operand.Ty.isScalar(ScalarKind::Index)))
    return;
  if (Operand.Const->K == Constant::Kind::Float) {
    E.Const = Constant::getFloat(-Operand.Const->Float);
  } else if (Operand.Const->Int == INT64_MIN) {
    Diags.error(E.getLoc(), "integer overflow in a constant expression");
    E.Ty = ExprType::getError();
  } else {
    E.Const = Constant::getInt(-Operand.Const->Int);
  }
}

ExprType Sema::unify(Expr &LHS, Expr &RHS, SourceLoc Loc,
                     const std::string &What) {
  if (LHS.Ty.isError() || RHS.Ty.isError())
    return ExprType::getError();
  bool LUntyped = LHS.Ty.isUntyped(), RUntyped = RHS.Ty.isUntyped();
  auto IsFloatUntyped = [](const Expr &E) {
    return E.Ty.getKind() == ExprType::Kind::UntypedFloat;
  };
  if (LUntyped && RUntyped) {
    if (LHS.Const && RHS.Const)
      return IsFloatUntyped(LHS) || IsFloatUntyped(RHS)
                 ? ExprType::getUntypedFloat()
                 : ExprType::getUntypedInt();
    ScalarKind Default = IsFloatUntyped(LHS) || IsFloatUntyped(RHS)
                             ? ScalarKind::F32
                             : ScalarKind::Index;
    bool Ok = coerce(LHS, Default);
    if (!coerce(RHS, Default) || !Ok)
      return ExprType::getError();
  } else if (LUntyped || RUntyped) {
    Expr &Untyped = LUntyped ? LHS : RHS;
    Expr &Typed = LUntyped ? RHS : LHS;
    ScalarKind K = Typed.Ty.getScalar();
    if (IsFloatUntyped(Untyped) && !isFloat(K)) {
      Diags.error(Loc, "mismatched operand types for " + What + ": " +
                           Typed.Ty.describe() +
                           " and a floating-point value; use cast<f32>(...) "
                           "on the " +
                           Typed.Ty.describe() + " operand");
      return ExprType::getError();
    }
    if (!coerce(Untyped, K))
      return ExprType::getError();
  }
  if (LHS.Ty != RHS.Ty) {
    Diags.error(Loc, "mismatched operand types for " + What + ": " +
                         LHS.Ty.describe() + " and " + RHS.Ty.describe() +
                         "; use cast<T>(...) to convert one of them");
    return ExprType::getError();
  }
  return LHS.Ty;
}

void Sema::inferBinary(BinaryExpr &E) {
  bool LOk = inferValue(*E.LHS);
  if (!inferValue(*E.RHS) || !LOk)
    return;
  Expr &LHS = *E.LHS;
  Expr &RHS = *E.RHS;
  std::string Op = std::string("'") + getSpelling(E.Op) + "'";

  if (E.Op == BinaryOp::And || E.Op == BinaryOp::Or) {
    for (Expr *Operand : {&LHS, &RHS})
      if (!Operand->Ty.isBool()) {
        Diags.error(E.getLoc(), "operands of " + Op + " must be bool, got " +
                                    Operand->Ty.describe());
        return;
      }
    E.Ty = LHS.Ty;
    // A constant operand that decides the result folds it: `false && x` is
    // false and `true || x` is true whatever x is (operands have no effects).
    bool Decisive = E.Op == BinaryOp::Or;
    for (Expr *Operand : {&LHS, &RHS})
      if (Operand->Const && Operand->Const->Bool == Decisive)
        E.Const = Constant::getBool(Decisive);
    if (!E.Const && LHS.Const && RHS.Const)
      E.Const = Constant::getBool(!Decisive);
    return;
  }

  bool BoolAllowed = E.Op == BinaryOp::Eq || E.Op == BinaryOp::Ne;
  if (!BoolAllowed)
    for (Expr *Operand : {&LHS, &RHS})
      if (Operand->Ty.isBool()) {
        Diags.error(E.getLoc(),
                    "operands of " + Op + " must be numbers, got bool");
        return;
      }
  ExprType Ty = unify(LHS, RHS, E.getLoc(), Op);
  if (Ty.isError())
    return;
  bool Foldable =
      LHS.Const && RHS.Const &&
      (Ty.isUntyped() || Ty.isBool() || Ty.isScalar(ScalarKind::Index));

  if (isComparison(E.Op)) {
    E.Ty = ExprType::getScalar(ScalarKind::Bool);
    if (!Foldable)
      return;
    int Order;
    if (Ty.isBool())
      Order = int(LHS.Const->Bool) - int(RHS.Const->Bool);
    else if (LHS.Const->K == Constant::Kind::Float ||
             RHS.Const->K == Constant::Kind::Float) {
      double A = toDouble(*LHS.Const), B = toDouble(*RHS.Const);
      if (std::isnan(A) || std::isnan(B))
        return;
      Order = A < B ? -1 : A > B ? 1 : 0;
    } else {
      Order = LHS.Const->Int < RHS.Const->Int   ? -1
              : LHS.Const->Int > RHS.Const->Int ? 1
                                                : 0;
    }
    bool Result = false;
    switch (E.Op) {
    case BinaryOp::Eq:
      Result = Order == 0;
      break;
    case BinaryOp::Ne:
      Result = Order != 0;
      break;
    case BinaryOp::Lt:
      Result = Order < 0;
      break;
    case BinaryOp::Le:
      Result = Order <= 0;
      break;
    case BinaryOp::Gt:
      Result = Order > 0;
      break;
    default:
      Result = Order >= 0;
      break;
    }
    E.Const = Constant::getBool(Result);
    return;
  }

  E.Ty = Ty;
  if (E.Op == BinaryOp::Shl || E.Op == BinaryOp::Shr) {
    checkShift(E, Ty, Foldable);
    return;
  }
  // A constant zero divisor is an error even when the dividend is not
  // constant: the division would be undefined on every thread.
  bool Division = E.Op == BinaryOp::Div || E.Op == BinaryOp::Rem;
  if (Division && !Foldable && isIntegerValued(Ty) && RHS.Const &&
      RHS.Const->K == Constant::Kind::Int && RHS.Const->Int == 0) {
    Diags.error(E.getLoc(), "integer division by zero in " + Op);
    E.Ty = ExprType::getError();
    return;
  }
  if (!Foldable)
    return;
  if (Ty.getKind() == ExprType::Kind::UntypedFloat) {
    double A = toDouble(*LHS.Const), B = toDouble(*RHS.Const);
    double R = 0;
    switch (E.Op) {
    case BinaryOp::Add:
      R = A + B;
      break;
    case BinaryOp::Sub:
      R = A - B;
      break;
    case BinaryOp::Mul:
      R = A * B;
      break;
    case BinaryOp::Div:
      R = A / B;
      break;
    default:
      R = std::fmod(A, B);
      break;
    }
    // NaN (0.0 / 0.0, inf - inf) is a constant too: an untyped expression is
    // always a constant or a conditional.
    E.Const = Constant::getFloat(R);
    return;
  }
  std::int64_t A = LHS.Const->Int, B = RHS.Const->Int, R = 0;
  bool Overflow = false;
  switch (E.Op) {
  case BinaryOp::Add:
    Overflow = __builtin_add_overflow(A, B, &R);
    break;
  case BinaryOp::Sub:
    Overflow = __builtin_sub_overflow(A, B, &R);
    break;
  case BinaryOp::Mul:
    Overflow = __builtin_mul_overflow(A, B, &R);
    break;
  default:
    if (B == 0) {
      Diags.error(E.getLoc(), "division by zero in a constant expression");
      E.Ty = ExprType::getError();
      return;
    }
    Overflow = A == INT64_MIN && B == -1;
    if (!Overflow)
      R = E.Op == BinaryOp::Div ? A / B : A % B;
    break;
  }
  if (Overflow) {
    Diags.error(E.getLoc(), "integer overflow in a constant expression");
    E.Ty = ExprType::getError();
    return;
  }
  E.Const = Constant::getInt(R);
}

void Sema::checkShift(BinaryExpr &E, const ExprType &Ty, bool Foldable) {
  std::string Op = std::string("'") + getSpelling(E.Op) + "'";
  if (!isIntegerValued(Ty)) {
    Diags.error(E.getLoc(), "operands of " + Op + " must be integers, got " +
                                Ty.describe());
    E.Ty = ExprType::getError();
    return;
  }
  // Untyped constants and index are 64-bit.
  unsigned Width = Ty.isScalar() && Ty.getScalar() != ScalarKind::Index
                       ? getBitWidth(Ty.getScalar())
                       : 64;
  const Expr &Amount = *E.RHS;
  if (Amount.Const &&
      (Amount.Const->Int < 0 || Amount.Const->Int >= std::int64_t(Width))) {
    Diags.error(Amount.getBeginLoc(),
                "shift amount " + Amount.Const->toString() +
                    " is out of range for " + Ty.describe() + " (0 to " +
                    std::to_string(Width - 1) + ")");
    E.Ty = ExprType::getError();
    return;
  }
  if (!Foldable)
    return;
  std::int64_t A = E.LHS->Const->Int;
  unsigned B = static_cast<unsigned>(Amount.Const->Int);
  if (E.Op == BinaryOp::Shr) {
    E.Const = Constant::getInt(A >> B);
    return;
  }
  std::int64_t R =
      static_cast<std::int64_t>(static_cast<std::uint64_t>(A) << B);
  if ((R >> B) != A) {
    Diags.error(E.getLoc(), "integer overflow in a constant expression");
    E.Ty = ExprType::getError();
    return;
  }
  E.Const = Constant::getInt(R);
}

void Sema::inferTernary(TernaryExpr &E) {
  bool CondOk = inferValue(*E.Cond);
  bool ThenOk = inferValue(*E.Then);
  bool ElseOk = inferValue(*E.Else);
  if (!CondOk || !ThenOk || !ElseOk)
    return;
  if (!E.Cond->Ty.isBool()) {
    Diags.error(E.Cond->getLoc(), "the condition of '?:' must be bool, got " +
                                      E.Cond->Ty.describe());
    return;
  }
  Expr &Then = *E.Then;
  Expr &Else = *E.Else;
  if (Then.Ty.isUntyped() && Else.Ty.isUntyped()) {
    // Both branches take their type from the context.
    bool Float = Then.Ty.getKind() == ExprType::Kind::UntypedFloat ||
                 Else.Ty.getKind() == ExprType::Kind::UntypedFloat;
    E.Ty = Float ? ExprType::getUntypedFloat() : ExprType::getUntypedInt();
  } else {
    E.Ty = unify(Then, Else, E.getLoc(), "the branches of '?:'");
    if (E.Ty.isError())
      return;
  }
  if (E.Cond->Const) {
    Expr &Taken = E.Cond->Const->Bool ? Then : Else;
    if (Taken.Const) {
      E.Const = Taken.Const;
      if (E.Ty.getKind() == ExprType::Kind::UntypedFloat ||
          (E.Ty.isScalar() && isFloat(E.Ty.getScalar())))
        E.Const = Constant::getFloat(toDouble(*Taken.Const));
    }
  }
}
