//===- Diagnostics.cpp - Located error reporting --------------------------===//

#include "compiler/Diagnostics.h"

#include "compiler/UTF8.h"

using namespace tilec;

namespace {

/// Widest source excerpt printed under a diagnostic, in displayed characters.
constexpr std::size_t MaxExcerptWidth = 160;

/// A source line made printable, and the caret line under it.
struct Excerpt {
  std::string Line;
  std::string Caret;
};

/// Calls `Fn(Begin, Length, Replacement)` for each displayed character of
/// `Text`: valid UTF-8 passes through (Replacement is 0), tabs stay (so that
/// the caret line can reuse them), any other control byte or invalid byte
/// is shown as '?'.
template <typename Callback>
void forEachCell(std::string_view Text, Callback Fn) {
  for (std::size_t I = 0; I < Text.size();) {
    unsigned char C = static_cast<unsigned char>(Text[I]);
    if (C == '\t' || (C >= 0x20 && C < 0x7F)) {
      Fn(I, 1, '\0');
      ++I;
      continue;
    }
    if (C >= 0x80) {
      DecodedChar D = decodeUTF8(Text, I);
      if (D.Length != 0) {
        Fn(I, D.Length, '\0');
        I += D.Length;
        continue;
      }
    }
    Fn(I, 1, '?');
    ++I;
  }
}

/// Makes `Text` printable (see forEachCell) with a caret under the
/// character that starts at byte `CaretByte`; a long line is cut to a window
/// around the caret. Runs in time linear in the line and memory linear in
/// the window.
Excerpt makeExcerpt(std::string_view Text, std::size_t CaretByte) {
  std::size_t NumCells = 0;
  std::size_t CaretCell = std::string_view::npos;
  forEachCell(Text, [&](std::size_t Begin, std::size_t, char) {
    if (CaretCell == std::string_view::npos && Begin >= CaretByte)
      CaretCell = NumCells;
    ++NumCells;
  });
  if (CaretCell == std::string_view::npos)
    CaretCell = NumCells;

  std::size_t First = 0, Last = NumCells;
  if (NumCells > MaxExcerptWidth) {
    std::size_t Half = MaxExcerptWidth / 2;
    First = CaretCell > Half ? CaretCell - Half : 0;
    Last = std::min(NumCells, First + MaxExcerptWidth);
  }

  Excerpt E;
  if (First != 0) {
    E.Line += "...";
    E.Caret += "   ";
  }
  std::size_t Cell = 0;
  forEachCell(Text,
              [&](std::size_t Begin, std::size_t Length, char Replacement) {
                if (Cell >= First && Cell < Last) {
                  if (Replacement)
                    E.Line += Replacement;
                  else
                    E.Line.append(Text.substr(Begin, Length));
                  if (Cell < CaretCell)
                    E.Caret += Text[Begin] == '\t' && !Replacement ? '\t' : ' ';
                }
                ++Cell;
              });
  if (Last != NumCells)
    E.Line += "...";
  E.Caret += '^';
  return E;
}

} // namespace

std::string tilec::renderDiagnostic(const SourceFile *File,
                                    std::string_view ToolName,
                                    const Diagnostic &D) {
  std::string Out;
  const char *Label = D.Sev == Severity::Error     ? "error: "
                      : D.Sev == Severity::Warning ? "warning: "
                                                   : "note: ";
  if (!File || !D.Loc.isValid()) {
    Out.append(ToolName);
    Out += ": ";
    Out += Label;
    Out += D.Message;
    Out += '\n';
    return Out;
  }
  Out += File->getName();
  Out +=
      ':' + std::to_string(D.Loc.Line) + ':' + std::to_string(D.Loc.Col) + ": ";
  Out += Label;
  Out += D.Message;
  Out += '\n';
  Excerpt E = makeExcerpt(File->getLineText(D.Loc.Line), D.Loc.Col - 1);
  Out += E.Line;
  Out += '\n';
  Out += E.Caret;
  Out += '\n';
  return Out;
}

DiagnosticEngine::DiagnosticEngine(const SourceFile *File, DiagnosticSink Sink,
                                   unsigned MaxErrors)
    : File(File), Sink(std::move(Sink)), MaxErrors(MaxErrors) {}

void DiagnosticEngine::emit(Diagnostic D) {
  if (Sink)
    Sink(renderDiagnostic(File, "tilec", D));
  Diags.push_back(std::move(D));
}

void DiagnosticEngine::error(SourceLoc Loc, std::string Message) {
  ++NumErrors;
  DroppingNotes = true;
  if (Stopped)
    return;
  if (NumErrors > MaxErrors) {
    emit({Severity::Error, SourceLoc(),
          "too many errors emitted (more than " + std::to_string(MaxErrors) +
              "), stopping now"});
    Stopped = true;
    return;
  }
  DroppingNotes = false;
  emit({Severity::Error, Loc, std::move(Message)});
}

void DiagnosticEngine::warning(SourceLoc Loc, std::string Message) {
  DroppingNotes = Stopped;
  if (Stopped)
    return;
  emit({Severity::Warning, Loc, std::move(Message)});
}

void DiagnosticEngine::note(SourceLoc Loc, std::string Message) {
  if (DroppingNotes)
    return;
  emit({Severity::Note, Loc, std::move(Message)});
}

void DiagnosticEngine::fatal(SourceLoc Loc, std::string Message) {
  error(Loc, std::move(Message));
  Stopped = true;
}
