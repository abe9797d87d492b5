//===- ASTPrinter.h - Readable dump of the AST ------------------*- C++ -*-===//
//
// The `--emit=ast` format: one node per line, children indented by two
// spaces, each with its `<line:col>` and, after semantic analysis, its type
// and constant value.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_ASTPRINTER_H
#define TILEC_COMPILER_ASTPRINTER_H

#include "compiler/AST.h"

#include <ostream>

namespace tilec {

/// Prints every function of `File` and then `Kernel` (which must belong to
/// `File`), or every kernel if `Kernel` is null.
void printAST(std::ostream &OS, const ast::File &File,
              const ast::KernelDecl *Kernel);

} // namespace tilec

#endif // TILEC_COMPILER_ASTPRINTER_H
