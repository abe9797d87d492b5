//===- Parser.h - Parser of the .tile language ------------------*- C++ -*-===//
//
// A recursive-descent parser with statement-level error recovery. Its
// recursion is bounded: nesting deeper than limits::MaxNestingDepth, or an
// expression taller than limits::MaxExprHeight, is a fatal located error.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_PARSER_H
#define TILEC_COMPILER_PARSER_H

#include "compiler/AST.h"
#include "compiler/Diagnostics.h"

#include <memory>

namespace tilec {

/// Tokenizes and parses `File`, reporting problems to `Diags`. Always returns
/// a file; after errors it holds the declarations that parsed.
std::unique_ptr<ast::File> parseFile(const SourceFile &File,
                                     DiagnosticEngine &Diags);

} // namespace tilec

#endif // TILEC_COMPILER_PARSER_H
