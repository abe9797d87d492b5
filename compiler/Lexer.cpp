//===- Lexer.cpp - Tokenizer for .tile sources ----------------------------===//

#include "compiler/Lexer.h"

#include "compiler/UTF8.h"

#include <cstdio>

using namespace tilec;

namespace {

bool isIdentStart(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_';
}
bool isDigit(char C) { return C >= '0' && C <= '9'; }
bool isIdentChar(char C) { return isIdentStart(C) || isDigit(C); }
bool isHexDigit(char C) {
  return isDigit(C) || (C >= 'a' && C <= 'f') || (C >= 'A' && C <= 'F');
}

std::string hexByte(unsigned char C) {
  char Buf[8];
  std::snprintf(Buf, sizeof(Buf), "0x%02X", C);
  return Buf;
}

std::string codePointName(std::uint32_t CodePoint) {
  char Buf[16];
  std::snprintf(Buf, sizeof(Buf), "U+%04X", CodePoint);
  return Buf;
}

/// Returns the keyword kind spelled `Text`, or Identifier.
TokenKind classifyIdentifier(std::string_view Text) {
  static const struct {
    std::string_view Spelling;
    TokenKind Kind;
  } Keywords[] = {
      {"cast", TokenKind::KwCast},     {"else", TokenKind::KwElse},
      {"false", TokenKind::KwFalse},   {"fn", TokenKind::KwFn},
      {"for", TokenKind::KwFor},       {"if", TokenKind::KwIf},
      {"kernel", TokenKind::KwKernel}, {"let", TokenKind::KwLet},
      {"return", TokenKind::KwReturn}, {"true", TokenKind::KwTrue},
      {"with", TokenKind::KwWith},
  };
  for (const auto &K : Keywords)
    if (K.Spelling == Text)
      return K.Kind;
  return TokenKind::Identifier;
}

} // namespace

Token Lexer::next() {
  while (!atEnd() && !Diags.shouldStop()) {
    char C = peek();
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\v' ||
        C == '\f') {
      ++Pos;
    } else if (C == '/' && peek(1) == '/') {
      skipLineComment();
    } else if (C == '/' && peek(1) == '*') {
      skipBlockComment();
    } else if (isIdentStart(C)) {
      std::size_t Begin = Pos;
      while (!atEnd() && isIdentChar(peek()))
        ++Pos;
      return make(classifyIdentifier(Text.substr(Begin, Pos - Begin)), Begin);
    } else if (isDigit(C)) {
      return lexNumber();
    } else if (C == '"') {
      return lexString();
    } else {
      return lexPunctuation();
    }
  }
  return {TokenKind::Eof, locAt(Text.size()), {}};
}

bool Lexer::skipCommentOrStringChar() {
  unsigned char C = static_cast<unsigned char>(peek());
  if (C == 0) {
    error(Pos, "null character in source file");
    ++Pos;
    return false;
  }
  if (C < 0x80) {
    ++Pos;
    return true;
  }
  DecodedChar D = decodeUTF8(Text, Pos);
  if (D.Length == 0) {
    std::size_t Begin = Pos;
    while (!atEnd() && static_cast<unsigned char>(peek()) >= 0x80 &&
           decodeUTF8(Text, Pos).Length == 0)
      ++Pos;
    error(Begin, "invalid UTF-8 sequence (byte " +
                     hexByte(static_cast<unsigned char>(Text[Begin])) + ")");
    return false;
  }
  Pos += D.Length;
  return true;
}

Token Lexer::lexInvalid() {
  std::size_t Begin = Pos;
  unsigned char C = static_cast<unsigned char>(peek());
  if (C == 0) {
    while (!atEnd() && peek() == '\0')
      ++Pos;
    error(Begin, "null character in source file");
    return make(TokenKind::Error, Begin);
  }
  if (C >= 0x80) {
    DecodedChar D = decodeUTF8(Text, Pos);
    if (D.Length != 0) {
      Pos += D.Length;
      error(Begin, "unexpected character '" +
                       std::string(Text.substr(Begin, D.Length)) + "' (" +
                       codePointName(D.CodePoint) + ")");
      return make(TokenKind::Error, Begin);
    }
    while (!atEnd() && static_cast<unsigned char>(peek()) >= 0x80 &&
           decodeUTF8(Text, Pos).Length == 0)
      ++Pos;
    error(Begin, "invalid UTF-8 sequence (byte " + hexByte(C) + ")");
    return make(TokenKind::Error, Begin);
  }
  ++Pos;
  if (C < 0x20 || C == 0x7F) {
    error(Begin, "unexpected control character " + hexByte(C));
    return make(TokenKind::Error, Begin);
  }
  std::string Message = "unexpected character '";
  Message += static_cast<char>(C);
  Message += '\'';
  if (C == '&')
    Message += " (did you mean '&&'?)";
  else if (C == '|')
    Message += " (did you mean '||'?)";
  error(Begin, std::move(Message));
  return make(TokenKind::Error, Begin);
}

void Lexer::skipLineComment() {
  while (!atEnd() && peek() != '\n' && !Diags.shouldStop())
    skipCommentOrStringChar();
}

void Lexer::skipBlockComment() {
  std::size_t Begin = Pos;
  Pos += 2;
  while (!Diags.shouldStop()) {
    if (atEnd()) {
      error(Begin, "unterminated '/*' comment");
      return;
    }
    if (peek() == '*' && peek(1) == '/') {
      Pos += 2;
      return;
    }
    skipCommentOrStringChar();
  }
}

Token Lexer::lexNumber() {
  std::size_t Begin = Pos;
  bool IsFloat = false;
  if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
    Pos += 2;
    std::size_t DigitsBegin = Pos;
    while (!atEnd() && isHexDigit(peek()))
      ++Pos;
    if (Pos == DigitsBegin) {
      error(Begin, "hexadecimal literal has no digits");
      while (!atEnd() && isIdentChar(peek()))
        ++Pos;
      return make(TokenKind::Error, Begin);
    }
  } else {
    while (!atEnd() && isDigit(peek()))
      ++Pos;
    if (peek() == '.' && isDigit(peek(1))) {
      IsFloat = true;
      ++Pos;
      while (!atEnd() && isDigit(peek()))
        ++Pos;
    }
    if (peek() == 'e' || peek() == 'E') {
      std::size_t Ahead = (peek(1) == '+' || peek(1) == '-') ? 2 : 1;
      if (!isDigit(peek(Ahead))) {
        error(Pos, "exponent has no digits");
        ++Pos;
        while (!atEnd() && isIdentChar(peek()))
          ++Pos;
        return make(TokenKind::Error, Begin);
      }
      IsFloat = true;
      Pos += Ahead;
      while (!atEnd() && isDigit(peek()))
        ++Pos;
    }
  }
  if (!atEnd() && isIdentChar(peek())) {
    std::size_t SuffixBegin = Pos;
    while (!atEnd() && isIdentChar(peek()))
      ++Pos;
    error(SuffixBegin,
          "invalid suffix '" +
              std::string(Text.substr(SuffixBegin, Pos - SuffixBegin)) +
              "' on numeric literal");
    return make(TokenKind::Error, Begin);
  }
  return make(IsFloat ? TokenKind::Float : TokenKind::Integer, Begin);
}

Token Lexer::lexString() {
  std::size_t Begin = Pos;
  ++Pos;
  bool Valid = true;
  while (!Diags.shouldStop()) {
    if (atEnd() || peek() == '\n') {
      error(Begin, "missing terminating '\"' character");
      return make(TokenKind::Error, Begin);
    }
    char C = peek();
    if (C == '"') {
      ++Pos;
      break;
    }
    if (C == '\\') {
      char Next = peek(1);
      if (Next == '\\' || Next == '"' || Next == 'n' || Next == 't') {
        Pos += 2;
        continue;
      }
      ++Pos;
      if (atEnd() || peek() == '\n')
        continue;
      std::size_t EscapeBegin = Pos - 1;
      if (!skipCommentOrStringChar()) {
        Valid = false;
        continue;
      }
      error(EscapeBegin,
            "unknown escape sequence '" +
                std::string(Text.substr(EscapeBegin, Pos - EscapeBegin)) +
                "' (valid: \\\\ \\\" \\n \\t)");
      Valid = false;
      continue;
    }
    if (static_cast<unsigned char>(C) < 0x20 && C != '\t' && C != '\0') {
      error(Pos, "control character " + hexByte(static_cast<unsigned char>(C)) +
                     " in string literal");
      ++Pos;
      Valid = false;
      continue;
    }
    if (!skipCommentOrStringChar())
      Valid = false;
  }
  return make(Valid ? TokenKind::String : TokenKind::Error, Begin);
}

Token Lexer::lexPunctuation() {
  std::size_t Begin = Pos;
  char C = peek();
  char Next = peek(1);
  auto Two = [&](TokenKind Kind) {
    Pos += 2;
    return make(Kind, Begin);
  };
  auto One = [&](TokenKind Kind) {
    Pos += 1;
    return make(Kind, Begin);
  };
  switch (C) {
  case '(':
    return One(TokenKind::LParen);
  case ')':
    return One(TokenKind::RParen);
  case '[':
    return One(TokenKind::LBracket);
  case ']':
    return One(TokenKind::RBracket);
  case '{':
    return One(TokenKind::LBrace);
  case '}':
    return One(TokenKind::RBrace);
  case ',':
    return One(TokenKind::Comma);
  case ';':
    return One(TokenKind::Semicolon);
  case ':':
    return One(TokenKind::Colon);
  case '?':
    return One(TokenKind::Question);
  case '+':
    return One(TokenKind::Plus);
  case '*':
    return One(TokenKind::Star);
  case '/':
    return One(TokenKind::Slash);
  case '%':
    return One(TokenKind::Percent);
  case '-':
    return Next == '>' ? Two(TokenKind::Arrow) : One(TokenKind::Minus);
  case '=':
    return Next == '=' ? Two(TokenKind::EqualEqual) : One(TokenKind::Equal);
  case '!':
    return Next == '=' ? Two(TokenKind::BangEqual) : One(TokenKind::Bang);
  case '<':
    if (Next == '<')
      return Two(TokenKind::LessLess);
    return Next == '=' ? Two(TokenKind::LessEqual) : One(TokenKind::Less);
  case '>':
    if (Next == '>')
      return Two(TokenKind::GreaterGreater);
    return Next == '=' ? Two(TokenKind::GreaterEqual) : One(TokenKind::Greater);
  case '&':
    if (Next == '&')
      return Two(TokenKind::AmpAmp);
    break;
  case '|':
    if (Next == '|')
      return Two(TokenKind::PipePipe);
    break;
  default:
    break;
  }
  return lexInvalid();
}

std::vector<Token> tilec::tokenize(const SourceFile &File,
                                   DiagnosticEngine &Diags) {
  Lexer L(File, Diags);
  std::vector<Token> Tokens;
  do
    Tokens.push_back(L.next());
  while (!Tokens.back().is(TokenKind::Eof));
  return Tokens;
}
