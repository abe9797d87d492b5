//===- Diagnostics.h - Located error reporting ------------------*- C++ -*-===//
//
// Diagnostics in the format of clang and MLIR:
//
//   file:line:col: error: message (or warning:, note:)
//   <the source line>
//        ^
//
// The engine counts errors, stops the front end after too many of them, and
// renders source lines safely whatever bytes they hold.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_DIAGNOSTICS_H
#define TILEC_COMPILER_DIAGNOSTICS_H

#include "compiler/Limits.h"
#include "compiler/SourceFile.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// How serious a diagnostic is.
enum class Severity { Error, Warning, Note };

/// One reported problem, or a note attached to the preceding error or
/// warning.
struct Diagnostic {
  /// Error, warning or note.
  Severity Sev = Severity::Error;
  /// Where it is; invalid for problems with no place in the source (such as
  /// command-line options).
  SourceLoc Loc;
  /// The message, without the `error:` prefix.
  std::string Message;
};

/// Renders `D` as the lines printed to the user (ending in a newline). A
/// diagnostic with a location gets `File`'s name, line and column, the source
/// line and a caret; one without is prefixed with `ToolName`.
std::string renderDiagnostic(const SourceFile *File, std::string_view ToolName,
                             const Diagnostic &D);

/// Receives each diagnostic as it is reported, rendered for printing.
using DiagnosticSink = std::function<void(const std::string &Rendered)>;

/// Collects diagnostics, passes them on as they come, and counts errors.
class DiagnosticEngine {
public:
  /// Reports against `File` (which may be null when there is no source yet)
  /// and passes each diagnostic, rendered, to `Sink` unless it is empty. The
  /// error after the first `MaxErrors` is replaced by "too many errors" and
  /// everything after it is dropped.
  DiagnosticEngine(const SourceFile *File, DiagnosticSink Sink,
                   unsigned MaxErrors = limits::MaxErrors);

  /// Reports an error at `Loc` (invalid for an error with no location).
  void error(SourceLoc Loc, std::string Message);
  /// Reports a warning at `Loc`: a likely mistake that does not stop the
  /// compilation (nor counts as an error).
  void warning(SourceLoc Loc, std::string Message);
  /// Attaches a note at `Loc` to the error or warning reported just before.
  void note(SourceLoc Loc, std::string Message);
  /// Reports an error after which the front end must stop (such as nesting
  /// too deep to analyze).
  void fatal(SourceLoc Loc, std::string Message);

  /// Returns the number of errors reported, including dropped ones.
  unsigned getNumErrors() const { return NumErrors; }
  /// Returns true if any error was reported.
  bool hasErrors() const { return NumErrors != 0; }
  /// Returns true once the error limit was reached or a fatal error was
  /// reported: callers should stop at the next convenient point.
  bool shouldStop() const { return Stopped; }
  /// Returns every diagnostic kept (dropped ones are not).
  const std::vector<Diagnostic> &getDiagnostics() const { return Diags; }
  /// Returns the file diagnostics are reported against.
  const SourceFile *getFile() const { return File; }
  /// Reports against `NewFile` from now on.
  void setFile(const SourceFile *NewFile) { File = NewFile; }

private:
  void emit(Diagnostic D);

  const SourceFile *File;
  DiagnosticSink Sink;
  unsigned MaxErrors;
  unsigned NumErrors = 0;
  bool Stopped = false;
  bool DroppingNotes = false;
  std::vector<Diagnostic> Diags;
};

} // namespace tilec

#endif // TILEC_COMPILER_DIAGNOSTICS_H
