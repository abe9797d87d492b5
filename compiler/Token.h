//===- Token.h - Tokens of the .tile language -------------------*- C++ -*-===//

#ifndef TILEC_COMPILER_TOKEN_H
#define TILEC_COMPILER_TOKEN_H

#include "compiler/SourceFile.h"

#include <string_view>

namespace tilec {

/// The kinds of tokens.
enum class TokenKind {
  Eof,
  /// Malformed input, already reported by the lexer.
  Error,
  Identifier,
  Integer,
  Float,
  String,
  // Keywords. (`as` and `in` are contextual: identifiers elsewhere.)
  KwCast,
  KwElse,
  KwFalse,
  KwFn,
  KwFor,
  KwIf,
  KwKernel,
  KwLet,
  KwReturn,
  KwTrue,
  KwWith,
  // Punctuation.
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Semicolon,
  Colon,
  Question,
  Arrow,
  Equal,
  EqualEqual,
  BangEqual,
  Less,
  LessEqual,
  LessLess,
  Greater,
  GreaterEqual,
  GreaterGreater,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Bang,
  AmpAmp,
  PipePipe,
};

/// Returns how a token kind is named in messages: `'('`, `identifier`,
/// `'kernel'`, `end of file`.
const char *describeTokenKind(TokenKind Kind);

/// One token. `Text` points into the source buffer, which outlives it.
struct Token {
  /// What the token is.
  TokenKind Kind = TokenKind::Eof;
  /// Where it starts.
  SourceLoc Loc;
  /// Its exact spelling (for strings, with the quotes and escapes).
  std::string_view Text;

  /// Returns true if the token is of kind `K`.
  bool is(TokenKind K) const { return Kind == K; }
};

} // namespace tilec

#endif // TILEC_COMPILER_TOKEN_H
