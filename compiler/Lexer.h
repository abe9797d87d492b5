//===- Lexer.h - Tokenizer for .tile sources --------------------*- C++ -*-===//
//
// Splits a source file into tokens, on demand. `//` and `/* */` comments and
// whitespace are skipped. The whole file must be valid UTF-8 without NUL
// bytes; non-ASCII characters may appear only in comments and string
// literals; a byte order mark at the start is skipped. Malformed input is
// reported and becomes an Error token, so that the parser can stay silent
// about it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_LEXER_H
#define TILEC_COMPILER_LEXER_H

#include "compiler/Diagnostics.h"
#include "compiler/Token.h"

#include <vector>

namespace tilec {

/// The tokenizer of one source file.
class Lexer {
public:
  /// Lexes `File`, reporting malformed input to `Diags`.
  Lexer(const SourceFile &File, DiagnosticEngine &Diags)
      : File(File), Diags(Diags), Text(File.getContents()) {
    // A UTF-8 byte order mark at the start is not part of the program.
    if (Text.substr(0, 3) == "\xEF\xBB\xBF")
      Pos = 3;
  }

  /// Returns the next token. At the end of the file, and once `Diags` says
  /// to stop, returns end-of-file tokens.
  Token next();

private:
  SourceLoc locAt(std::size_t Offset) const {
    return File.getLoc(static_cast<std::uint32_t>(Offset));
  }
  void error(std::size_t Offset, std::string Message) {
    Diags.error(locAt(Offset), std::move(Message));
  }
  bool atEnd() const { return Pos >= Text.size(); }
  char peek(std::size_t Ahead = 0) const {
    return Pos + Ahead < Text.size() ? Text[Pos + Ahead] : '\0';
  }
  Token make(TokenKind Kind, std::size_t Begin) const {
    return {Kind, locAt(Begin), Text.substr(Begin, Pos - Begin)};
  }

  bool skipCommentOrStringChar();
  Token lexInvalid();
  void skipLineComment();
  void skipBlockComment();
  Token lexNumber();
  Token lexString();
  Token lexPunctuation();

  const SourceFile &File;
  DiagnosticEngine &Diags;
  std::string_view Text;
  std::size_t Pos = 0;
};

/// Returns all tokens of `File`, ending with an end-of-file token.
std::vector<Token> tokenize(const SourceFile &File, DiagnosticEngine &Diags);

} // namespace tilec

#endif // TILEC_COMPILER_LEXER_H
