//===- Sema.h - Semantic analysis of .tile programs -------------*- C++ -*-===//
//
// Resolves names, checks types and the placement rules of tile statements,
// folds compile-time parameters (with -D overrides) and annotates the AST for
// MLIR generation. See docs/language.md for the rules enforced here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_SEMA_H
#define TILEC_COMPILER_SEMA_H

#include "compiler/AST.h"
#include "compiler/Diagnostics.h"
#include "compiler/Symbol.h"
#include "compiler/Target.h"

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// A `-D name=value` override of a compile-time parameter.
struct Define {
  /// The parameter's name.
  std::string Name;
  /// The value as written.
  std::string Value;
};

/// Parses the value of a floating-point `-D` (or of a tuning space's
/// candidate): an integer or floating-point literal as the language spells
/// it (`2`, `1.5`, `1e-3`), optionally negative, that fits a double.
std::optional<double> parseDefineFloat(std::string_view Text);

/// What semantic analysis is asked to do.
struct SemaOptions {
  /// Overrides of compile-time parameters. Each must name a parameter of a
  /// selected kernel and have a value of the parameter's kind.
  std::vector<Define> Defines;
  /// Kernels the overrides apply to; empty selects every kernel. Every name
  /// must be a kernel of the file.
  std::vector<std::string> SelectedKernels;
  /// Report a -D that no selected kernel uses and a --kernel that names no
  /// kernel of the file. A driver that compiles several files with the same
  /// options turns it off and reports what no file matched
  /// (Program::DefineUsed, Program::KernelFound).
  bool ReportUnmatched = true;
};

/// A shared-memory allocation, for checks against a target's limit.
struct SharedAllocation {
  /// The tile.
  const Symbol *Sym;
  /// Its size in bytes.
  std::int64_t Bytes;
};

/// What semantic analysis found out about one kernel.
struct KernelInfo {
  /// The kernel.
  const ast::KernelDecl *Decl = nullptr;
  /// True if the kernel was selected (by name, or because none were).
  bool Selected = false;
  /// Compile-time parameters in declaration order, with resolved values.
  std::vector<const Symbol *> ConstParams;
  /// Tensor parameters in declaration order (the first ABI group).
  std::vector<const Symbol *> Tensors;
  /// Symbolic dims in order of first appearance (the second ABI group).
  std::vector<const Symbol *> Dims;
  /// Scalar parameters in declaration order (the third ABI group).
  std::vector<const Symbol *> Scalars;
  /// The kernel's launch.
  const ast::LaunchStmt *Launch = nullptr;
  /// Shared-memory tiles in allocation order.
  std::vector<SharedAllocation> SharedAllocations;
};

/// The result of analyzing a file: the symbols (which the annotated AST
/// points to) and one KernelInfo per kernel, in source order.
struct Program {
  /// Every symbol; a deque so that their addresses are stable.
  std::deque<Symbol> Symbols;
  /// One entry per kernel of the file.
  std::vector<KernelInfo> Kernels;
  /// For each of SemaOptions::Defines: true if a selected kernel has the
  /// parameter (or the -D was already reported).
  std::vector<bool> DefineUsed;
  /// For each of SemaOptions::SelectedKernels: true if the file defines it.
  std::vector<bool> KernelFound;
};

/// Analyzes `File` and annotates it, reporting problems to `Diags`. The
/// result is meaningful only if no error was reported.
std::unique_ptr<Program> analyze(ast::File &File, const SemaOptions &Options,
                                 DiagnosticEngine &Diags);

/// Checks that the shared memory `Kernel` allocates fits in one block on
/// `Target`, reporting the allocation that crosses the limit.
void checkSharedMemoryLimit(const KernelInfo &Kernel, Arch Target,
                            DiagnosticEngine &Diags);

} // namespace tilec

#endif // TILEC_COMPILER_SEMA_H
