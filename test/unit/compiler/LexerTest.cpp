//===- LexerTest.cpp - Tests of the tokenizer -----------------------------===//

#include "compiler/Lexer.h"
#include "compiler/UTF8.h"

#include <catch2/catch.hpp>

using namespace tilec;

namespace {

struct Lexed {
  std::unique_ptr<SourceFile> Source;
  std::unique_ptr<DiagnosticEngine> Diags;
  std::vector<Token> Tokens;
};

Lexed lex(const std::string &Text) {
  Lexed L;
  L.Source = std::make_unique<SourceFile>("t.tile", Text);
  L.Diags = std::make_unique<DiagnosticEngine>(L.Source.get(), nullptr);
  L.Tokens = tokenize(*L.Source, *L.Diags);
  return L;
}

std::vector<TokenKind> kinds(const Lexed &L) {
  std::vector<TokenKind> Out;
  for (const Token &T : L.Tokens)
    Out.push_back(T.Kind);
  return Out;
}

std::string firstError(const Lexed &L) {
  for (const Diagnostic &D : L.Diags->getDiagnostics())
    if (D.Sev == Severity::Error)
      return D.Message;
  return "";
}

} // namespace

TEST_CASE("keywords, identifiers and punctuation", "[lexer]") {
  Lexed L = lex("kernel k<a = 1>(x: f32[N]) { with kernel(1) as (bx) {} }");
  using K = TokenKind;
  std::vector<TokenKind> Expected = {
      K::KwKernel,   K::Identifier, K::Less,       K::Identifier, K::Equal,
      K::Integer,    K::Greater,    K::LParen,     K::Identifier, K::Colon,
      K::Identifier, K::LBracket,   K::Identifier, K::RBracket,   K::RParen,
      K::LBrace,     K::KwWith,     K::KwKernel,   K::LParen,     K::Integer,
      K::RParen,     K::Identifier, K::LParen,     K::Identifier, K::RParen,
      K::LBrace,     K::RBrace,     K::RBrace,     K::Eof};
  CHECK(kinds(L) == Expected);
  CHECK_FALSE(L.Diags->hasErrors());
}

TEST_CASE("two-character operators", "[lexer]") {
  Lexed L = lex("-> == != <= >= && || < > = ! - << >> >>= <<<");
  using K = TokenKind;
  std::vector<TokenKind> Expected = {
      K::Arrow,     K::EqualEqual,     K::BangEqual,
      K::LessEqual, K::GreaterEqual,   K::AmpAmp,
      K::PipePipe,  K::Less,           K::Greater,
      K::Equal,     K::Bang,           K::Minus,
      K::LessLess,  K::GreaterGreater, K::GreaterGreater,
      K::Equal,     K::LessLess,       K::Less,
      K::Eof};
  CHECK(kinds(L) == Expected);
}

TEST_CASE("comments are skipped and locations are tracked", "[lexer]") {
  Lexed L = lex("// line comment\n/* block\n comment */ let\n  x");
  REQUIRE(L.Tokens.size() == 3);
  CHECK(L.Tokens[0].Kind == TokenKind::KwLet);
  CHECK(L.Tokens[0].Loc.Line == 3);
  CHECK(L.Tokens[0].Loc.Col == 13);
  CHECK(L.Tokens[1].Text == "x");
  CHECK(L.Tokens[1].Loc.Line == 4);
  CHECK(L.Tokens[1].Loc.Col == 3);
  CHECK(L.Tokens[2].Kind == TokenKind::Eof);
}

TEST_CASE("numbers", "[lexer]") {
  Lexed L = lex("0 128 0x1F 0.5 1e-3 2.5E+4 3.");
  using K = TokenKind;
  CHECK(L.Tokens[0].Kind == K::Integer);
  CHECK(L.Tokens[2].Kind == K::Integer);
  CHECK(L.Tokens[2].Text == "0x1F");
  CHECK(L.Tokens[3].Kind == K::Float);
  CHECK(L.Tokens[4].Kind == K::Float);
  CHECK(L.Tokens[5].Kind == K::Float);
  // "3." is an integer followed by a stray '.'.
  CHECK(L.Tokens[6].Kind == K::Integer);
  CHECK(L.Tokens[7].Kind == K::Error);
  CHECK(firstError(L) == "unexpected character '.'");
}

TEST_CASE("malformed numbers are reported", "[lexer]") {
  CHECK(firstError(lex("12abc")) == "invalid suffix 'abc' on numeric literal");
  CHECK(firstError(lex("0x")) == "hexadecimal literal has no digits");
  CHECK(firstError(lex("1e+")) == "exponent has no digits");
}

TEST_CASE("strings and escapes", "[lexer]") {
  Lexed L = lex(R"("a \"b\" \\ \n \t")");
  REQUIRE(L.Tokens[0].Kind == TokenKind::String);
  CHECK_FALSE(L.Diags->hasErrors());
  CHECK(firstError(lex("\"abc")) == "missing terminating '\"' character");
  CHECK(firstError(lex("\"abc\ndef\"")) ==
        "missing terminating '\"' character");
  CHECK(firstError(lex(R"("\q")")).find("unknown escape sequence '\\q'") == 0);
}

TEST_CASE("bad bytes are located errors", "[lexer]") {
  Lexed Nul = lex(std::string("let\0x", 5));
  CHECK(firstError(Nul) == "null character in source file");
  CHECK(Nul.Diags->getDiagnostics()[0].Loc.Col == 4);

  Lexed Utf = lex("let \xC3\x28 x");
  CHECK(firstError(Utf) == "invalid UTF-8 sequence (byte 0xC3)");
  CHECK(Utf.Diags->getDiagnostics()[0].Loc.Col == 5);

  CHECK(firstError(lex("let \xC3\xA9")) ==
        "unexpected character '\xC3\xA9' (U+00E9)");
  CHECK(firstError(lex("a & b")) ==
        "unexpected character '&' (did you mean '&&'?)");
  CHECK(firstError(lex("a | b")) ==
        "unexpected character '|' (did you mean '||'?)");
  CHECK(firstError(lex("\x01")) == "unexpected control character 0x01");
  CHECK(firstError(lex("/* open")) == "unterminated '/*' comment");
  // Valid UTF-8 is fine inside comments and strings.
  CHECK_FALSE(lex("// caf\xC3\xA9\n\"\xC3\xA9\"").Diags->hasErrors());
  // Invalid UTF-8 is not, even in comments.
  CHECK(firstError(lex("// \xFF\n")) == "invalid UTF-8 sequence (byte 0xFF)");
}

TEST_CASE("a run of bad bytes is one error", "[lexer]") {
  Lexed L = lex("\xFF\xFE\xFD\xFC x");
  CHECK(L.Diags->getNumErrors() == 1);
  REQUIRE(L.Tokens.size() == 3);
  CHECK(L.Tokens[0].Kind == TokenKind::Error);
  CHECK(L.Tokens[1].Text == "x");
}

TEST_CASE("random bytes stop at the error limit", "[lexer]") {
  std::string Text;
  for (int I = 0; I != 1000; ++I)
    Text += "@ ";
  Lexed L = lex(Text);
  CHECK(L.Diags->shouldStop());
  CHECK(L.Diags->getDiagnostics().size() == limits::MaxErrors + 1);
  CHECK(L.Tokens.back().Kind == TokenKind::Eof);
}

TEST_CASE("UTF-8 decoding", "[lexer]") {
  CHECK(decodeUTF8("a", 0).Length == 1);
  CHECK(decodeUTF8("\xC3\xA9", 0).CodePoint == 0xE9);
  CHECK(decodeUTF8("\xE2\x82\xAC", 0).CodePoint == 0x20AC);
  CHECK(decodeUTF8("\xF0\x9F\x98\x80", 0).CodePoint == 0x1F600);
  CHECK(decodeUTF8("\xC0\x80", 0).Length == 0);         // overlong
  CHECK(decodeUTF8("\xED\xA0\x80", 0).Length == 0);     // surrogate
  CHECK(decodeUTF8("\xF4\x90\x80\x80", 0).Length == 0); // > U+10FFFF
  CHECK(decodeUTF8("\xE2\x82", 0).Length == 0);         // truncated
  CHECK(decodeUTF8("\x80", 0).Length == 0);             // continuation
}
