//===- SemaBuiltins.cpp - Allocations and tile statements -----------------===//
//
// Checks of `alloc_*` and of the tile statements (copy, gemm, fill, clear,
// reductions, use_swizzle, annotate_layout, print): arities, named arguments,
// operand scopes, shapes and element types. The shape and type rules mirror
// the verifiers of the tile dialect, so that a program accepted here
// produces verified IR.
//
//===----------------------------------------------------------------------===//

#include "compiler/Casting.h"
#include "compiler/Limits.h"
#include "compiler/SemaImpl.h"
#include "compiler/Suggestions.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::ast;
using namespace tilec::detail;

namespace {

/// Returns `'name' [shape]` for messages.
std::string describeOperand(const Symbol &S) {
  return "'" + S.Name + "' " + S.Buffer.describeShape();
}

/// Returns "a shared or fragment" for messages.
std::string describeScopes(std::initializer_list<MemScope> Scopes) {
  std::string Out = "a ";
  std::size_t I = 0;
  for (MemScope Scope : Scopes) {
    if (I)
      Out += ++I == Scopes.size() ? " or " : ", ";
    else
      ++I;
    Out += getSpelling(Scope);
  }
  return Out;
}

} // namespace

bool Sema::checkArity(const CallExpr &Call, Builtin Id) {
  const BuiltinInfo &Info = getBuiltinInfo(Id);
  std::size_t N = Call.Args.size();
  if (N >= Info.MinArgs && N <= Info.MaxArgs)
    return true;
  std::string Expected = std::to_string(Info.MinArgs);
  if (Info.MaxArgs == Info.MinArgs + 1)
    Expected += " or " + std::to_string(Info.MaxArgs);
  else if (Info.MaxArgs != Info.MinArgs)
    Expected += " to " + std::to_string(Info.MaxArgs);
  Diags.error(Call.getLoc(), "'" + Call.Callee + "' expects " + Expected +
                                 " argument" + (Info.MaxArgs == 1 ? "" : "s") +
                                 ", got " + std::to_string(N));
  return false;
}

bool Sema::checkNamedArgs(const CallExpr &Call, Builtin Id) {
  bool Ok = true;
  for (const NamedArg &Arg : Call.NamedArgs) {
    if (acceptsNamedArg(Id, Arg.Name.Name))
      continue;
    std::string Accepted = describeNamedArgs(Id);
    Diags.error(Arg.Name.Loc,
                Accepted.empty()
                    ? "'" + Call.Callee + "' takes no named arguments"
                    : "unknown named argument '" + Arg.Name.Name + "' for '" +
                          Call.Callee + "' (accepted: " + Accepted + ")");
    Ok = false;
  }
  return Ok;
}

Symbol *Sema::checkAlloc(LetStmt &S, CallExpr &Call, Builtin Id) {
  BufferInfo Buffer;
  Buffer.Scope = Id == Builtin::AllocShared     ? MemScope::Shared
                 : Id == Builtin::AllocFragment ? MemScope::Fragment
                                                : MemScope::Local;
  bool Ok = checkArity(Call, Id) && checkNamedArgs(Call, Id);
  std::string What = "'" + Call.Callee + "'";
  std::optional<ScalarKind> Elem;
  if (Ok && Id == Builtin::AllocVar) {
    Elem = evalElementType(*Call.Args[0], "the element type of " + What);
  } else if (Ok) {
    auto *Shape = dyn_cast<ListExpr>(Call.Args[0].get());
    if (!Shape) {
      Diags.error(Call.Args[0]->getBeginLoc(),
                  "the shape of " + What + " must be a list like [128, 32]");
      Ok = false;
    } else {
      Shape->Ty = ExprType::getShape();
      if (Shape->Elements.empty() || Shape->Elements.size() > limits::MaxRank) {
        Diags.error(Shape->getLoc(),
                    "a tile must have 1 to " + std::to_string(limits::MaxRank) +
                        " dimensions, got " +
                        std::to_string(Shape->Elements.size()));
        Ok = false;
      }
      std::int64_t Elements = 1;
      for (const ExprPtr &Element : Shape->Elements) {
        std::optional<std::int64_t> Extent =
            evalConstInt(*Element, "a tile extent");
        if (!Extent) {
          Ok = false;
          continue;
        }
        if (*Extent < 1 || *Extent > limits::MaxTileExtent) {
          Diags.error(Element->getBeginLoc(),
                      "a tile extent must be between 1 and " +
                          std::to_string(limits::MaxTileExtent) + ", got " +
                          std::to_string(*Extent));
          noteDefines(*Element);
          Ok = false;
          continue;
        }
        Buffer.Shape.push_back(*Extent);
        Buffer.DimNames.emplace_back();
        if (Elements <= limits::MaxTileElements)
          Elements *= *Extent;
      }
      if (Ok && Elements > limits::MaxTileElements) {
        Diags.error(Shape->getLoc(),
                    "tile '" + S.Name.Name + "' has more than " +
                        std::to_string(limits::MaxTileElements) + " elements");
        noteDefines(*Shape);
        Ok = false;
      }
    }
    Elem = evalElementType(*Call.Args[1], "the element type of " + What);
  }
  Ok &= Elem.has_value();
  Buffer.Elem = Elem.value_or(ScalarKind::F32);
  Symbol *Sym = declare(Symbol::Kind::Buffer, S.Name, ExprType::getError());
  Sym->Buffer = std::move(Buffer);
  if (!Ok)
    return Sym;
  Sym->Ty = ExprType::getBuffer(&Sym->Buffer);
  Call.Ty = Sym->Ty;
  if (Sym->Buffer.Scope == MemScope::Shared)
    CurKernel->SharedAllocations.push_back(
        {Sym, Sym->Buffer.getNumElements() * getByteSize(Sym->Buffer.Elem)});
  return Sym;
}

void Sema::checkCallStmt(CallStmt &S) {
  CallExpr &Call = *S.Call;
  if (auto It = Fns.find(Call.Callee); It != Fns.end()) {
    Diags.error(Call.getLoc(), "the result of function '" + Call.Callee +
                                   "' is unused; only tile statements such as "
                                   "copy or gemm can be called on their own");
    return;
  }
  std::optional<Builtin> Id = lookupBuiltin(Call.Callee);
  if (!Id) {
    std::vector<std::string_view> Candidates;
    for (Builtin B :
         {Builtin::Copy, Builtin::Gemm, Builtin::Clear, Builtin::Fill,
          Builtin::ReduceSum, Builtin::ReduceMax, Builtin::ReduceMin,
          Builtin::ReduceAbsSum, Builtin::ReduceAbsMax, Builtin::UseSwizzle,
          Builtin::AnnotateLayout, Builtin::Print})
      Candidates.push_back(getBuiltinInfo(B).Name);
    std::string Suggestion = closestName(Call.Callee, Candidates);
    Diags.error(
        Call.getLoc(),
        "unknown function '" + Call.Callee + "'" +
            (Suggestion.empty() ? "" : "; did you mean '" + Suggestion + "'?"));
    return;
  }
  Call.BuiltinId = Id;
  switch (getBuiltinInfo(*Id).Category) {
  case BuiltinCategory::Allocation:
    Diags.error(Call.getLoc(),
                "the result of '" + Call.Callee + "' must be bound with 'let'");
    return;
  case BuiltinCategory::LoopRange:
    Diags.error(Call.getLoc(),
                "'" + Call.Callee + "' can only be the range of a 'for' loop");
    return;
  case BuiltinCategory::Scalar:
    Diags.error(Call.getLoc(), "the result of '" + Call.Callee +
                                   "' is unused; only tile statements such as "
                                   "copy or gemm can be called on their own");
    return;
  case BuiltinCategory::Statement:
    break;
  }
  if (*Id != Builtin::Print && Ctx.InParallel) {
    Diags.error(Call.getLoc(), "'" + Call.Callee +
                                   "' cannot be used inside a 'parallel' "
                                   "loop; it works on whole tiles");
    return;
  }
  if (!checkArity(Call, *Id) || !checkNamedArgs(Call, *Id))
    return;
  switch (*Id) {
  case Builtin::Copy:
    return checkCopy(S);
  case Builtin::Gemm:
    return checkGemm(S);
  case Builtin::Clear:
  case Builtin::Fill:
    return checkFillOrClear(S, *Id);
  case Builtin::UseSwizzle:
    return checkUseSwizzle(S);
  case Builtin::AnnotateLayout:
    return checkAnnotateLayout(S);
  case Builtin::Print:
    return checkPrint(S);
  default:
    return checkReduce(S);
  }
}

std::optional<BufferOperand>
Sema::resolveBuffer(Expr &E, const std::string &What, bool AllowOrigin) {
  auto *Name = dyn_cast<NameExpr>(&E);
  auto *Index = dyn_cast<IndexExpr>(&E);
  if (!Name && !Index) {
    if (inferValue(E))
      Diags.error(E.getLoc(),
                  What + " must be a tensor or tile, got " + E.Ty.describe());
    E.Ty = ExprType::getError();
    return std::nullopt;
  }
  const std::string &Spelling = Name ? Name->Name : Index->Name;
  Symbol *S = lookup(Spelling);
  if (Name)
    Name->Sym = S;
  else
    Index->Sym = S;
  if (!S) {
    std::string Suggestion = suggestName(Spelling);
    Diags.error(
        E.getLoc(),
        "use of undeclared identifier '" + Spelling + "'" +
            (Suggestion.empty() ? "" : "; did you mean '" + Suggestion + "'?"));
    return std::nullopt;
  }
  if (S->Ty.isError())
    return std::nullopt;
  if (S->K != Symbol::Kind::Tensor && S->K != Symbol::Kind::Buffer) {
    Diags.error(E.getLoc(), What + " must be a tensor or tile, but '" +
                                Spelling + "' is a " + S->describeKind());
    Diags.note(S->Loc, "'" + Spelling + "' is declared here");
    return std::nullopt;
  }
  BufferOperand Operand;
  Operand.Sym = S;
  Operand.E = &E;
  if (Index) {
    if (!AllowOrigin) {
      Diags.error(E.getLoc(), What +
                                  " must be a whole tensor or tile, not "
                                  "an element of '" +
                                  Spelling + "'");
      return std::nullopt;
    }
    if (S->Buffer.Scope != MemScope::Global &&
        S->Buffer.Scope != MemScope::Shared) {
      Diags.error(E.getLoc(), "a region origin can only index a global "
                              "tensor or a shared tile, but '" +
                                  Spelling + "' is a " + S->describeKind());
      return std::nullopt;
    }
    if (Index->Indices.size() != S->Buffer.getRank()) {
      Diags.error(E.getLoc(), "the region origin of '" + Spelling + "' needs " +
                                  std::to_string(S->Buffer.getRank()) +
                                  " indices, got " +
                                  std::to_string(Index->Indices.size()));
      return std::nullopt;
    }
    bool Ok = true;
    for (const ExprPtr &I : Index->Indices)
      Ok &= checkValueOf(*I, ScalarKind::Index, "a region origin");
    if (!Ok)
      return std::nullopt;
    Operand.Origin = Index;
  }
  E.Ty = S->Ty;
  return Operand;
}

bool Sema::checkScope(const BufferOperand &Operand, const std::string &What,
                      std::initializer_list<MemScope> Allowed) {
  if (std::find(Allowed.begin(), Allowed.end(), Operand.Sym->Buffer.Scope) !=
      Allowed.end())
    return true;
  Diags.error(Operand.E->getLoc(),
              What + " must be " + describeScopes(Allowed) + " buffer, but '" +
                  Operand.Sym->Name + "' is a " + Operand.Sym->describeKind());
  return false;
}

void Sema::checkCopy(CallStmt &S) {
  CallExpr &Call = *S.Call;
  std::optional<BufferOperand> Src =
      resolveBuffer(*Call.Args[0], "the source of 'copy'", true);
  std::optional<BufferOperand> Dst =
      resolveBuffer(*Call.Args[1], "the target of 'copy'", true);
  if (!Src || !Dst)
    return;
  for (const BufferOperand *Operand : {&*Src, &*Dst})
    if (Operand->Sym->Buffer.getRank() == 0) {
      Diags.error(Operand->E->getLoc(), "'copy' works on tensors and tiles, "
                                        "but '" +
                                            Operand->Sym->Name +
                                            "' is a variable");
      return;
    }
  if (Src->Origin && Dst->Origin) {
    Diags.error(Dst->E->getLoc(),
                "at most one operand of 'copy' may have a region origin");
    return;
  }
  bool SrcGlobal = Src->Sym->Buffer.Scope == MemScope::Global;
  bool DstGlobal = Dst->Sym->Buffer.Scope == MemScope::Global;
  if (SrcGlobal && DstGlobal) {
    Diags.error(Call.getLoc(), "'copy' cannot copy from a global tensor to a "
                               "global tensor; stage through a shared or "
                               "fragment tile");
    return;
  }
  // The indexed side (explicitly, or a global tensor at origin 0) and the
  // side whose shape is the extent of the copied region.
  const BufferOperand *Indexed = nullptr;
  const BufferOperand *Extent = nullptr;
  if (Src->Origin || (SrcGlobal && !Dst->Origin)) {
    Indexed = &*Src;
    Extent = &*Dst;
  } else if (Dst->Origin || DstGlobal) {
    Indexed = &*Dst;
    Extent = &*Src;
  }
  if (!Indexed) {
    if (Src->Sym->Buffer.Shape != Dst->Sym->Buffer.Shape)
      Diags.error(Call.getLoc(), "'copy' between tiles of different shapes: " +
                                     describeOperand(*Src->Sym) + " and " +
                                     describeOperand(*Dst->Sym));
    return;
  }
  const BufferInfo &Region = Extent->Sym->Buffer;
  const BufferInfo &Target = Indexed->Sym->Buffer;
  if (Region.Scope == MemScope::Global) {
    Diags.error(Extent->E->getLoc(),
                "the extent of the copied region comes from '" +
                    Extent->Sym->Name +
                    "', a global tensor; give the region origin on the "
                    "global tensor instead");
    return;
  }
  if (Region.getRank() > Target.getRank()) {
    Diags.error(Call.getLoc(),
                "'copy' of a rank-" + std::to_string(Region.getRank()) +
                    " tile " + describeOperand(*Extent->Sym) +
                    " to or from a rank-" + std::to_string(Target.getRank()) +
                    " region of '" + Indexed->Sym->Name + "'");
    return;
  }
  std::size_t Offset = Target.getRank() - Region.getRank();
  for (std::size_t I = 0; I != Region.getRank(); ++I) {
    std::int64_t Dim = Target.Shape[Offset + I];
    if (Dim != BufferInfo::Dynamic && Region.Shape[I] > Dim) {
      Diags.error(Call.getLoc(), "the copied region " + Region.describeShape() +
                                     " does not fit in " +
                                     describeOperand(*Indexed->Sym));
      return;
    }
  }
}

void Sema::checkGemm(CallStmt &S) {
  CallExpr &Call = *S.Call;
  TileStmtOptions &Options = S.Options;
  Options.Clear = false;
  bool Ok = true;
  for (const NamedArg &Arg : Call.NamedArgs) {
    if (Arg.Name.Name == "policy") {
      const auto *Name = dyn_cast<NameExpr>(Arg.Value.get());
      if (!Name || (Name->Name != "square" && Name->Name != "full_row" &&
                    Name->Name != "full_col")) {
        Diags.error(Arg.Value->getLoc(), "the policy of 'gemm' must be "
                                         "square, full_row or full_col");
        Ok = false;
        continue;
      }
      Options.Policy = Name->Name;
      continue;
    }
    std::optional<bool> Value =
        evalConstBool(*Arg.Value, "'" + Arg.Name.Name + "' of 'gemm'");
    if (!Value) {
      Ok = false;
      continue;
    }
    if (Arg.Name.Name == "transpose_A")
      Options.TransposeA = *Value;
    else if (Arg.Name.Name == "transpose_B")
      Options.TransposeB = *Value;
    else
      Options.Clear = *Value;
  }
  std::optional<BufferOperand> A =
      resolveBuffer(*Call.Args[0], "operand A of 'gemm'", false);
  std::optional<BufferOperand> B =
      resolveBuffer(*Call.Args[1], "operand B of 'gemm'", false);
  std::optional<BufferOperand> C =
      resolveBuffer(*Call.Args[2], "operand C of 'gemm'", false);
  if (!A || !B || !C || !Ok)
    return;
  if (!checkScope(*A, "operand A of 'gemm'",
                  {MemScope::Shared, MemScope::Fragment}) ||
      !checkScope(*B, "operand B of 'gemm'",
                  {MemScope::Shared, MemScope::Fragment}) ||
      !checkScope(*C, "operand C of 'gemm'", {MemScope::Fragment}))
    return;
  for (const auto &[Operand, Role] :
       {std::pair{&*A, "A"}, std::pair{&*B, "B"}, std::pair{&*C, "C"}})
    if (Operand->Sym->Buffer.getRank() != 2) {
      Diags.error(Operand->E->getLoc(),
                  std::string("operand ") + Role +
                      " of 'gemm' must be a 2-D tile, but " +
                      describeOperand(*Operand->Sym) + " has rank " +
                      std::to_string(Operand->Sym->Buffer.getRank()));
      return;
    }
  const BufferInfo &TA = A->Sym->Buffer, &TB = B->Sym->Buffer,
                   &TC = C->Sym->Buffer;
  std::int64_t M = TA.Shape[Options.TransposeA ? 1 : 0];
  std::int64_t KA = TA.Shape[Options.TransposeA ? 0 : 1];
  std::int64_t KB = TB.Shape[Options.TransposeB ? 1 : 0];
  std::int64_t N = TB.Shape[Options.TransposeB ? 0 : 1];
  if (KA != KB) {
    Diags.error(Call.getLoc(),
                "'gemm' reduction dimension K is " + std::to_string(KA) +
                    " in A " + describeOperand(*A->Sym) + " but " +
                    std::to_string(KB) + " in B " + describeOperand(*B->Sym));
    return;
  }
  if (TC.Shape[0] != M || TC.Shape[1] != N) {
    Diags.error(C->E->getLoc(),
                "'gemm' accumulator " + describeOperand(*C->Sym) +
                    " does not match A x B, which is [" + std::to_string(M) +
                    ", " + std::to_string(N) + "]");
    return;
  }
  ScalarKind In = TA.Elem;
  if (TB.Elem != In) {
    Diags.error(Call.getLoc(), std::string("'gemm' operands A and B have "
                                           "different element types: ") +
                                   getSpelling(In) + " and " +
                                   getSpelling(TB.Elem));
    return;
  }
  if (In != ScalarKind::F16 && In != ScalarKind::BF16 &&
      In != ScalarKind::F32 && In != ScalarKind::I8) {
    Diags.error(Call.getLoc(), std::string("'gemm' does not support ") +
                                   getSpelling(In) +
                                   " inputs (supported: f16, bf16, f32, i8)");
    return;
  }
  ScalarKind Acc = TC.Elem;
  bool AccOk = In == ScalarKind::I8
                   ? Acc == ScalarKind::I32
                   : Acc == ScalarKind::F32 ||
                         (In == ScalarKind::F16 && Acc == ScalarKind::F16);
  if (!AccOk)
    Diags.error(C->E->getLoc(), std::string("'gemm' cannot accumulate ") +
                                    getSpelling(In) + " inputs into " +
                                    getSpelling(Acc) + " (expected " +
                                    (In == ScalarKind::I8    ? "i32"
                                     : In == ScalarKind::F16 ? "f32 or f16"
                                                             : "f32") +
                                    ")");
}

void Sema::checkFillOrClear(CallStmt &S, Builtin Id) {
  CallExpr &Call = *S.Call;
  std::string What = "the target of '" + Call.Callee + "'";
  std::optional<BufferOperand> Target =
      resolveBuffer(*Call.Args[0], What, false);
  if (Id == Builtin::Fill) {
    if (!Target) {
      inferValue(*Call.Args[1]);
      return;
    }
    if (!checkScope(*Target, What,
                    {MemScope::Shared, MemScope::Fragment, MemScope::Local}))
      return;
    checkValueOf(*Call.Args[1], Target->Sym->Buffer.Elem,
                 "the value of 'fill'");
    return;
  }
  if (Target)
    checkScope(*Target, What,
               {MemScope::Shared, MemScope::Fragment, MemScope::Local});
}

void Sema::checkReduce(CallStmt &S) {
  CallExpr &Call = *S.Call;
  std::string Name = "'" + Call.Callee + "'";
  TileStmtOptions &Options = S.Options;
  Options.Clear = true;
  std::optional<std::int64_t> Dim = -1;
  for (const NamedArg &Arg : Call.NamedArgs) {
    if (Arg.Name.Name == "dim") {
      Dim = evalConstInt(*Arg.Value, "'dim' of " + Name);
    } else if (std::optional<bool> Clear =
                   evalConstBool(*Arg.Value, "'clear' of " + Name)) {
      Options.Clear = *Clear;
    }
  }
  std::optional<BufferOperand> Src =
      resolveBuffer(*Call.Args[0], "the source of " + Name, false);
  std::optional<BufferOperand> Dst =
      resolveBuffer(*Call.Args[1], "the target of " + Name, false);
  if (!Src || !Dst || !Dim)
    return;
  if (!checkScope(*Src, "the source of " + Name,
                  {MemScope::Fragment, MemScope::Shared}) ||
      !checkScope(*Dst, "the target of " + Name,
                  {MemScope::Fragment, MemScope::Shared, MemScope::Local}))
    return;
  const BufferInfo &From = Src->Sym->Buffer, &To = Dst->Sym->Buffer;
  std::int64_t Rank = From.getRank();
  std::int64_t D = *Dim < 0 ? *Dim + Rank : *Dim;
  if (D < 0 || D >= Rank) {
    const NamedArg *Arg = Call.findNamedArg("dim");
    Diags.error(Arg ? Arg->Value->getBeginLoc() : Call.getLoc(),
                "dim " + std::to_string(*Dim) + " is out of range for the " +
                    "rank-" + std::to_string(Rank) + " source " +
                    describeOperand(*Src->Sym));
    return;
  }
  Options.Dim = D;
  std::vector<std::int64_t> Removed = From.Shape;
  Removed.erase(Removed.begin() + D);
  if (Removed.empty())
    Removed.push_back(1);
  std::vector<std::int64_t> Kept = From.Shape;
  Kept[D] = 1;
  if (To.Shape != Removed && To.Shape != Kept) {
    BufferInfo Expected;
    Expected.Shape = Removed;
    Diags.error(Dst->E->getLoc(),
                "the target of " + Name + " must have shape " +
                    Expected.describeShape() + " (the source " +
                    From.describeShape() + " reduced along dim " +
                    std::to_string(D) + "), but '" + Dst->Sym->Name + "' is " +
                    To.describeShape());
    return;
  }
  if (isFloat(From.Elem) != isFloat(To.Elem))
    Diags.error(Dst->E->getLoc(),
                std::string("the source and target of ") + Name +
                    " must both be floating-point or both integer, got " +
                    getSpelling(From.Elem) + " and " + getSpelling(To.Elem));
}

void Sema::checkUseSwizzle(CallStmt &S) {
  CallExpr &Call = *S.Call;
  if (!Ctx.AtLaunchTop) {
    Diags.error(Call.getLoc(), "'use_swizzle' can only be used directly "
                               "inside 'with kernel'");
    return;
  }
  if (SwizzleSeen) {
    Diags.error(Call.getLoc(), "'use_swizzle' is given more than once");
    Diags.note(SwizzleSeen->getLoc(), "first given here");
    return;
  }
  SwizzleSeen = &S;
  std::optional<std::int64_t> Panel =
      evalConstInt(*Call.Args[0], "the panel of 'use_swizzle'");
  if (!Panel)
    return;
  if (*Panel < 1 || *Panel > limits::MaxSwizzlePanel) {
    Diags.error(Call.Args[0]->getBeginLoc(),
                "the panel of 'use_swizzle' must be between 1 and " +
                    std::to_string(limits::MaxSwizzlePanel) + ", got " +
                    std::to_string(*Panel));
    noteDefines(*Call.Args[0]);
    return;
  }
  S.Options.Panel = *Panel;
}

void Sema::checkAnnotateLayout(CallStmt &S) {
  CallExpr &Call = *S.Call;
  if (!Ctx.AtLaunchTop) {
    Diags.error(Call.getLoc(), "'annotate_layout' can only be used directly "
                               "inside 'with kernel'");
    return;
  }
  std::optional<BufferOperand> Target =
      resolveBuffer(*Call.Args[0], "the target of 'annotate_layout'", false);
  const auto *Layout = dyn_cast<NameExpr>(Call.Args[1].get());
  if (!Layout || (Layout->Name != "linear" && Layout->Name != "swizzled" &&
                  Layout->Name != "padded")) {
    Diags.error(Call.Args[1]->getLoc(),
                "the layout must be linear, swizzled or padded");
    return;
  }
  if (!Target || !checkScope(*Target, "the target of 'annotate_layout'",
                             {MemScope::Shared, MemScope::Fragment}))
    return;
  S.Options.Layout = Layout->Name;
}

void Sema::checkPrint(CallStmt &S) {
  CallExpr &Call = *S.Call;
  Expr *Value = nullptr;
  if (auto *Message = dyn_cast<StringLiteralExpr>(Call.Args[0].get())) {
    Message->Ty = ExprType::getString();
    S.Options.Message = Message->Value;
    if (Call.Args.size() == 2)
      Value = Call.Args[1].get();
  } else if (Call.Args.size() == 2) {
    Diags.error(Call.Args[0]->getBeginLoc(),
                "the first of two arguments of 'print' must be a string "
                "literal message");
    return;
  } else {
    Value = Call.Args[0].get();
    std::string_view Source =
        Diags.getFile() ? Diags.getFile()->getContents() : std::string_view();
    std::uint32_t Begin = Value->getBeginLoc().Offset;
    std::uint32_t End = Value->getEndOffset();
    if (End > Begin && End <= Source.size())
      S.Options.Message = std::string(Source.substr(Begin, End - Begin));
  }
  if (!Value)
    return;
  if (!inferValue(*Value))
    return;
  resolveDefault(*Value);
}
