//===- FrontEndFuzzer.cpp - libFuzzer target of the front end -------------===//
//
// Runs arbitrary bytes through the lexer, parser, semantic analysis, the AST
// printer and diagnostic rendering. Any crash, sanitizer report, timeout or
// runaway memory use is a bug: the front end must answer every input with
// diagnostics.
//
//===----------------------------------------------------------------------===//

#include "compiler/ASTPrinter.h"
#include "compiler/Parser.h"
#include "compiler/Sema.h"

#include <cstddef>
#include <cstdint>
#include <sstream>

using namespace tilec;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size) {
  SourceFile Source("fuzz.tile",
                    std::string(reinterpret_cast<const char *>(Data), Size));
  std::size_t Rendered = 0;
  DiagnosticEngine Diags(
      &Source, [&](const std::string &Text) { Rendered += Text.size(); });
  std::unique_ptr<ast::File> File = parseFile(Source, Diags);
  if (Diags.shouldStop())
    return 0;
  // Overrides exercise the -D paths for kernels that have these parameters.
  SemaOptions Options;
  if (Size % 2)
    Options.Defines = {{"block_M", "64"}, {"dtype", "bf16"}};
  std::unique_ptr<Program> Prog = analyze(*File, Options, Diags);
  std::ostringstream AST;
  printAST(AST, *File, nullptr);
  for (const KernelInfo &Kernel : Prog->Kernels)
    if (Kernel.Decl)
      checkSharedMemoryLimit(Kernel, Arch::SM80, Diags);
  return 0;
}
