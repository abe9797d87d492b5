//===- Sema.cpp - Semantic analysis of declarations and statements --------===//
//
// Drives the analysis: -D overrides, functions (signatures, recursion,
// bodies, then their size once inlined, callees first), kernels
// (compile-time parameters, runtime parameters and dims in ABI order, the
// launch) and statements with their placement rules. Expressions are in
// SemaExpr.cpp, tile statements and allocations in SemaBuiltins.cpp.
//
//===----------------------------------------------------------------------===//

#include "compiler/Sema.h"

#include "compiler/Casting.h"
#include "compiler/Limits.h"
#include "compiler/SemaImpl.h"
#include "compiler/Suggestions.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <tuple>

using namespace tilec;
using namespace tilec::ast;
using namespace tilec::detail;

namespace {

/// Returns the message explaining why `Name` cannot be declared, or empty.
std::string reservedNameMessage(std::string_view Name) {
  if (parseScalarType(Name))
    return "'" + std::string(Name) +
           "' is the name of a type and cannot be used as a name";
  if (Name == "inf" || Name == "pi")
    return "'" + std::string(Name) +
           "' is a builtin constant and cannot be redeclared";
  return {};
}

/// Parses the value of an integer `-D`: decimal or 0x-hexadecimal,
/// optionally negative, within int64.
std::optional<std::int64_t> parseDefineInt(std::string_view Text) {
  bool Negative = !Text.empty() && Text[0] == '-';
  if (Negative)
    Text.remove_prefix(1);
  unsigned Base = 10;
  if (Text.size() > 2 && Text[0] == '0' && (Text[1] == 'x' || Text[1] == 'X')) {
    Base = 16;
    Text.remove_prefix(2);
  }
  if (Text.empty())
    return std::nullopt;
  std::uint64_t Limit = Negative ? std::uint64_t(INT64_MAX) + 1 : INT64_MAX;
  std::uint64_t Value = 0;
  for (char C : Text) {
    unsigned Digit;
    if (C >= '0' && C <= '9')
      Digit = C - '0';
    else if (Base == 16 && C >= 'a' && C <= 'f')
      Digit = C - 'a' + 10;
    else if (Base == 16 && C >= 'A' && C <= 'F')
      Digit = C - 'A' + 10;
    else
      return std::nullopt;
    if (Value > (Limit - Digit) / Base)
      return std::nullopt;
    Value = Value * Base + Digit;
  }
  return Negative ? static_cast<std::int64_t>(0 - Value)
                  : static_cast<std::int64_t>(Value);
}

/// Collects the functions `E` calls (by name) into `Out`.
void collectCalls(const Expr &E,
                  const std::unordered_map<std::string, FnDecl *> &Fns,
                  std::vector<std::pair<FnDecl *, SourceLoc>> &Out) {
  if (const auto *Call = dyn_cast<CallExpr>(&E)) {
    auto It = Fns.find(Call->Callee);
    if (It != Fns.end())
      Out.push_back({It->second, Call->getLoc()});
  }
  forEachChild(E, [&](const Expr &Child) { collectCalls(Child, Fns, Out); });
}

} // namespace

std::optional<double> tilec::parseDefineFloat(std::string_view Text) {
  std::string_view Digits = Text;
  if (!Digits.empty() && Digits[0] == '-')
    Digits.remove_prefix(1);
  // No hexadecimal floats, `inf` or `nan`, which strtod would accept.
  if (Digits.empty() || !std::isdigit(static_cast<unsigned char>(Digits[0])))
    return std::nullopt;
  for (char C : Digits)
    if (!std::isdigit(static_cast<unsigned char>(C)) && C != '.' && C != 'e' &&
        C != 'E' && C != '+' && C != '-')
      return std::nullopt;
  std::string Copy(Text);
  char *End = nullptr;
  errno = 0;
  double Value = std::strtod(Copy.c_str(), &End);
  if (End != Copy.c_str() + Copy.size() || errno == ERANGE ||
      !std::isfinite(Value))
    return std::nullopt;
  return Value;
}

//===----------------------------------------------------------------------===//
// Scopes
//===----------------------------------------------------------------------===//

Symbol *Sema::lookup(std::string_view Name) const {
  std::string Key(Name);
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
    auto Found = It->find(Key);
    if (Found != It->end())
      return Found->second;
  }
  return nullptr;
}

Symbol *Sema::declare(Symbol::Kind K, const Ident &Name, ExprType Ty) {
  Symbol &S = Prog.Symbols.emplace_back();
  S.K = K;
  S.Name = Name.Name;
  S.Loc = Name.Loc;
  S.Ty = Ty;
  std::string Reserved = reservedNameMessage(Name.Name);
  if (!Reserved.empty()) {
    Diags.error(Name.Loc, Reserved);
    return &S;
  }
  if (const Symbol *Prev = lookup(Name.Name)) {
    Diags.error(Name.Loc, "redefinition of '" + Name.Name + "'");
    Diags.note(Prev->Loc, "'" + Name.Name + "' was declared here as a " +
                              Prev->describeKind());
    return &S;
  }
  Scopes.back()[Name.Name] = &S;
  return &S;
}

std::string Sema::suggestName(std::string_view Name) const {
  std::vector<std::string_view> Candidates;
  for (const auto &Scope : Scopes)
    for (const auto &Entry : Scope)
      Candidates.push_back(Entry.first);
  for (std::string_view Predefined : {"inf", "pi"})
    Candidates.push_back(Predefined);
  return closestName(Name, Candidates);
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

void Sema::run() {
  DefineUsed.assign(Options.Defines.size(), false);
  checkDefineList();

  std::unordered_map<std::string, const KernelDecl *> KernelsByName;
  for (const auto &Kernel : File.Kernels)
    KernelsByName.emplace(Kernel->Name.Name, Kernel.get());
  for (const std::string &Name : Options.SelectedKernels) {
    Prog.KernelFound.push_back(KernelsByName.count(Name) != 0);
    if (Prog.KernelFound.back() || !Options.ReportUnmatched)
      continue;
    std::string List;
    for (const auto &Kernel : File.Kernels)
      List += (List.empty() ? "" : ", ") + Kernel->Name.Name;
    Diags.error(SourceLoc(), "--kernel " + Name + ": no kernel named '" + Name +
                                 "' in " +
                                 (Diags.getFile() ? Diags.getFile()->getName()
                                                  : std::string("the file")));
    Diags.note(SourceLoc(), List.empty() ? "the file defines no kernels"
                                         : "kernels in the file: " + List);
  }

  collectFunctions();
  // Bodies in source order (so diagnostics come in order), then the inlined
  // size of each function, callees first.
  std::vector<FnDecl *> CalleesFirst = orderFunctions();
  for (const auto &Fn : File.Fns) {
    if (Diags.shouldStop())
      return;
    checkFunctionBody(*Fn);
  }
  for (FnDecl *Fn : CalleesFirst)
    measureInlining(*Fn);

  std::unordered_map<std::string, const KernelDecl *> Seen;
  Prog.Kernels.resize(File.Kernels.size());
  for (std::size_t I = 0; I != File.Kernels.size(); ++I) {
    if (Diags.shouldStop())
      return;
    KernelDecl &Kernel = *File.Kernels[I];
    KernelInfo &Info = Prog.Kernels[I];
    Info.Decl = &Kernel;
    Info.Selected =
        Options.SelectedKernels.empty() ||
        std::find(Options.SelectedKernels.begin(),
                  Options.SelectedKernels.end(),
                  Kernel.Name.Name) != Options.SelectedKernels.end();
    auto [It, Inserted] = Seen.emplace(Kernel.Name.Name, &Kernel);
    if (!Inserted) {
      Diags.error(Kernel.Name.Loc,
                  "redefinition of kernel '" + Kernel.Name.Name + "'");
      Diags.note(It->second->Name.Loc, "previous definition is here");
    } else if (auto Fn = Fns.find(Kernel.Name.Name); Fn != Fns.end()) {
      Diags.error(Kernel.Name.Loc, "kernel '" + Kernel.Name.Name +
                                       "' has the name of a function");
      Diags.note(Fn->second->Name.Loc, "the function is defined here");
    }
    checkKernel(Kernel, Info);
  }
  if (!Diags.shouldStop() && Options.ReportUnmatched)
    reportUnusedDefines();
  Prog.DefineUsed = DefineUsed;
}

void Sema::checkDefineList() {
  for (std::size_t I = 0; I != Options.Defines.size(); ++I)
    for (std::size_t J = 0; J != I; ++J)
      if (Options.Defines[I].Name == Options.Defines[J].Name) {
        Diags.error(SourceLoc(), "-D " + Options.Defines[I].Name +
                                     " is given more than once");
        DefineUsed[I] = true;
        break;
      }
}

void Sema::reportUnusedDefines() {
  for (std::size_t I = 0; I != Options.Defines.size(); ++I) {
    if (DefineUsed[I])
      continue;
    const Define &D = Options.Defines[I];
    std::string Where = Options.SelectedKernels.empty()
                            ? std::string("no kernel in ") +
                                  (Diags.getFile() ? Diags.getFile()->getName()
                                                   : std::string("the file"))
                            : std::string("no selected kernel");
    Diags.error(SourceLoc(), "-D " + D.Name + "=" + D.Value + ": " + Where +
                                 " has a compile-time parameter named '" +
                                 D.Name + "'");
    std::vector<std::string_view> Candidates;
    const Symbol *Dim = nullptr;
    const Symbol *Scalar = nullptr;
    std::string ScalarKernel;
    for (const KernelInfo &Info : Prog.Kernels) {
      if (!Info.Selected)
        continue;
      for (const Symbol *Param : Info.ConstParams)
        Candidates.push_back(Param->Name);
      for (const Symbol *S : Info.Dims)
        if (!Dim && S->Name == D.Name)
          Dim = S;
      for (const Symbol *S : Info.Scalars)
        if (!Scalar && S->Name == D.Name) {
          Scalar = S;
          ScalarKernel = Info.Decl->Name.Name;
        }
    }
    if (Dim) {
      Diags.note(Dim->Loc, "'" + D.Name +
                               "' is a symbolic dimension: its value comes "
                               "from the tensors at run time");
      continue;
    }
    if (Scalar) {
      Diags.note(Scalar->Loc,
                 "'" + D.Name +
                     "' is a runtime scalar parameter: its value is passed "
                     "at launch; to fix it at compile time, make it a "
                     "compile-time parameter (kernel " +
                     ScalarKernel + "<" + D.Name + " = ...>(...))");
      continue;
    }
    std::string Suggestion = closestName(D.Name, Candidates);
    if (!Suggestion.empty())
      Diags.note(SourceLoc(), "did you mean '" + Suggestion + "'?");
  }
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

void Sema::collectFunctions() {
  for (const auto &Fn : File.Fns) {
    const std::string &Name = Fn->Name.Name;
    if (lookupBuiltin(Name)) {
      Diags.error(Fn->Name.Loc,
                  "'" + Name + "' is a builtin and cannot be redefined");
      checkFunctionSignature(*Fn);
      continue;
    }
    std::string Reserved = reservedNameMessage(Name);
    if (!Reserved.empty()) {
      Diags.error(Fn->Name.Loc, Reserved);
      checkFunctionSignature(*Fn);
      continue;
    }
    auto [It, Inserted] = Fns.emplace(Name, Fn.get());
    if (!Inserted) {
      Diags.error(Fn->Name.Loc, "redefinition of function '" + Name + "'");
      Diags.note(It->second->Name.Loc, "previous definition is here");
    }
    checkFunctionSignature(*Fn);
  }
}

void Sema::checkFunctionSignature(FnDecl &Fn) {
  bool Valid = true;
  for (const FnParamDecl &Param : Fn.Params) {
    std::optional<ScalarKind> Kind =
        resolveTypeName(Param.TypeName, /*AllowIndex=*/true);
    Valid &= Kind.has_value();
    Fn.ParamKinds.push_back(Kind.value_or(ScalarKind::F32));
  }
  std::optional<ScalarKind> Result =
      resolveTypeName(Fn.ResultType, /*AllowIndex=*/true);
  Valid &= Result.has_value();
  Fn.ResultKind = Result.value_or(ScalarKind::F32);
  Fn.SignatureValid = Valid;
}

std::vector<FnDecl *> Sema::orderFunctions() {
  // The call graph, by index into File.Fns.
  std::unordered_map<const FnDecl *, std::size_t> IndexOf;
  for (std::size_t I = 0; I != File.Fns.size(); ++I)
    IndexOf.emplace(File.Fns[I].get(), I);
  std::vector<std::vector<std::pair<FnDecl *, SourceLoc>>> Calls(
      File.Fns.size());
  for (std::size_t I = 0; I != File.Fns.size(); ++I)
    for (const StmtPtr &S : File.Fns[I]->Body.Stmts) {
      if (const auto *Let = dyn_cast<LetStmt>(S.get()))
        collectCalls(*Let->Init, Fns, Calls[I]);
      else if (const auto *Return = dyn_cast<ReturnStmt>(S.get()))
        collectCalls(*Return->Value, Fns, Calls[I]);
    }

  // Iterative depth-first search: post-order gives callees first; an edge
  // to a function still on the stack closes a cycle.
  enum class Color { White, Gray, Black };
  std::vector<Color> Colors(File.Fns.size(), Color::White);
  std::vector<FnDecl *> Order;
  struct Frame {
    std::size_t Fn;
    std::size_t NextCall;
  };
  std::vector<Frame> Stack;
  for (std::size_t Root = 0; Root != File.Fns.size(); ++Root) {
    if (Colors[Root] != Color::White)
      continue;
    Colors[Root] = Color::Gray;
    Stack.push_back({Root, 0});
    while (!Stack.empty()) {
      Frame &Top = Stack.back();
      if (Top.NextCall == Calls[Top.Fn].size()) {
        Colors[Top.Fn] = Color::Black;
        Order.push_back(File.Fns[Top.Fn].get());
        Stack.pop_back();
        continue;
      }
      auto [Callee, Loc] = Calls[Top.Fn][Top.NextCall++];
      std::size_t CalleeIndex = IndexOf[Callee];
      if (Colors[CalleeIndex] == Color::White) {
        Colors[CalleeIndex] = Color::Gray;
        Stack.push_back({CalleeIndex, 0});
        continue;
      }
      if (Colors[CalleeIndex] != Color::Gray)
        continue;
      // A cycle: the stack from the callee up to the caller, then the callee.
      std::size_t First = Stack.size();
      while (First > 0 && Stack[First - 1].Fn != CalleeIndex)
        --First;
      std::vector<std::string_view> Cycle;
      for (std::size_t I = First - 1; I != Stack.size(); ++I)
        Cycle.push_back(File.Fns[Stack[I].Fn]->Name.Name);
      Cycle.push_back(Callee->Name.Name);
      constexpr std::size_t MaxShown = 8;
      std::string Path;
      for (std::size_t I = 0; I != Cycle.size(); ++I) {
        if (Cycle.size() > MaxShown && I == MaxShown / 2) {
          Path += " -> ...";
          I = Cycle.size() - MaxShown / 2;
        }
        Path += (I == 0 ? "'" : " -> '") + std::string(Cycle[I]) + "'";
      }
      Diags.error(Loc, "recursive call to '" + Callee->Name.Name + "' (" +
                           Path +
                           "); functions are inlined and cannot recurse");
    }
  }
  return Order;
}

void Sema::checkFunctionBody(FnDecl &Fn) {
  StmtContext Saved = Ctx;
  Ctx = StmtContext();
  Ctx.InFn = true;
  pushScope();
  for (std::size_t I = 0; I != Fn.Params.size(); ++I)
    Fn.ParamSyms.push_back(declare(Symbol::Kind::FnParam, Fn.Params[I].Name,
                                   ExprType::getScalar(Fn.ParamKinds[I])));
  bool Returned = false;
  for (const StmtPtr &S : Fn.Body.Stmts) {
    if (Diags.shouldStop())
      break;
    if (Returned) {
      Diags.error(S->getLoc(), "statement after 'return'; 'return' must be "
                               "the last statement of a function");
      break;
    }
    if (auto *Let = dyn_cast<LetStmt>(S.get())) {
      checkLet(*Let);
    } else if (auto *Return = dyn_cast<ReturnStmt>(S.get())) {
      Returned = true;
      if (Fn.SignatureValid)
        checkValueOf(*Return->Value, Fn.ResultKind,
                     "the result of '" + Fn.Name.Name + "'");
      else
        inferValue(*Return->Value);
    } else {
      Diags.error(S->getLoc(), "a function body may only contain 'let' "
                               "statements and a final 'return'");
    }
  }
  if (!Returned && !Diags.shouldStop())
    Diags.error(Fn.Body.RBrace, "function '" + Fn.Name.Name +
                                    "' must end with a 'return' statement");
  popScope();
  Ctx = Saved;
}

std::pair<unsigned, std::uint64_t> Sema::measure(Expr &E, bool &Reported) {
  constexpr std::uint64_t Cap = std::uint64_t(1) << 62;
  unsigned Height = 0;
  std::uint64_t Nodes = 1;
  forEachChild(E, [&](Expr &Child) {
    auto [ChildHeight, ChildNodes] = measure(Child, Reported);
    Height = std::max(Height, ChildHeight);
    Nodes = std::min(Cap, Nodes + ChildNodes);
  });
  auto *Call = dyn_cast<CallExpr>(&E);
  const FnDecl *Callee = Call ? Call->Fn : nullptr;
  if (Callee) {
    Height = std::max(Height, Callee->InlinedHeight);
    Nodes = std::min(Cap, Nodes + Callee->InlinedNodes);
  }
  // Reported where the height crosses the limit (a deeper child or callee
  // was reported where it crossed it), whatever the node.
  if (Height == limits::MaxInlinedHeight && !Reported) {
    Reported = true;
    reportInlinedTooDeep(E.getLoc(), Callee);
  }
  E.InlinedHeight = Height + 1;
  return {Height + 1, Nodes};
}

void Sema::measureInlining(FnDecl &Fn) {
  constexpr std::uint64_t Cap = std::uint64_t(1) << 62;
  unsigned Height = 1;
  std::uint64_t Nodes = 0;
  bool Reported = false;
  for (const StmtPtr &S : Fn.Body.Stmts) {
    Expr *E = nullptr;
    if (auto *Let = dyn_cast<LetStmt>(S.get()))
      E = Let->Init.get();
    else if (auto *Return = dyn_cast<ReturnStmt>(S.get()))
      E = Return->Value.get();
    if (!E)
      continue;
    auto [ExprHeight, ExprNodes] = measure(*E, Reported);
    Height = std::max(Height, ExprHeight);
    Nodes = std::min(Cap, Nodes + ExprNodes);
  }
  Fn.InlinedHeight = Height;
  Fn.InlinedNodes = Nodes;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

void Sema::checkKernel(KernelDecl &Kernel, KernelInfo &Info) {
  CurKernel = &Info;
  ApplyDefines = Info.Selected;
  std::uint64_t Nodes = 0;
  NodeCount = &Nodes;
  NodeBudgetReported = false;
  Ctx = StmtContext();
  pushScope();
  checkConstParams(Kernel, Info);
  checkParams(Kernel, Info);

  bool SeenLaunch = false;
  for (const StmtPtr &S : Kernel.Body.Stmts) {
    if (Diags.shouldStop())
      break;
    if (SeenLaunch) {
      Diags.error(S->getLoc(), "statements after the 'with kernel' block are "
                               "not allowed; a kernel has exactly one launch");
      break;
    }
    if (auto *Let = dyn_cast<LetStmt>(S.get())) {
      checkLet(*Let);
    } else if (auto *Launch = dyn_cast<LaunchStmt>(S.get())) {
      SeenLaunch = true;
      checkLaunch(*Launch, Info);
    } else {
      Diags.error(S->getLoc(), "only 'let' statements and one 'with kernel' "
                               "block may appear at kernel level");
    }
  }
  if (!SeenLaunch && !Diags.shouldStop())
    Diags.error(Kernel.Name.Loc, "kernel '" + Kernel.Name.Name +
                                     "' has no 'with kernel(...)' block");
  popScope();
  NodeCount = nullptr;
  CurKernel = nullptr;
}

void Sema::checkConstParams(KernelDecl &Kernel, KernelInfo &Info) {
  for (ConstParamDecl &Param : Kernel.ConstParams) {
    Symbol *S =
        declare(Symbol::Kind::ConstParam, Param.Name, ExprType::getError());
    Param.Sym = S;
    Info.ConstParams.push_back(S);
    infer(*Param.Default);
    if (Param.Default->Ty.isError())
      continue;
    const std::optional<Constant> &Value = Param.Default->Const;
    if (!Value) {
      Diags.error(Param.Default->getBeginLoc(),
                  "the default of compile-time parameter '" + Param.Name.Name +
                      "' must be a number, a boolean or an element type");
      continue;
    }
    switch (Value->K) {
    case Constant::Kind::Int:
      S->Ty = ExprType::getUntypedInt();
      break;
    case Constant::Kind::Float:
      S->Ty = ExprType::getUntypedFloat();
      break;
    case Constant::Kind::Bool:
      S->Ty = ExprType::getScalar(ScalarKind::Bool);
      break;
    default:
      S->Ty = ExprType::getTypeValue();
      break;
    }
    S->Const = Value;
    if (ApplyDefines)
      applyDefine(*S, Kernel);
  }
}

void Sema::applyDefine(Symbol &Param, const KernelDecl &Kernel) {
  for (std::size_t I = 0; I != Options.Defines.size(); ++I) {
    const Define &D = Options.Defines[I];
    if (D.Name != Param.Name)
      continue;
    DefineUsed[I] = true;
    std::optional<Constant> Value;
    const char *Expected = "";
    switch (Param.Const->K) {
    case Constant::Kind::Int:
      Expected = "an integer";
      if (auto Int = parseDefineInt(D.Value))
        Value = Constant::getInt(*Int);
      break;
    case Constant::Kind::Float:
      Expected = "a number";
      if (auto Float = parseDefineFloat(D.Value))
        Value = Constant::getFloat(*Float);
      break;
    case Constant::Kind::Bool:
      Expected = "a boolean (true or false)";
      if (D.Value == "true" || D.Value == "false")
        Value = Constant::getBool(D.Value == "true");
      break;
    default:
      Expected = "an element type";
      if (auto Type = parseElementType(D.Value))
        Value = Constant::getType(*Type);
      break;
    }
    if (!Value) {
      std::string Message = "-D " + D.Name + "=" + D.Value + ": '" + D.Value +
                            "' is not " + Expected;
      if (Param.Const->K == Constant::Kind::Type)
        Message += std::string(" (") + getElementTypeList() + ")";
      Diags.error(SourceLoc(), Message);
      Diags.note(Param.Loc, "'" + Param.Name +
                                "' is a compile-time parameter of kernel '" +
                                Kernel.Name.Name + "' with default " +
                                Param.Const->toString());
      return;
    }
    Param.Const = Value;
    Param.Define = D.Name + "=" + D.Value;
    return;
  }
}

void Sema::checkParams(KernelDecl &Kernel, KernelInfo &Info) {
  if (Kernel.Params.size() > limits::MaxParams)
    Diags.error(Kernel.Params[limits::MaxParams].Name.Loc,
                "kernel '" + Kernel.Name.Name + "' has more than " +
                    std::to_string(limits::MaxParams) + " parameters");
  for (ParamDecl &Param : Kernel.Params) {
    if (Diags.shouldStop())
      return;
    std::optional<ScalarKind> Elem =
        resolveTypeName(Param.TypeName, /*AllowIndex=*/false);
    if (!Param.IsTensor) {
      Symbol *S =
          declare(Symbol::Kind::Scalar, Param.Name,
                  Elem ? ExprType::getScalar(*Elem) : ExprType::getError());
      Param.Sym = S;
      Info.Scalars.push_back(S);
      continue;
    }
    BufferInfo Buffer;
    Buffer.Scope = MemScope::Global;
    Buffer.Elem = Elem.value_or(ScalarKind::F32);
    bool Valid = Elem.has_value();
    if (Param.Dims.empty()) {
      Diags.error(Param.Name.Loc, "tensor '" + Param.Name.Name +
                                      "' needs at least one dimension");
      Valid = false;
    } else if (Param.Dims.size() > limits::MaxRank) {
      Diags.error(Param.Dims[limits::MaxRank].Loc,
                  "tensor '" + Param.Name.Name + "' has more than " +
                      std::to_string(limits::MaxRank) + " dimensions");
      Valid = false;
    }
    for (const DimDecl &Dim : Param.Dims) {
      std::int64_t Extent = BufferInfo::Dynamic;
      std::string Name;
      if (Dim.Name.empty()) {
        Extent = Dim.Value;
      } else if (Symbol *S = lookup(Dim.Name)) {
        if (S->K == Symbol::Kind::Dim) {
          Name = Dim.Name;
        } else if (S->K == Symbol::Kind::ConstParam &&
                   S->Ty.getKind() == ExprType::Kind::UntypedInt) {
          Extent = S->Const->Int;
        } else {
          if (!S->Ty.isError()) {
            Diags.error(Dim.Loc, "'" + Dim.Name + "' is a " +
                                     S->describeKind() + ", not a dimension");
            Diags.note(S->Loc, "'" + Dim.Name + "' is declared here");
          }
          Valid = false;
          continue;
        }
      } else {
        Ident DimName{Dim.Name, Dim.Loc};
        Info.Dims.push_back(declare(Symbol::Kind::Dim, DimName,
                                    ExprType::getScalar(ScalarKind::Index)));
        Name = Dim.Name;
      }
      if (Name.empty() && (Extent < 1 || Extent > limits::MaxTensorDim)) {
        Diags.error(Dim.Loc, "tensor dimension must be between 1 and " +
                                 std::to_string(limits::MaxTensorDim) +
                                 ", got " + std::to_string(Extent));
        if (!Dim.Name.empty())
          if (const Symbol *S = lookup(Dim.Name); S && !S->Define.empty())
            Diags.note(S->Loc, "'" + S->Name + "' is set by -D " + S->Define);
        Valid = false;
      }
      Buffer.Shape.push_back(Extent);
      Buffer.DimNames.push_back(Name);
    }
    Symbol *S = declare(Symbol::Kind::Tensor, Param.Name, ExprType::getError());
    Param.Sym = S;
    S->Buffer = std::move(Buffer);
    if (Valid)
      S->Ty = ExprType::getBuffer(&S->Buffer);
    Info.Tensors.push_back(S);
  }
}

void Sema::checkLaunch(LaunchStmt &Launch, KernelInfo &Info) {
  Info.Launch = &Launch;
  CallExpr &Config = *Launch.Config;
  std::size_t Rank = Config.Args.size();
  unsigned ErrorsBefore = Diags.getNumErrors();
  if (Rank == 0)
    Diags.error(Config.getLoc(),
                "'with kernel' needs 1 to 3 grid extents before 'threads'");
  if (Rank > 3) {
    Diags.error(Config.Args[3]->getBeginLoc(),
                "a grid has at most 3 dimensions, got " + std::to_string(Rank));
    Rank = 3;
  }
  for (std::size_t I = 0; I != Config.Args.size(); ++I) {
    Expr &Extent = *Config.Args[I];
    if (!checkValueOf(Extent, ScalarKind::Index, "a grid extent") ||
        !Extent.Const)
      continue;
    std::int64_t Max = I == 0 ? limits::MaxGridX : limits::MaxGridYZ;
    if (Extent.Const->Int < 1 || Extent.Const->Int > Max) {
      Diags.error(Extent.getBeginLoc(), std::string("grid extent ") +
                                            "xyz"[std::min<std::size_t>(I, 2)] +
                                            " must be between 1 and " +
                                            std::to_string(Max) + ", got " +
                                            std::to_string(Extent.Const->Int));
      noteDefines(Extent);
    }
  }
  Launch.Threads = 128;
  for (NamedArg &Arg : Config.NamedArgs) {
    if (Arg.Name.Name != "threads") {
      Diags.error(Arg.Name.Loc, "unknown named argument '" + Arg.Name.Name +
                                    "' for 'with kernel' (accepted: threads)");
      continue;
    }
    std::optional<std::int64_t> Threads =
        evalConstInt(*Arg.Value, "the number of threads");
    if (!Threads)
      continue;
    if (*Threads < limits::WarpSize || *Threads > limits::MaxThreads ||
        *Threads % limits::WarpSize != 0) {
      Diags.error(Arg.Value->getBeginLoc(),
                  "threads must be a multiple of 32 between 32 and 1024, got " +
                      std::to_string(*Threads));
      noteDefines(*Arg.Value);
      continue;
    }
    Launch.Threads = *Threads;
  }
  if (!Launch.BlockVars.empty() && Launch.BlockVars.size() != Rank && Rank)
    Diags.error(Launch.BlockVars.front().Loc,
                "the grid has " + std::to_string(Rank) + " dimension" +
                    (Rank == 1 ? "" : "s") + " but 'as' binds " +
                    std::to_string(Launch.BlockVars.size()) + " block index" +
                    (Launch.BlockVars.size() == 1 ? "" : "es"));
  if (Launch.BlockVars.empty() && Rank >= 2 &&
      Diags.getNumErrors() == ErrorsBefore)
    warnUnboundGrid(Config);

  pushScope();
  Launch.BlockSyms.assign(Rank, nullptr);
  for (std::size_t I = 0; I != Launch.BlockVars.size(); ++I) {
    Symbol *S = declare(Symbol::Kind::BlockIndex, Launch.BlockVars[I],
                        ExprType::getScalar(ScalarKind::Index));
    if (I < Rank)
      Launch.BlockSyms[I] = S;
  }
  StmtContext Saved = Ctx;
  Ctx = StmtContext();
  Ctx.InLaunch = true;
  Ctx.AtLaunchTop = true;
  SwizzleSeen = nullptr;
  for (const StmtPtr &S : Launch.Body.Stmts) {
    if (Diags.shouldStop())
      break;
    checkStmt(*S);
  }
  Ctx = Saved;
  popScope();
}

/// A grid of several dimensions whose block indices no `as` clause binds
/// repeats the same work in every block along y and z: most likely
/// `with kernel(ceildiv(N, 128), 128)` meant `threads = 128`.
void Sema::warnUnboundGrid(const CallExpr &Config) {
  const Expr &Y = *Config.Args[1];
  std::string Extent = Y.Const ? " (" + Y.Const->toString() + ")" : "";
  Diags.warning(Y.getBeginLoc(),
                "the grid's y extent" + Extent +
                    " has no block index: without an 'as' clause, the blocks "
                    "along y (and z) all do the same work");
  bool ThreadsGiven = !Config.NamedArgs.empty();
  if (Config.Args.size() == 2 && !ThreadsGiven && Y.Const &&
      Y.Const->K == Constant::Kind::Int && Y.Const->Int % limits::WarpSize == 0)
    Diags.note(Y.getBeginLoc(), "to launch " + Y.Const->toString() +
                                    " threads per block, write 'threads = " +
                                    Y.Const->toString() +
                                    "'; to use the grid, bind its block "
                                    "indices with 'as (bx, by)'");
  else
    Diags.note(Y.getBeginLoc(),
               "bind the block indices with 'as (bx, by" +
                   std::string(Config.Args.size() == 3 ? ", bz" : "") + ")'");
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void Sema::checkBlock(Block &B) {
  pushScope();
  for (const StmtPtr &S : B.Stmts) {
    if (Diags.shouldStop())
      break;
    checkStmt(*S);
  }
  popScope();
}

void Sema::checkStmt(Stmt &S) {
  switch (S.getKind()) {
  case Stmt::Kind::Let:
    return checkLet(cast<LetStmt>(S));
  case Stmt::Kind::Assign:
    return checkAssign(cast<AssignStmt>(S));
  case Stmt::Kind::Call:
    return checkCallStmt(cast<CallStmt>(S));
  case Stmt::Kind::For:
    return checkFor(cast<ForStmt>(S));
  case Stmt::Kind::If:
    return checkIf(cast<IfStmt>(S));
  case Stmt::Kind::Launch:
    Diags.error(S.getLoc(), "'with kernel' can only appear directly in a "
                            "kernel body");
    return;
  case Stmt::Kind::Return:
    Diags.error(S.getLoc(), "'return' can only end a function body");
    return;
  }
}

void Sema::checkLet(LetStmt &S) {
  if (auto *Call = dyn_cast<CallExpr>(S.Init.get())) {
    std::optional<Builtin> Id = lookupBuiltin(Call->Callee);
    if (Id && getBuiltinInfo(*Id).Category == BuiltinCategory::Allocation) {
      Call->BuiltinId = Id;
      if (!Ctx.AtLaunchTop) {
        Diags.error(Call->getLoc(), "'" + Call->Callee +
                                        "' can only be used directly inside "
                                        "'with kernel', not in a nested block, "
                                        "a function or before the launch");
        S.Sym = declare(Symbol::Kind::Buffer, S.Name, ExprType::getError());
        return;
      }
      S.Sym = checkAlloc(S, *Call, *Id);
      return;
    }
  }
  ExprType Ty = ExprType::getError();
  std::optional<Constant> Const;
  if (inferValue(*S.Init)) {
    if (S.Init->Ty.isUntyped() && !S.Init->Const)
      resolveDefault(*S.Init);
    Ty = S.Init->Ty;
    Const = S.Init->Const;
  }
  Symbol *Sym = declare(Symbol::Kind::Let, S.Name, Ty);
  Sym->Const = Const;
  S.Sym = Sym;
}

void Sema::checkAssign(AssignStmt &S) {
  ScalarKind Elem;
  std::string Target;
  if (auto *Name = dyn_cast<NameExpr>(S.Target.get())) {
    Symbol *Sym = lookup(Name->Name);
    Name->Sym = Sym;
    if (!Sym) {
      inferValue(*Name);
      inferValue(*S.Value);
      return;
    }
    if (Sym->K != Symbol::Kind::Buffer || Sym->Buffer.getRank() != 0) {
      if (Sym->Ty.isError()) {
        inferValue(*S.Value);
        return;
      }
      std::string Message = "cannot assign to '" + Name->Name + "': it is a " +
                            Sym->describeKind();
      if (Sym->K == Symbol::Kind::Let)
        Message += ", and 'let' values are immutable (use alloc_var for a "
                   "variable)";
      else if (Sym->K == Symbol::Kind::Tensor || Sym->K == Symbol::Kind::Buffer)
        Message += "; assign to an element like " + Name->Name + "[i]";
      Diags.error(Name->getLoc(), Message);
      Diags.note(Sym->Loc, "'" + Name->Name + "' is declared here");
      inferValue(*S.Value);
      return;
    }
    if (Sym->Ty.isError()) {
      inferValue(*S.Value);
      return;
    }
    Name->Ty = ExprType::getScalar(Sym->Buffer.Elem);
    Elem = Sym->Buffer.Elem;
    Target = "'" + Name->Name + "'";
  } else {
    auto &Index = cast<IndexExpr>(*S.Target);
    infer(Index);
    if (Index.Ty.isError()) {
      inferValue(*S.Value);
      return;
    }
    Elem = Index.Ty.getScalar();
    Target = "an element of '" + Index.Name + "'";
  }
  if (!inferValue(*S.Value) || !coerce(*S.Value, Elem))
    return;
  if (!S.Value->Ty.isScalar(Elem))
    Diags.error(S.Value->getLoc(),
                std::string("cannot assign a value of type ") +
                    S.Value->Ty.describe() + " to " + Target + " of type " +
                    getSpelling(Elem) + "; use cast<" + getSpelling(Elem) +
                    ">(...)");
}

void Sema::checkFor(ForStmt &S) {
  CallExpr &Range = *S.Range;
  std::optional<Builtin> Id = lookupBuiltin(Range.Callee);
  if (!Id || getBuiltinInfo(*Id).Category != BuiltinCategory::LoopRange) {
    std::string Suggestion = closestName(
        Range.Callee, {"parallel", "pipelined", "serial", "unroll"});
    Diags.error(
        Range.getLoc(),
        "expected a loop range ('parallel', 'pipelined', 'serial' or "
        "'unroll'), got '" +
            Range.Callee + "'" +
            (Suggestion.empty() ? "" : "; did you mean '" + Suggestion + "'?"));
    Id.reset();
  }
  Range.BuiltinId = Id;
  bool Parallel = Id == Builtin::Parallel;
  if (Id && checkArity(Range, *Id) && checkNamedArgs(Range, *Id)) {
    const char *Name = getBuiltinInfo(*Id).Name;
    if (Ctx.InParallel &&
        (*Id == Builtin::Parallel || *Id == Builtin::Pipelined))
      Diags.error(Range.getLoc(),
                  *Id == Builtin::Parallel
                      ? "'parallel' loops cannot be nested; write one loop "
                        "'for i, j in parallel(M, N)'"
                      : "'pipelined' cannot be used inside a 'parallel' loop");
    if (Parallel && S.Vars.size() != Range.Args.size())
      Diags.error(S.Vars.front().Loc,
                  "'parallel' has " + std::to_string(Range.Args.size()) +
                      " extent" + (Range.Args.size() == 1 ? "" : "s") +
                      " but " + std::to_string(S.Vars.size()) +
                      " loop variable" + (S.Vars.size() == 1 ? "" : "s"));
    if (!Parallel && S.Vars.size() != 1)
      Diags.error(S.Vars[1].Loc, std::string("'") + Name +
                                     "' takes exactly one loop variable");
    switch (*Id) {
    case Builtin::Parallel: {
      std::int64_t Elements = 1;
      for (const ExprPtr &Arg : Range.Args) {
        std::optional<std::int64_t> Extent =
            evalConstInt(*Arg, "the extent of a 'parallel' loop");
        if (!Extent)
          continue;
        if (*Extent < 1 || *Extent > limits::MaxTileExtent) {
          Diags.error(Arg->getBeginLoc(),
                      "'parallel' extent must be between 1 and " +
                          std::to_string(limits::MaxTileExtent) + ", got " +
                          std::to_string(*Extent));
          noteDefines(*Arg);
          continue;
        }
        S.Extents.push_back(*Extent);
        Elements *= *Extent;
        if (Elements > limits::MaxTileElements) {
          Diags.error(Arg->getBeginLoc(),
                      "'parallel' iteration space has more than " +
                          std::to_string(limits::MaxTileElements) + " points");
          Elements = 1;
        }
      }
      break;
    }
    case Builtin::Pipelined: {
      checkValueOf(*Range.Args[0], ScalarKind::Index,
                   "the trip count of 'pipelined'");
      S.Stages = 2;
      if (const NamedArg *Stages = Range.findNamedArg("stages")) {
        std::optional<std::int64_t> Value =
            evalConstInt(*Stages->Value, "the number of stages");
        if (Value && (*Value < 1 || *Value > limits::MaxStages)) {
          Diags.error(Stages->Value->getBeginLoc(),
                      "'pipelined' stages must be between 1 and " +
                          std::to_string(limits::MaxStages) + ", got " +
                          std::to_string(*Value));
          noteDefines(*Stages->Value);
        } else if (Value) {
          S.Stages = *Value;
        }
      }
      break;
    }
    case Builtin::Serial:
      checkValueOf(*Range.Args[0], ScalarKind::Index,
                   "the trip count of 'serial'");
      break;
    default: {
      std::optional<std::int64_t> Count =
          evalConstInt(*Range.Args[0], "the trip count of 'unroll'");
      if (Count && (*Count < 0 || *Count > limits::MaxUnroll)) {
        Diags.error(Range.Args[0]->getBeginLoc(),
                    "'unroll' trip count must be between 0 and " +
                        std::to_string(limits::MaxUnroll) + ", got " +
                        std::to_string(*Count));
        noteDefines(*Range.Args[0]);
      }
      break;
    }
    }
  }

  pushScope();
  for (const Ident &Var : S.Vars)
    S.VarSyms.push_back(declare(Symbol::Kind::LoopVar, Var,
                                ExprType::getScalar(ScalarKind::Index)));
  StmtContext Saved = Ctx;
  Ctx.AtLaunchTop = false;
  Ctx.InParallel |= Parallel;
  Ctx.EveryIterationVars.clear();
  if (Parallel && S.Extents.size() == S.VarSyms.size())
    for (std::size_t I = 0; I != S.VarSyms.size(); ++I)
      Ctx.EveryIterationVars.emplace_back(S.VarSyms[I], S.Extents[I]);
  checkBlock(S.Body);
  Ctx = Saved;
  popScope();
}

void Sema::checkIf(IfStmt &S) {
  if (inferValue(*S.Cond) && !S.Cond->Ty.isBool())
    Diags.error(S.Cond->getLoc(), "the condition of 'if' must be bool, got " +
                                      S.Cond->Ty.describe());
  StmtContext Saved = Ctx;
  Ctx.AtLaunchTop = false;
  Ctx.EveryIterationVars.clear();
  checkBlock(S.Then);
  if (S.Else)
    checkBlock(*S.Else);
  Ctx = Saved;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

std::unique_ptr<Program> tilec::analyze(File &F, const SemaOptions &Options,
                                        DiagnosticEngine &Diags) {
  auto Prog = std::make_unique<Program>();
  Sema(F, Options, Diags, *Prog).run();
  return Prog;
}

void tilec::checkSharedMemoryLimit(const KernelInfo &Kernel, Arch Target,
                                   DiagnosticEngine &Diags) {
  std::int64_t Limit = getMaxSharedMemoryPerBlock(Target);
  std::int64_t Total = 0;
  for (const SharedAllocation &Alloc : Kernel.SharedAllocations) {
    Total += Alloc.Bytes;
    if (Total <= Limit)
      continue;
    Diags.error(Alloc.Sym->Loc,
                "kernel '" + Kernel.Decl->Name.Name + "' needs " +
                    std::to_string(Total) +
                    " bytes of shared memory with this allocation, but " +
                    getArchName(Target) + " allows at most " +
                    std::to_string(Limit) + " bytes per block");
    return;
  }
}
