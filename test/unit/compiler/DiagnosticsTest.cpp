//===- DiagnosticsTest.cpp - Tests of diagnostic rendering ----------------===//

#include "compiler/Diagnostics.h"

#include <catch2/catch.hpp>

using namespace tilec;

namespace {

Diagnostic errorAt(const SourceFile &File, std::uint32_t Offset,
                   std::string Message) {
  return {Severity::Error, File.getLoc(Offset), std::move(Message)};
}

} // namespace

TEST_CASE("file:line:col, the line and a caret", "[diagnostics]") {
  SourceFile File("a.tile", "let x = 1;\n  let y = z;\n");
  std::string Text =
      renderDiagnostic(&File, "tilec", errorAt(File, 21, "bad 'z'"));
  CHECK(Text == "a.tile:2:11: error: bad 'z'\n  let y = z;\n          ^\n");
}

TEST_CASE("no location means the tool name", "[diagnostics]") {
  CHECK(renderDiagnostic(nullptr, "tilec",
                         {Severity::Error, SourceLoc(), "oops"}) ==
        "tilec: error: oops\n");
  SourceFile File("a.tile", "x");
  CHECK(
      renderDiagnostic(&File, "tilec", {Severity::Note, SourceLoc(), "hint"}) ==
      "tilec: note: hint\n");
}

TEST_CASE("tabs are kept so the caret lines up", "[diagnostics]") {
  SourceFile File("a.tile", "\tlet x;");
  std::string Text = renderDiagnostic(&File, "tilec", errorAt(File, 5, "m"));
  CHECK(Text == "a.tile:1:6: error: m\n\tlet x;\n\t    ^\n");
}

TEST_CASE("bad bytes print as '?' and multi-byte characters as one column",
          "[diagnostics]") {
  SourceFile File("a.tile", std::string("\xC3\xA9\x00\xFFz", 5));
  std::string Text = renderDiagnostic(&File, "tilec", errorAt(File, 4, "m"));
  CHECK(Text == "a.tile:1:5: error: m\n\xC3\xA9??z\n   ^\n");
}

TEST_CASE("CRLF line endings", "[diagnostics]") {
  SourceFile File("a.tile", "ab\r\ncd\r\n");
  CHECK(renderDiagnostic(&File, "tilec", errorAt(File, 5, "m")) ==
        "a.tile:2:2: error: m\ncd\n ^\n");
}

TEST_CASE("long lines are cut around the caret", "[diagnostics]") {
  std::string Line(1000, 'a');
  Line[600] = 'X';
  SourceFile File("a.tile", Line);
  std::string Text = renderDiagnostic(&File, "tilec", errorAt(File, 600, "m"));
  std::size_t FirstNewline = Text.find('\n');
  std::size_t SecondNewline = Text.find('\n', FirstNewline + 1);
  std::string Excerpt =
      Text.substr(FirstNewline + 1, SecondNewline - FirstNewline - 1);
  std::string Caret = Text.substr(SecondNewline + 1);
  CHECK(Excerpt.size() < 200);
  CHECK(Excerpt.rfind("...", 0) == 0);
  CHECK(Excerpt[Caret.size() - 2] == 'X');
}

TEST_CASE("the error limit", "[diagnostics]") {
  SourceFile File("a.tile", "x");
  std::vector<std::string> Printed;
  DiagnosticEngine Diags(
      &File, [&](const std::string &Text) { Printed.push_back(Text); },
      /*MaxErrors=*/3);
  for (int I = 0; I != 10; ++I) {
    Diags.error(File.getLoc(0), "e" + std::to_string(I));
    Diags.note(File.getLoc(0), "n");
  }
  CHECK(Diags.getNumErrors() == 10);
  CHECK(Diags.shouldStop());
  // Three errors with their notes, then the limit message.
  REQUIRE(Printed.size() == 7);
  CHECK(Printed.back() ==
        "tilec: error: too many errors emitted (more than 3), stopping now\n");
}

TEST_CASE("fatal errors stop at once but keep their notes", "[diagnostics]") {
  SourceFile File("a.tile", "x");
  DiagnosticEngine Diags(&File, nullptr);
  Diags.fatal(File.getLoc(0), "deep");
  Diags.note(File.getLoc(0), "why");
  Diags.error(File.getLoc(0), "later");
  CHECK(Diags.shouldStop());
  CHECK(Diags.getDiagnostics().size() == 2);
}

TEST_CASE("warnings print with their notes and are not errors",
          "[diagnostics]") {
  SourceFile File("a.tile", "x");
  std::vector<std::string> Printed;
  DiagnosticEngine Diags(
      &File, [&](const std::string &Text) { Printed.push_back(Text); });
  Diags.warning(File.getLoc(0), "odd");
  Diags.note(SourceLoc(), "hint");
  CHECK_FALSE(Diags.hasErrors());
  REQUIRE(Printed.size() == 2);
  CHECK(Printed[0] == "a.tile:1:1: warning: odd\nx\n^\n");
  CHECK(Printed[1] == "tilec: note: hint\n");
}
