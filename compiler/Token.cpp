//===- Token.cpp - Tokens of the .tile language ---------------------------===//

#include "compiler/Token.h"

using namespace tilec;

const char *tilec::describeTokenKind(TokenKind Kind) {
  switch (Kind) {
  case TokenKind::Eof:
    return "end of file";
  case TokenKind::Error:
    return "invalid token";
  case TokenKind::Identifier:
    return "identifier";
  case TokenKind::Integer:
    return "integer literal";
  case TokenKind::Float:
    return "floating-point literal";
  case TokenKind::String:
    return "string literal";
  case TokenKind::KwCast:
    return "'cast'";
  case TokenKind::KwElse:
    return "'else'";
  case TokenKind::KwFalse:
    return "'false'";
  case TokenKind::KwFn:
    return "'fn'";
  case TokenKind::KwFor:
    return "'for'";
  case TokenKind::KwIf:
    return "'if'";
  case TokenKind::KwKernel:
    return "'kernel'";
  case TokenKind::KwLet:
    return "'let'";
  case TokenKind::KwReturn:
    return "'return'";
  case TokenKind::KwTrue:
    return "'true'";
  case TokenKind::KwWith:
    return "'with'";
  case TokenKind::LParen:
    return "'('";
  case TokenKind::RParen:
    return "')'";
  case TokenKind::LBracket:
    return "'['";
  case TokenKind::RBracket:
    return "']'";
  case TokenKind::LBrace:
    return "'{'";
  case TokenKind::RBrace:
    return "'}'";
  case TokenKind::Comma:
    return "','";
  case TokenKind::Semicolon:
    return "';'";
  case TokenKind::Colon:
    return "':'";
  case TokenKind::Question:
    return "'?'";
  case TokenKind::Arrow:
    return "'->'";
  case TokenKind::Equal:
    return "'='";
  case TokenKind::EqualEqual:
    return "'=='";
  case TokenKind::BangEqual:
    return "'!='";
  case TokenKind::Less:
    return "'<'";
  case TokenKind::LessEqual:
    return "'<='";
  case TokenKind::LessLess:
    return "'<<'";
  case TokenKind::Greater:
    return "'>'";
  case TokenKind::GreaterEqual:
    return "'>='";
  case TokenKind::GreaterGreater:
    return "'>>'";
  case TokenKind::Plus:
    return "'+'";
  case TokenKind::Minus:
    return "'-'";
  case TokenKind::Star:
    return "'*'";
  case TokenKind::Slash:
    return "'/'";
  case TokenKind::Percent:
    return "'%'";
  case TokenKind::Bang:
    return "'!'";
  case TokenKind::AmpAmp:
    return "'&&'";
  case TokenKind::PipePipe:
    return "'||'";
  }
  return "token";
}
