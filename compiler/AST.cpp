//===- AST.cpp - Abstract syntax tree of the .tile language ---------------===//

#include "compiler/AST.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::ast;

unsigned ast::heightAbove(std::initializer_list<const Expr *> Children) {
  unsigned Max = 0;
  for (const Expr *Child : Children)
    if (Child)
      Max = std::max(Max, Child->getHeight());
  return Max + 1;
}

unsigned ast::heightAbove(const std::vector<ExprPtr> &Children) {
  unsigned Max = 0;
  for (const ExprPtr &Child : Children)
    if (Child)
      Max = std::max(Max, Child->getHeight());
  return Max + 1;
}

namespace {

unsigned callHeight(const std::vector<ExprPtr> &Args,
                    const std::vector<NamedArg> &NamedArgs) {
  unsigned Height = heightAbove(Args);
  for (const NamedArg &Arg : NamedArgs)
    Height = std::max(Height, heightAbove({Arg.Value.get()}));
  return Height;
}

} // namespace

CallExpr::CallExpr(SourceLoc Loc, std::string Callee, std::vector<ExprPtr> Args,
                   std::vector<NamedArg> NamedArgs)
    : Expr(Kind::Call, Loc, callHeight(Args, NamedArgs)),
      Callee(std::move(Callee)), Args(std::move(Args)),
      NamedArgs(std::move(NamedArgs)) {}

const NamedArg *CallExpr::findNamedArg(std::string_view Name) const {
  for (const NamedArg &Arg : NamedArgs)
    if (Arg.Name.Name == Name)
      return &Arg;
  return nullptr;
}

const char *ast::getSpelling(BinaryOp Op) {
  switch (Op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::Rem:
    return "%";
  case BinaryOp::Shl:
    return "<<";
  case BinaryOp::Shr:
    return ">>";
  case BinaryOp::Eq:
    return "==";
  case BinaryOp::Ne:
    return "!=";
  case BinaryOp::Lt:
    return "<";
  case BinaryOp::Le:
    return "<=";
  case BinaryOp::Gt:
    return ">";
  case BinaryOp::Ge:
    return ">=";
  case BinaryOp::And:
    return "&&";
  case BinaryOp::Or:
    return "||";
  }
  return "?";
}

bool ast::isComparison(BinaryOp Op) {
  return Op == BinaryOp::Eq || Op == BinaryOp::Ne || Op == BinaryOp::Lt ||
         Op == BinaryOp::Le || Op == BinaryOp::Gt || Op == BinaryOp::Ge;
}
