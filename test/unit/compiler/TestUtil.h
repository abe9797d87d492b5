//===- TestUtil.h - Helpers of the front-end unit tests ---------*- C++ -*-===//

#ifndef TILEC_TEST_UNIT_COMPILER_TESTUTIL_H
#define TILEC_TEST_UNIT_COMPILER_TESTUTIL_H

#include "compiler/AST.h"
#include "compiler/Diagnostics.h"
#include "compiler/Sema.h"

#include <memory>
#include <string>
#include <vector>

namespace tilec::test {

/// A source run through the front end, with everything it produced.
struct FrontEndRun {
  /// The source.
  std::unique_ptr<SourceFile> Source;
  /// The diagnostics.
  std::unique_ptr<DiagnosticEngine> Diags;
  /// The AST.
  std::unique_ptr<ast::File> File;
  /// The analysis (null if only parsed).
  std::unique_ptr<Program> Prog;

  /// Returns the messages of the errors reported, in order.
  std::vector<std::string> errors() const;
  /// Returns every diagnostic rendered as tilec prints it.
  std::string rendered() const;
  /// Returns true if an error message contains `Text`.
  bool hasError(const std::string &Text) const;
};

/// Parses `Text` (as file `test.tile`).
FrontEndRun parse(const std::string &Text);
/// Parses and analyzes `Text` with `Options`.
FrontEndRun analyze(const std::string &Text,
                    const SemaOptions &Options = SemaOptions());
/// Returns the source of reference program `Name` (`gemm`, ...).
std::string referenceProgram(const std::string &Name);

} // namespace tilec::test

#endif // TILEC_TEST_UNIT_COMPILER_TESTUTIL_H
