//===- ASTPrinter.cpp - Readable dump of the AST --------------------------===//

#include "compiler/ASTPrinter.h"

#include "compiler/Casting.h"
#include "compiler/Symbol.h"

#include <cstdio>

using namespace tilec;
using namespace tilec::ast;

namespace {

std::string formatLoc(SourceLoc Loc) {
  return "<" + std::to_string(Loc.Line) + ":" + std::to_string(Loc.Col) + ">";
}

/// Quotes `Text` with C escapes for anything but printable ASCII.
std::string quote(std::string_view Text) {
  std::string Out = "\"";
  for (char C : Text) {
    unsigned char U = static_cast<unsigned char>(C);
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (C == '\n') {
      Out += "\\n";
    } else if (C == '\t') {
      Out += "\\t";
    } else if (U < 0x20 || U >= 0x7F) {
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\x%02X", U);
      Out += Buf;
    } else {
      Out += C;
    }
  }
  return Out + "\"";
}

class Printer {
public:
  explicit Printer(std::ostream &OS) : OS(OS) {}

  void printFn(const FnDecl &Fn);
  void printKernel(const KernelDecl &Kernel);

private:
  std::ostream &line(unsigned Indent) {
    for (unsigned I = 0; I != Indent; ++I)
      OS << "  ";
    return OS;
  }
  void printBlock(const Block &B, unsigned Indent);
  void printStmt(const Stmt &S, unsigned Indent);
  void printExpr(const Expr &E, unsigned Indent);
  void printCallArgs(const CallExpr &Call, unsigned Indent);

  std::ostream &OS;
};

void Printer::printFn(const FnDecl &Fn) {
  line(0) << "FnDecl '" << Fn.Name.Name << "' " << formatLoc(Fn.Name.Loc)
          << " (";
  for (std::size_t I = 0; I != Fn.Params.size(); ++I)
    OS << (I ? ", " : "") << Fn.Params[I].Name.Name << ": "
       << Fn.Params[I].TypeName.Name;
  OS << ") -> " << Fn.ResultType.Name << "\n";
  printBlock(Fn.Body, 1);
}

void Printer::printKernel(const KernelDecl &Kernel) {
  line(0) << "KernelDecl '" << Kernel.Name.Name << "' "
          << formatLoc(Kernel.Name.Loc) << "\n";
  for (const ConstParamDecl &Param : Kernel.ConstParams) {
    line(1) << "ConstParam '" << Param.Name.Name << "' "
            << formatLoc(Param.Name.Loc);
    if (Param.Sym && Param.Sym->Const) {
      OS << " = " << Param.Sym->Const->toString();
      if (!Param.Sym->Define.empty())
        OS << " (-D " << Param.Sym->Define << ")";
    }
    OS << "\n";
    printExpr(*Param.Default, 2);
  }
  for (const ParamDecl &Param : Kernel.Params) {
    line(1) << (Param.IsTensor ? "TensorParam '" : "ScalarParam '")
            << Param.Name.Name << "' " << formatLoc(Param.Name.Loc) << " "
            << Param.TypeName.Name;
    if (Param.IsTensor) {
      OS << "[";
      for (std::size_t I = 0; I != Param.Dims.size(); ++I) {
        OS << (I ? ", " : "");
        if (Param.Dims[I].Name.empty())
          OS << Param.Dims[I].Value;
        else
          OS << Param.Dims[I].Name;
      }
      OS << "]";
    }
    if (Param.Sym && !Param.Sym->Ty.isError())
      OS << " : "
         << (Param.IsTensor ? std::string(getSpelling(Param.Sym->Buffer.Elem)) +
                                  Param.Sym->Buffer.describeShape()
                            : Param.Sym->Ty.describe());
    OS << "\n";
  }
  printBlock(Kernel.Body, 1);
}

void Printer::printBlock(const Block &B, unsigned Indent) {
  for (const StmtPtr &S : B.Stmts)
    printStmt(*S, Indent);
}

void Printer::printStmt(const Stmt &S, unsigned Indent) {
  std::string Loc = formatLoc(S.getLoc());
  switch (S.getKind()) {
  case Stmt::Kind::Let: {
    const auto &Let = cast<LetStmt>(S);
    line(Indent) << "LetStmt '" << Let.Name.Name << "' " << Loc << "\n";
    printExpr(*Let.Init, Indent + 1);
    return;
  }
  case Stmt::Kind::Assign: {
    const auto &Assign = cast<AssignStmt>(S);
    line(Indent) << "AssignStmt " << Loc << "\n";
    printExpr(*Assign.Target, Indent + 1);
    printExpr(*Assign.Value, Indent + 1);
    return;
  }
  case Stmt::Kind::Call: {
    const auto &Call = cast<CallStmt>(S);
    const TileStmtOptions &O = Call.Options;
    line(Indent) << "CallStmt '" << Call.Call->Callee << "' " << Loc;
    if (Call.Call->BuiltinId) {
      Builtin Id = *Call.Call->BuiltinId;
      if (Id == Builtin::Gemm)
        OS << " transpose_A=" << (O.TransposeA ? "true" : "false")
           << " transpose_B=" << (O.TransposeB ? "true" : "false")
           << " policy=" << O.Policy
           << " clear=" << (O.Clear ? "true" : "false");
      else if (isReduction(Id))
        OS << " dim=" << O.Dim << " clear=" << (O.Clear ? "true" : "false");
      else if (Id == Builtin::UseSwizzle)
        OS << " panel=" << O.Panel;
      else if (Id == Builtin::AnnotateLayout)
        OS << " layout=" << O.Layout;
      else if (Id == Builtin::Print)
        OS << " message=" << quote(O.Message);
    }
    OS << "\n";
    printCallArgs(*Call.Call, Indent + 1);
    return;
  }
  case Stmt::Kind::For: {
    const auto &For = cast<ForStmt>(S);
    line(Indent) << "ForStmt " << Loc << " ";
    for (std::size_t I = 0; I != For.Vars.size(); ++I)
      OS << (I ? ", " : "") << For.Vars[I].Name;
    OS << " in " << For.Range->Callee;
    if (!For.Extents.empty()) {
      OS << " [";
      for (std::size_t I = 0; I != For.Extents.size(); ++I)
        OS << (I ? ", " : "") << For.Extents[I];
      OS << "]";
    }
    if (For.Stages)
      OS << " stages=" << For.Stages;
    OS << "\n";
    printCallArgs(*For.Range, Indent + 1);
    line(Indent + 1) << "Body\n";
    printBlock(For.Body, Indent + 2);
    return;
  }
  case Stmt::Kind::If: {
    const auto &If = cast<IfStmt>(S);
    line(Indent) << "IfStmt " << Loc << "\n";
    printExpr(*If.Cond, Indent + 1);
    line(Indent + 1) << "Then\n";
    printBlock(If.Then, Indent + 2);
    if (If.Else) {
      line(Indent + 1) << "Else\n";
      printBlock(*If.Else, Indent + 2);
    }
    return;
  }
  case Stmt::Kind::Launch: {
    const auto &Launch = cast<LaunchStmt>(S);
    line(Indent) << "LaunchStmt " << Loc;
    if (Launch.Threads)
      OS << " threads=" << Launch.Threads;
    if (!Launch.BlockVars.empty()) {
      OS << " as (";
      for (std::size_t I = 0; I != Launch.BlockVars.size(); ++I)
        OS << (I ? ", " : "") << Launch.BlockVars[I].Name;
      OS << ")";
    }
    OS << "\n";
    printCallArgs(*Launch.Config, Indent + 1);
    line(Indent + 1) << "Body\n";
    printBlock(Launch.Body, Indent + 2);
    return;
  }
  case Stmt::Kind::Return:
    line(Indent) << "ReturnStmt " << Loc << "\n";
    printExpr(*cast<ReturnStmt>(S).Value, Indent + 1);
    return;
  }
}

void Printer::printCallArgs(const CallExpr &Call, unsigned Indent) {
  for (const ExprPtr &Arg : Call.Args)
    printExpr(*Arg, Indent);
  for (const NamedArg &Arg : Call.NamedArgs) {
    line(Indent) << "NamedArg '" << Arg.Name.Name << "' "
                 << formatLoc(Arg.Name.Loc) << "\n";
    printExpr(*Arg.Value, Indent + 1);
  }
}

void Printer::printExpr(const Expr &E, unsigned Indent) {
  std::ostream &Out = line(Indent);
  switch (E.getKind()) {
  case Expr::Kind::IntLiteral:
    Out << "IntLiteral " << cast<IntLiteralExpr>(E).Value;
    break;
  case Expr::Kind::FloatLiteral:
    Out << "FloatLiteral "
        << Constant::getFloat(cast<FloatLiteralExpr>(E).Value).toString();
    break;
  case Expr::Kind::BoolLiteral:
    Out << "BoolLiteral "
        << (cast<BoolLiteralExpr>(E).Value ? "true" : "false");
    break;
  case Expr::Kind::StringLiteral:
    Out << "StringLiteral " << quote(cast<StringLiteralExpr>(E).Value);
    break;
  case Expr::Kind::Name: {
    const auto &Name = cast<NameExpr>(E);
    Out << "Name '" << Name.Name << "'";
    if (Name.Sym)
      Out << " (" << Name.Sym->describeKind() << ")";
    break;
  }
  case Expr::Kind::Index:
    Out << "Index '" << cast<IndexExpr>(E).Name << "'";
    break;
  case Expr::Kind::Call: {
    const auto &Call = cast<CallExpr>(E);
    Out << "Call '" << Call.Callee << "'";
    if (Call.Fn)
      Out << " (inlined function)";
    break;
  }
  case Expr::Kind::Cast:
    Out << "Cast '" << cast<CastExpr>(E).Target.Name << "'";
    break;
  case Expr::Kind::Unary:
    Out << "Unary '" << (cast<UnaryExpr>(E).Op == UnaryOp::Neg ? "-" : "!")
        << "'";
    break;
  case Expr::Kind::Binary:
    Out << "Binary '" << getSpelling(cast<BinaryExpr>(E).Op) << "'";
    break;
  case Expr::Kind::Ternary:
    Out << "Ternary";
    break;
  case Expr::Kind::List:
    Out << "List";
    break;
  case Expr::Kind::Error:
    Out << "Error";
    break;
  }
  Out << " " << formatLoc(E.getLoc());
  if (!E.Ty.isError())
    Out << " : " << E.Ty.describe();
  if (E.Const)
    Out << " = " << E.Const->toString();
  Out << "\n";
  if (const auto *Call = dyn_cast<CallExpr>(&E)) {
    printCallArgs(*Call, Indent + 1);
    return;
  }
  forEachChild(E, [&](const Expr &Child) { printExpr(Child, Indent + 1); });
}

} // namespace

void tilec::printAST(std::ostream &OS, const File &F,
                     const KernelDecl *Kernel) {
  Printer P(OS);
  for (const auto &Fn : F.Fns)
    P.printFn(*Fn);
  for (const auto &K : F.Kernels)
    if (!Kernel || K.get() == Kernel)
      P.printKernel(*K);
}
