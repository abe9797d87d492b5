//===- Parser.cpp - Parser of the .tile language --------------------------===//
//
// Grammar (docs/language.md has the normative version):
//
//   file      := { fn | kernel }
//   fn        := 'fn' IDENT '(' [IDENT ':' IDENT {',' ...}] ')' '->' IDENT
//   block kernel    := 'kernel' IDENT ['<' [IDENT '=' sum {',' ...}] '>']
//                '(' [param {',' param}] ')' block
//   param     := IDENT ':' IDENT ['[' dim {',' dim} ']']
//   block     := '{' { stmt } '}'
//   stmt      := 'let' IDENT '=' expr ';' | 'return' expr ';'
//              | 'for' IDENT {',' IDENT} 'in' IDENT '(' args ')' block
//              | 'if' expr block ['else' (if-stmt | block)]
//              | 'with' 'kernel' '(' args ')' ['as' ('(' IDENT {',' IDENT} ')'
//                | IDENT)] block
//              | IDENT '(' args ')' ';' | lvalue '=' expr ';' | ';'
//   expr      := or ['?' expr ':' expr]
//   or ... mul: left-associative binary levels || && (== !=) (< <= > >=)
//               (<< >>) (+ -) (* / %)
//   unary     := ('-' | '!') unary | primary
//   primary   := INT | FLOAT | STRING | 'true' | 'false' | IDENT
//              | IDENT '(' args ')' | IDENT '[' expr {',' expr} ']'
//              | 'cast' '<' IDENT '>' '(' expr ')' | '(' expr ')'
//              | '[' [expr {',' expr}] ']'
//   args      := [arg {',' arg}] ; arg := expr | IDENT '=' expr
//
// Lists accept a trailing comma. Parse functions return null after reporting
// a syntax error; the statement loop then skips to the next statement.
//
//===----------------------------------------------------------------------===//

#include "compiler/Parser.h"

#include "compiler/Casting.h"
#include "compiler/Lexer.h"
#include "compiler/Limits.h"
#include "compiler/Suggestions.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <deque>

using namespace tilec;
using namespace tilec::ast;

namespace {

/// Binding strength of binary operators (higher binds tighter).
enum Precedence : int {
  PrecOr = 1,
  PrecAnd,
  PrecEquality,
  PrecRelational,
  PrecShift,
  PrecAdditive,
  PrecMultiplicative,
};

/// Returns the binary operator of `Kind` and its precedence, or 0.
int getBinaryOp(TokenKind Kind, BinaryOp &Op) {
  switch (Kind) {
  case TokenKind::PipePipe:
    Op = BinaryOp::Or;
    return PrecOr;
  case TokenKind::AmpAmp:
    Op = BinaryOp::And;
    return PrecAnd;
  case TokenKind::EqualEqual:
    Op = BinaryOp::Eq;
    return PrecEquality;
  case TokenKind::BangEqual:
    Op = BinaryOp::Ne;
    return PrecEquality;
  case TokenKind::Less:
    Op = BinaryOp::Lt;
    return PrecRelational;
  case TokenKind::LessEqual:
    Op = BinaryOp::Le;
    return PrecRelational;
  case TokenKind::Greater:
    Op = BinaryOp::Gt;
    return PrecRelational;
  case TokenKind::GreaterEqual:
    Op = BinaryOp::Ge;
    return PrecRelational;
  case TokenKind::LessLess:
    Op = BinaryOp::Shl;
    return PrecShift;
  case TokenKind::GreaterGreater:
    Op = BinaryOp::Shr;
    return PrecShift;
  case TokenKind::Plus:
    Op = BinaryOp::Add;
    return PrecAdditive;
  case TokenKind::Minus:
    Op = BinaryOp::Sub;
    return PrecAdditive;
  case TokenKind::Star:
    Op = BinaryOp::Mul;
    return PrecMultiplicative;
  case TokenKind::Slash:
    Op = BinaryOp::Div;
    return PrecMultiplicative;
  case TokenKind::Percent:
    Op = BinaryOp::Rem;
    return PrecMultiplicative;
  default:
    return 0;
  }
}

/// Returns how `Tok` is named in "expected X, found Y" messages.
std::string describeToken(const Token &Tok) {
  switch (Tok.Kind) {
  case TokenKind::Identifier:
    return "identifier '" + std::string(Tok.Text) + "'";
  case TokenKind::Integer:
  case TokenKind::Float:
    return "'" + std::string(Tok.Text) + "'";
  case TokenKind::String:
    return "a string literal";
  default:
    return describeTokenKind(Tok.Kind);
  }
}

/// Converts the digits of an integer literal; returns false if its
/// magnitude exceeds `Max`.
bool convertInteger(std::string_view Text, std::uint64_t Max,
                    std::uint64_t &Value) {
  unsigned Base = 10;
  if (Text.size() > 2 && Text[0] == '0' && (Text[1] == 'x' || Text[1] == 'X')) {
    Base = 16;
    Text.remove_prefix(2);
  }
  Value = 0;
  for (char C : Text) {
    unsigned Digit = C >= '0' && C <= '9'   ? unsigned(C - '0')
                     : C >= 'a' && C <= 'f' ? unsigned(C - 'a' + 10)
                                            : unsigned(C - 'A' + 10);
    if (Value > (Max - Digit) / Base)
      return false;
    Value = Value * Base + Digit;
  }
  return true;
}

/// Returns the contents of string literal `Text` (quotes included, escapes
/// already validated by the lexer).
std::string decodeString(std::string_view Text) {
  std::string Out;
  for (std::size_t I = 1; I + 1 < Text.size(); ++I) {
    char C = Text[I];
    if (C != '\\') {
      Out += C;
      continue;
    }
    char Next = Text[++I];
    Out += Next == 'n' ? '\n' : Next == 't' ? '\t' : Next;
  }
  return Out;
}

class Parser {
public:
  Parser(const SourceFile &Source, DiagnosticEngine &Diags)
      : Source(Source), Diags(Diags), Lex(Source, Diags) {
    Window.push_back(Lex.next());
  }

  std::unique_ptr<File> run();

private:
  /// Counts one level of nesting for its lifetime; `Ok` is false (and a
  /// fatal error reported) if the nesting is too deep.
  struct NestingScope {
    NestingScope(Parser &P, SourceLoc Loc) : P(P) {
      Ok = ++P.Depth <= limits::MaxNestingDepth;
      if (!Ok)
        P.Diags.fatal(Loc, "nesting too deep (more than " +
                               std::to_string(limits::MaxNestingDepth) +
                               " levels)");
    }
    ~NestingScope() { --P.Depth; }
    NestingScope(const NestingScope &) = delete;
    NestingScope &operator=(const NestingScope &) = delete;
    Parser &P;
    bool Ok;
  };

  // Token access. Tokens are lexed on demand (so that lexical and syntax
  // errors are reported in source order) and only a small window of them is
  // kept (so that memory does not grow with the file).
  const Token &tok() const { return Window.front(); }
  Token peekTok(std::size_t Ahead = 1) {
    while (Window.size() <= Ahead && !Window.back().is(TokenKind::Eof))
      Window.push_back(Lex.next());
    return Window[std::min(Ahead, Window.size() - 1)];
  }
  bool is(TokenKind Kind) const { return tok().Kind == Kind; }
  /// Returns true at the identifier `Word`, a contextual keyword.
  bool isContextual(std::string_view Word) const {
    return is(TokenKind::Identifier) && tok().Text == Word;
  }
  Token consume() {
    Token Current = Window.front();
    if (Current.is(TokenKind::Eof))
      return Current;
    Prev = Current;
    ++Consumed;
    Window.pop_front();
    if (Window.empty())
      Window.push_back(Lex.next());
    return Current;
  }
  bool consumeIf(TokenKind Kind) {
    if (!is(Kind))
      return false;
    consume();
    return true;
  }
  bool stopped() const { return Diags.shouldStop(); }
  std::uint32_t prevEndOffset() const {
    return Prev.Loc.Offset + static_cast<std::uint32_t>(Prev.Text.size());
  }
  /// Reports "expected `What`, found <token>" at the current token (or, for
  /// a missing ';', just after the previous one), followed by "; did you
  /// mean '<keyword>'?" when `Word` is a misspelling of one of `Keywords`.
  void errorExpected(const std::string &What, std::string_view Word = {},
                     const std::vector<std::string_view> &Keywords = {}) {
    // The lexer reported the malformed token already.
    if (is(TokenKind::Error))
      return;
    SourceLoc Loc = tok().Loc;
    if (What.rfind("';'", 0) == 0 && Consumed != 0)
      Loc = Source.getLoc(prevEndOffset());
    std::string Suggestion = closestName(Word, Keywords);
    Diags.error(
        Loc,
        "expected " + What + ", found " + describeToken(tok()) +
            (Suggestion.empty() ? "" : "; did you mean '" + Suggestion + "'?"));
  }
  bool expect(TokenKind Kind, const std::string &Context) {
    if (consumeIf(Kind))
      return true;
    std::string What = describeTokenKind(Kind);
    if (!Context.empty())
      What += " " + Context;
    errorExpected(What);
    return false;
  }
  bool parseIdent(Ident &Out, const std::string &What) {
    if (!is(TokenKind::Identifier)) {
      errorExpected(What);
      return false;
    }
    Out.Name = std::string(tok().Text);
    Out.Loc = tok().Loc;
    consume();
    return true;
  }
  /// Returns true at `fn` or at a `kernel` that starts a declaration.
  bool atDeclStart() const {
    if (is(TokenKind::KwFn))
      return true;
    return is(TokenKind::KwKernel) && !Prev.is(TokenKind::KwWith);
  }

  // Declarations.
  std::unique_ptr<FnDecl> parseFn();
  std::unique_ptr<KernelDecl> parseKernel();
  bool parseParam(ParamDecl &Param);
  bool parseBlock(Block &Out);
  void skipToDecl();

  // Statements.
  StmtPtr parseStmt();
  StmtPtr parseLet();
  StmtPtr parseFor();
  StmtPtr parseIf();
  StmtPtr parseLaunch();
  StmtPtr parseReturn();
  StmtPtr parseCallOrAssign();
  void recoverStatement(std::uint64_t Start);

  // Expressions.
  bool checkHeight(const Expr &E);
  ExprPtr finish(ExprPtr E, SourceLoc Begin);
  ExprPtr parseExpr();
  ExprPtr parseBinary(int MinPrec);
  ExprPtr parseUnary();
  ExprPtr parsePrimary();
  ExprPtr parseInteger(bool Negate, SourceLoc Loc);
  std::unique_ptr<CallExpr> parseCall();
  bool parseArgs(std::vector<ExprPtr> &Args, std::vector<NamedArg> &Named);
  bool parseExprList(std::vector<ExprPtr> &Out, TokenKind Close,
                     const char *What);

  const SourceFile &Source;
  DiagnosticEngine &Diags;
  Lexer Lex;
  /// The current token and the ones looked ahead at.
  std::deque<Token> Window;
  /// The last token consumed.
  Token Prev;
  /// How many tokens were consumed.
  std::uint64_t Consumed = 0;
  unsigned Depth = 0;
  /// Set once a block left open at the end of a declaration was reported,
  /// so that enclosing blocks stay silent about it.
  bool UnclosedReported = false;
};

std::unique_ptr<File> Parser::run() {
  auto Result = std::make_unique<File>();
  while (!is(TokenKind::Eof) && !stopped()) {
    UnclosedReported = false;
    if (is(TokenKind::KwFn)) {
      if (auto Fn = parseFn())
        Result->Fns.push_back(std::move(Fn));
      else
        skipToDecl();
    } else if (is(TokenKind::KwKernel)) {
      if (auto Kernel = parseKernel())
        Result->Kernels.push_back(std::move(Kernel));
      else
        skipToDecl();
    } else {
      errorExpected("'fn' or 'kernel'",
                    is(TokenKind::Identifier) ? tok().Text : "",
                    {"fn", "kernel"});
      consume();
      skipToDecl();
    }
  }
  return Result;
}

void Parser::skipToDecl() {
  unsigned BraceDepth = 0;
  while (!is(TokenKind::Eof) && !stopped()) {
    if (BraceDepth == 0 && atDeclStart())
      return;
    if (is(TokenKind::LBrace))
      ++BraceDepth;
    else if (is(TokenKind::RBrace) && BraceDepth != 0)
      --BraceDepth;
    consume();
  }
}

std::unique_ptr<FnDecl> Parser::parseFn() {
  consume(); // 'fn'
  auto Fn = std::make_unique<FnDecl>();
  if (!parseIdent(Fn->Name, "a function name after 'fn'") ||
      !expect(TokenKind::LParen, "after the function name"))
    return nullptr;
  while (!is(TokenKind::RParen)) {
    FnParamDecl Param;
    if (!parseIdent(Param.Name, "a parameter name") ||
        !expect(TokenKind::Colon, "after the parameter name") ||
        !parseIdent(Param.TypeName, "a parameter type"))
      return nullptr;
    Fn->Params.push_back(std::move(Param));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (!expect(TokenKind::RParen, "to end the parameter list") ||
      !expect(TokenKind::Arrow, "and the result type after the parameters") ||
      !parseIdent(Fn->ResultType, "a result type after '->'") ||
      !parseBlock(Fn->Body))
    return nullptr;
  return Fn;
}

std::unique_ptr<KernelDecl> Parser::parseKernel() {
  consume(); // 'kernel'
  auto Kernel = std::make_unique<KernelDecl>();
  if (!parseIdent(Kernel->Name, "a kernel name after 'kernel'"))
    return nullptr;
  if (consumeIf(TokenKind::Less)) {
    while (!is(TokenKind::Greater)) {
      ConstParamDecl Param;
      if (!parseIdent(Param.Name, "a compile-time parameter name") ||
          !expect(TokenKind::Equal,
                  "and a default value after '" + Param.Name.Name + "'"))
        return nullptr;
      // Above comparisons, so that '>' ends the list.
      Param.Default = parseBinary(PrecAdditive);
      if (!Param.Default)
        return nullptr;
      Kernel->ConstParams.push_back(std::move(Param));
      if (!consumeIf(TokenKind::Comma))
        break;
    }
    if (!expect(TokenKind::Greater, "to end the compile-time parameters"))
      return nullptr;
  }
  if (!expect(TokenKind::LParen, "and the kernel's parameters"))
    return nullptr;
  while (!is(TokenKind::RParen)) {
    ParamDecl Param;
    if (!parseParam(Param))
      return nullptr;
    Kernel->Params.push_back(std::move(Param));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (!expect(TokenKind::RParen, "to end the parameter list") ||
      !parseBlock(Kernel->Body))
    return nullptr;
  return Kernel;
}

bool Parser::parseParam(ParamDecl &Param) {
  if (!parseIdent(Param.Name, "a parameter name") ||
      !expect(TokenKind::Colon, "after the parameter name") ||
      !parseIdent(Param.TypeName, "an element type after ':'"))
    return false;
  if (!consumeIf(TokenKind::LBracket))
    return true;
  Param.IsTensor = true;
  while (!is(TokenKind::RBracket)) {
    DimDecl Dim;
    Dim.Loc = tok().Loc;
    if (is(TokenKind::Identifier)) {
      Dim.Name = std::string(tok().Text);
      consume();
    } else if (is(TokenKind::Integer)) {
      std::uint64_t Value;
      if (!convertInteger(tok().Text, INT64_MAX, Value)) {
        Diags.error(tok().Loc, "integer literal is too large");
        Value = 1;
      }
      Dim.Value = static_cast<std::int64_t>(Value);
      consume();
    } else {
      errorExpected("a dimension (a name or an integer)");
      return false;
    }
    Param.Dims.push_back(std::move(Dim));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  return expect(TokenKind::RBracket, "to end the dimensions");
}

bool Parser::parseBlock(Block &Out) {
  NestingScope Scope(*this, tok().Loc);
  if (!Scope.Ok)
    return false;
  Out.LBrace = tok().Loc;
  if (!expect(TokenKind::LBrace, ""))
    return false;
  while (!stopped()) {
    if (is(TokenKind::RBrace)) {
      Out.RBrace = consume().Loc;
      return true;
    }
    if (is(TokenKind::Eof) || atDeclStart()) {
      if (!UnclosedReported) {
        errorExpected("'}'");
        Diags.note(Out.LBrace, "to match this '{'");
        UnclosedReported = true;
      }
      Out.RBrace = tok().Loc;
      return true;
    }
    if (consumeIf(TokenKind::Semicolon))
      continue;
    std::uint64_t Start = Consumed;
    if (StmtPtr S = parseStmt())
      Out.Stmts.push_back(std::move(S));
    else
      recoverStatement(Start);
  }
  return false;
}

void Parser::recoverStatement(std::uint64_t Start) {
  unsigned BraceDepth = 0;
  while (!is(TokenKind::Eof) && !stopped()) {
    if (BraceDepth == 0) {
      if (is(TokenKind::RBrace) || atDeclStart())
        return;
      if (Consumed != Start && (is(TokenKind::KwLet) || is(TokenKind::KwFor) ||
                                is(TokenKind::KwIf) || is(TokenKind::KwWith) ||
                                is(TokenKind::KwReturn)))
        return;
      if (consumeIf(TokenKind::Semicolon))
        return;
    }
    if (is(TokenKind::LBrace)) {
      ++BraceDepth;
    } else if (is(TokenKind::RBrace) && --BraceDepth == 0) {
      // A block closed: the broken statement was a loop, `if` or `with`.
      consume();
      return;
    }
    consume();
  }
}

StmtPtr Parser::parseStmt() {
  switch (tok().Kind) {
  case TokenKind::KwLet:
    return parseLet();
  case TokenKind::KwFor:
    return parseFor();
  case TokenKind::KwIf:
    return parseIf();
  case TokenKind::KwWith:
    return parseLaunch();
  case TokenKind::KwReturn:
    return parseReturn();
  case TokenKind::Identifier:
    return parseCallOrAssign();
  default:
    errorExpected("a statement");
    return nullptr;
  }
}

StmtPtr Parser::parseLet() {
  SourceLoc Loc = consume().Loc;
  Ident Name;
  if (!parseIdent(Name, "a name after 'let'") ||
      !expect(TokenKind::Equal, "after '" + Name.Name + "'"))
    return nullptr;
  ExprPtr Init = parseExpr();
  if (!Init || !expect(TokenKind::Semicolon, "after the 'let' statement"))
    return nullptr;
  return std::make_unique<LetStmt>(Loc, std::move(Name), std::move(Init));
}

StmtPtr Parser::parseFor() {
  SourceLoc Loc = consume().Loc;
  std::vector<Ident> Vars;
  do {
    Ident Var;
    if (!parseIdent(Var, "a loop variable name"))
      return nullptr;
    Vars.push_back(std::move(Var));
  } while (consumeIf(TokenKind::Comma));
  if (!isContextual("in")) {
    errorExpected("'in' after the loop variables");
    return nullptr;
  }
  consume();
  if (!is(TokenKind::Identifier) || !peekTok().is(TokenKind::LParen)) {
    errorExpected("a loop range such as 'parallel(...)' or 'serial(...)'");
    return nullptr;
  }
  std::unique_ptr<CallExpr> Range = parseCall();
  Block Body;
  if (!Range || !parseBlock(Body))
    return nullptr;
  return std::make_unique<ForStmt>(Loc, std::move(Vars), std::move(Range),
                                   std::move(Body));
}

StmtPtr Parser::parseIf() {
  NestingScope Scope(*this, tok().Loc);
  if (!Scope.Ok)
    return nullptr;
  SourceLoc Loc = consume().Loc;
  ExprPtr Cond = parseExpr();
  Block Then;
  if (!Cond || !parseBlock(Then))
    return nullptr;
  std::optional<Block> Else;
  if (consumeIf(TokenKind::KwElse)) {
    Else.emplace();
    if (is(TokenKind::KwIf)) {
      Else->LBrace = Else->RBrace = tok().Loc;
      StmtPtr Nested = parseIf();
      if (!Nested)
        return nullptr;
      Else->Stmts.push_back(std::move(Nested));
    } else if (!parseBlock(*Else)) {
      return nullptr;
    }
  }
  return std::make_unique<IfStmt>(Loc, std::move(Cond), std::move(Then),
                                  std::move(Else));
}

StmtPtr Parser::parseLaunch() {
  SourceLoc Loc = consume().Loc;
  if (!is(TokenKind::KwKernel) || !peekTok().is(TokenKind::LParen)) {
    errorExpected("'kernel(' after 'with'");
    return nullptr;
  }
  std::unique_ptr<CallExpr> Config = parseCall();
  if (!Config)
    return nullptr;
  std::vector<Ident> Vars;
  if (isContextual("as")) {
    consume();
    if (consumeIf(TokenKind::LParen)) {
      while (!is(TokenKind::RParen)) {
        Ident Var;
        if (!parseIdent(Var, "a block index name"))
          return nullptr;
        Vars.push_back(std::move(Var));
        if (!consumeIf(TokenKind::Comma))
          break;
      }
      if (!expect(TokenKind::RParen, "to end the block indices"))
        return nullptr;
    } else {
      Ident Var;
      if (!parseIdent(Var, "a block index name or '(' after 'as'"))
        return nullptr;
      Vars.push_back(std::move(Var));
    }
  }
  Block Body;
  if (!parseBlock(Body))
    return nullptr;
  return std::make_unique<LaunchStmt>(Loc, std::move(Config), std::move(Vars),
                                      std::move(Body));
}

StmtPtr Parser::parseReturn() {
  SourceLoc Loc = consume().Loc;
  ExprPtr Value = parseExpr();
  if (!Value || !expect(TokenKind::Semicolon, "after the 'return' statement"))
    return nullptr;
  return std::make_unique<ReturnStmt>(Loc, std::move(Value));
}

StmtPtr Parser::parseCallOrAssign() {
  SourceLoc Loc = tok().Loc;
  if (peekTok().is(TokenKind::LParen)) {
    std::unique_ptr<CallExpr> Call = parseCall();
    if (!Call || !expect(TokenKind::Semicolon, "after the call"))
      return nullptr;
    return std::make_unique<CallStmt>(Loc, std::move(Call));
  }
  ExprPtr Target = parsePrimary();
  if (!Target)
    return nullptr;
  if (!is(TokenKind::Equal)) {
    // `wiht kernel(...)`, `lett x = ...`: a misspelled keyword.
    if (const auto *Name = dyn_cast<NameExpr>(Target.get()))
      errorExpected("'=' or '(' after '" + Name->Name + "'", Name->Name,
                    {"let", "for", "if", "else", "with", "return"});
    else
      errorExpected("'=' after the subscript");
    return nullptr;
  }
  consume();
  ExprPtr Value = parseExpr();
  if (!Value || !expect(TokenKind::Semicolon, "after the assignment"))
    return nullptr;
  return std::make_unique<AssignStmt>(Loc, std::move(Target), std::move(Value));
}

bool Parser::checkHeight(const Expr &E) {
  if (E.getHeight() <= limits::MaxExprHeight)
    return true;
  Diags.fatal(E.getLoc(), "expression too deeply nested (more than " +
                              std::to_string(limits::MaxExprHeight) +
                              " levels)");
  return false;
}

ExprPtr Parser::finish(ExprPtr E, SourceLoc Begin) {
  E->setRange(Begin, prevEndOffset());
  if (!checkHeight(*E))
    return nullptr;
  return E;
}

ExprPtr Parser::parseExpr() {
  NestingScope Scope(*this, tok().Loc);
  if (!Scope.Ok)
    return nullptr;
  SourceLoc Begin = tok().Loc;
  ExprPtr Cond = parseBinary(PrecOr);
  if (!Cond || !is(TokenKind::Question))
    return Cond;
  SourceLoc Loc = consume().Loc;
  ExprPtr Then = parseExpr();
  if (!Then || !expect(TokenKind::Colon, "in the conditional expression"))
    return nullptr;
  ExprPtr Else = parseExpr();
  if (!Else)
    return nullptr;
  return finish(std::make_unique<TernaryExpr>(Loc, std::move(Cond),
                                              std::move(Then), std::move(Else)),
                Begin);
}

ExprPtr Parser::parseBinary(int MinPrec) {
  SourceLoc Begin = tok().Loc;
  ExprPtr LHS = parseUnary();
  while (LHS) {
    BinaryOp Op;
    int Prec = getBinaryOp(tok().Kind, Op);
    if (Prec == 0 || Prec < MinPrec)
      return LHS;
    SourceLoc Loc = consume().Loc;
    ExprPtr RHS = parseBinary(Prec + 1);
    if (!RHS)
      return nullptr;
    LHS = finish(
        std::make_unique<BinaryExpr>(Loc, Op, std::move(LHS), std::move(RHS)),
        Begin);
  }
  return nullptr;
}

ExprPtr Parser::parseUnary() {
  if (!is(TokenKind::Minus) && !is(TokenKind::Bang))
    return parsePrimary();
  NestingScope Scope(*this, tok().Loc);
  if (!Scope.Ok)
    return nullptr;
  SourceLoc Loc = tok().Loc;
  UnaryOp Op = is(TokenKind::Minus) ? UnaryOp::Neg : UnaryOp::Not;
  consume();
  if (Op == UnaryOp::Neg && is(TokenKind::Integer)) {
    ExprPtr Literal = parseInteger(/*Negate=*/true, Loc);
    return Literal ? finish(std::move(Literal), Loc) : nullptr;
  }
  ExprPtr Operand = parseUnary();
  if (!Operand)
    return nullptr;
  return finish(std::make_unique<UnaryExpr>(Loc, Op, std::move(Operand)), Loc);
}

ExprPtr Parser::parseInteger(bool Negate, SourceLoc Loc) {
  Token Tok = consume();
  std::uint64_t Max = Negate ? std::uint64_t(INT64_MAX) + 1 : INT64_MAX;
  std::uint64_t Value;
  if (!convertInteger(Tok.Text, Max, Value)) {
    Diags.error(Tok.Loc, "integer literal '" + std::string(Tok.Text) +
                             "' is too large (the largest is " +
                             std::to_string(INT64_MAX) + ")");
    return std::make_unique<ErrorExpr>(Loc);
  }
  std::int64_t Signed = Negate ? static_cast<std::int64_t>(0 - Value)
                               : static_cast<std::int64_t>(Value);
  return std::make_unique<IntLiteralExpr>(Loc, Signed);
}

ExprPtr Parser::parsePrimary() {
  SourceLoc Begin = tok().Loc;
  switch (tok().Kind) {
  case TokenKind::Integer:
    return finish(parseInteger(/*Negate=*/false, Begin), Begin);
  case TokenKind::Float: {
    std::string Text(consume().Text);
    errno = 0;
    double Value = std::strtod(Text.c_str(), nullptr);
    if (errno == ERANGE && std::isinf(Value)) {
      Diags.error(Begin,
                  "floating-point literal '" + Text + "' is out of range");
      return finish(std::make_unique<ErrorExpr>(Begin), Begin);
    }
    return finish(std::make_unique<FloatLiteralExpr>(Begin, Value), Begin);
  }
  case TokenKind::KwTrue:
  case TokenKind::KwFalse: {
    bool Value = consume().is(TokenKind::KwTrue);
    return finish(std::make_unique<BoolLiteralExpr>(Begin, Value), Begin);
  }
  case TokenKind::String: {
    std::string Value = decodeString(consume().Text);
    return finish(std::make_unique<StringLiteralExpr>(Begin, std::move(Value)),
                  Begin);
  }
  case TokenKind::Identifier: {
    if (peekTok().is(TokenKind::LParen)) {
      return parseCall();
    }
    std::string Name(consume().Text);
    if (!is(TokenKind::LBracket))
      return finish(std::make_unique<NameExpr>(Begin, std::move(Name)), Begin);
    NestingScope Scope(*this, tok().Loc);
    if (!Scope.Ok)
      return nullptr;
    consume();
    std::vector<ExprPtr> Indices;
    if (is(TokenKind::RBracket)) {
      Diags.error(tok().Loc, "expected an index inside '[]'");
      return nullptr;
    }
    if (!parseExprList(Indices, TokenKind::RBracket, "an index"))
      return nullptr;
    return finish(
        std::make_unique<IndexExpr>(Begin, std::move(Name), std::move(Indices)),
        Begin);
  }
  case TokenKind::KwCast: {
    consume();
    Ident Target;
    if (!expect(TokenKind::Less, "after 'cast'") ||
        !parseIdent(Target, "a type in 'cast<...>'") ||
        !expect(TokenKind::Greater, "after the type in 'cast<...>'") ||
        !expect(TokenKind::LParen, "after 'cast<...>'"))
      return nullptr;
    ExprPtr Operand = parseExpr();
    if (!Operand || !expect(TokenKind::RParen, "to end the cast"))
      return nullptr;
    return finish(std::make_unique<CastExpr>(Begin, std::move(Target),
                                             std::move(Operand)),
                  Begin);
  }
  case TokenKind::LParen: {
    consume();
    ExprPtr Inner = parseExpr();
    if (!Inner || !expect(TokenKind::RParen, "to match '('"))
      return nullptr;
    return Inner;
  }
  case TokenKind::LBracket: {
    NestingScope Scope(*this, tok().Loc);
    if (!Scope.Ok)
      return nullptr;
    consume();
    std::vector<ExprPtr> Elements;
    if (!parseExprList(Elements, TokenKind::RBracket, "a list element"))
      return nullptr;
    return finish(std::make_unique<ListExpr>(Begin, std::move(Elements)),
                  Begin);
  }
  default:
    errorExpected("an expression");
    return nullptr;
  }
}

bool Parser::parseExprList(std::vector<ExprPtr> &Out, TokenKind Close,
                           const char *What) {
  while (!is(Close)) {
    ExprPtr E = parseExpr();
    if (!E)
      return false;
    Out.push_back(std::move(E));
    if (consumeIf(TokenKind::Comma))
      continue;
    if (!is(Close)) {
      errorExpected(std::string("',' or ") + describeTokenKind(Close) +
                    " after " + What);
      return false;
    }
  }
  consume();
  return true;
}

std::unique_ptr<CallExpr> Parser::parseCall() {
  SourceLoc Loc = tok().Loc;
  std::string Callee(consume().Text);
  NestingScope Scope(*this, tok().Loc);
  if (!Scope.Ok)
    return nullptr;
  consume(); // '('
  std::vector<ExprPtr> Args;
  std::vector<NamedArg> Named;
  if (!parseArgs(Args, Named))
    return nullptr;
  auto Call = std::make_unique<CallExpr>(Loc, std::move(Callee),
                                         std::move(Args), std::move(Named));
  Call->setRange(Loc, prevEndOffset());
  if (!checkHeight(*Call))
    return nullptr;
  return Call;
}

bool Parser::parseArgs(std::vector<ExprPtr> &Args,
                       std::vector<NamedArg> &Named) {
  while (!is(TokenKind::RParen)) {
    if (is(TokenKind::Identifier) && peekTok().is(TokenKind::Equal)) {
      NamedArg Arg;
      Arg.Name.Name = std::string(tok().Text);
      Arg.Name.Loc = tok().Loc;
      consume();
      consume(); // '='
      Arg.Value = parseExpr();
      if (!Arg.Value)
        return false;
      for (const NamedArg &Prev : Named)
        if (Prev.Name.Name == Arg.Name.Name) {
          Diags.error(Arg.Name.Loc, "named argument '" + Arg.Name.Name +
                                        "' is given more than once");
          Diags.note(Prev.Name.Loc, "first given here");
          break;
        }
      Named.push_back(std::move(Arg));
    } else {
      SourceLoc ArgLoc = tok().Loc;
      ExprPtr Arg = parseExpr();
      if (!Arg)
        return false;
      if (!Named.empty())
        Diags.error(ArgLoc, "positional argument after named argument '" +
                                Named.back().Name.Name + "'");
      Args.push_back(std::move(Arg));
    }
    if (consumeIf(TokenKind::Comma))
      continue;
    if (!is(TokenKind::RParen)) {
      errorExpected("',' or ')' in the argument list");
      return false;
    }
  }
  consume();
  return true;
}

} // namespace

std::unique_ptr<File> tilec::parseFile(const SourceFile &Source,
                                       DiagnosticEngine &Diags) {
  return Parser(Source, Diags).run();
}
