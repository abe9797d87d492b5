//===- tilec.cpp - The tilec command-line tool ----------------------------===//
//
// Parses the command line and hands over to the driver library
// (compiler/Driver.h). Exit status: 0 on success, 1 on any error.
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver.h"
#include "compiler/Target.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "llvm/Support/raw_ostream.h"

namespace {

constexpr const char *Examples = R"(Examples:
  tilec specs/gemm.tile --emit=tile
      print the verified tile dialect of every kernel, with source locations
  tilec specs/gemm.tile --kernel gemm -D block_M=64 -D stages=2 --emit=ast
      override compile-time parameters and print the analyzed AST
  tilec specs/vector_add.tile --arch sm_90a -o out/
      write out/vector_add.sm_90a.cubin and out/vector_add.sm_90a.json
  tilec specs/vector_add.tile -D dtype=f16 --emit=ptx
      print the PTX of the f16 variant
  tilec specs/vector_add.tile -D dtype=f16 -o out/
      write out/vector_add-dtype_f16.sm_90a.{cubin,json}, beside the f32 ones
  tilec specs/vector_add.tile --emit=cubin -o va.cubin
      write the one cubin to va.cubin
  tilec specs/vector_add.tile --arch sm_80,sm_90a --emit=fatbin,json -o out/
      write out/vector_add.fatbin (both cubins plus PTX) and one JSON per arch
  tilec specs/vector_add.tile specs/scale_add.tile specs/gelu.tile -o out/
      compile the kernels of three files into out/ (all or nothing)
  tilec specs/vector_add.tile -o out/ -MD -MF out/vector_add.d
      also write the Make rule 'out/vector_add.sm_90a.cubin
      out/vector_add.sm_90a.json: specs/vector_add.tile' to out/vector_add.d
)";

constexpr const char *Outputs =
    R"(Default stages: cubin,json. Outputs: DIR/<stem>.<arch>.<ext> with -o DIR
(DIR/<stem>.fatbin for a fatbin), where <stem> is the kernel's name followed
by -NAME_VALUE for every compile-time parameter whose value differs from its
default (-D dtype=f16: vector_add-dtype_f16.sm_90a.cubin). -o FILE writes the
one file of a run that produces exactly one (one kernel, architecture and
stage) when FILE ends in .ast, .mlir, .ll, .ptx, .cubin, .fatbin or .json and
is not a directory; -o - writes to standard output. Without -o, textual
stages print to standard output and binary stages (cubin, fatbin) are written
to the current directory.

Compile cache: what the code generator produces for a kernel is kept under
a SHA-256 of everything that determines it (the source's bytes and path,
the kernel, its compile-time constants, the architectures, the stages and
options, the tilec, LLVM, ptxas and fatbinary builds), so compiling it again
reads the files back. It lives in $TILEC_CACHE_DIR (default
$XDG_CACHE_HOME/tilec, else $HOME/.cache/tilec) and keeps at most
$TILEC_CACHE_MAX_SIZE bytes (K, M, G suffixes; default 1G), evicting the least
recently used entries. TILEC_DISABLE_CACHE=1 or --no-cache bypasses it;
--print-ir-after-all, --dry-run and -M do not use it. A cache that cannot be
written is a warning, never an error. See docs/cache.md.)";

/// The help text's footer: the examples, the stages and architectures (from
/// the driver's and the target table's lists) and where outputs go.
std::string getFooter() {
  return std::string(Examples) +
         "\nStages (--emit, comma-separated): " + tilec::getStageList().str() +
         "\nArchitectures (--arch, comma-separated, repeatable; default " +
         tilec::getArchName(tilec::getDefaultArch()) +
         "): " + tilec::getArchList() + "\n" + Outputs;
}

} // namespace

int main(int Argc, char **Argv) {
  CLI::App App("tilec: ahead-of-time compiler for tile-level GPU kernels "
               "written in .tile");
  App.footer(getFooter());

  tilec::DriverOptions Options;
  std::string Output;
  bool Version = false;
  App.add_option("files", Options.InputPaths,
                 "The .tile source files, compiled with the same options "
                 "('-' reads standard input)");
  // Repeatable options take one value per occurrence, so that they never
  // swallow the input file that follows them. The driver splits the
  // comma-separated lists (and rejects empty names).
  App.add_option("--kernel", Options.Kernels,
                 "Compile only these kernels (comma-separated, repeatable)")
      ->allow_extra_args(false);
  App.add_option("--arch", Options.Archs,
                 "Target architectures (comma-separated, repeatable; "
                 "default sm_90a)")
      ->allow_extra_args(false);
  App.add_option("-D,--define", Options.Defines,
                 "Override a compile-time parameter: -D NAME=VALUE")
      ->allow_extra_args(false);
  App.add_option("--emit", Options.Emit,
                 "Stages to emit, comma-separated (" +
                     tilec::getStageList().str() + ")")
      ->allow_extra_args(false);
  App.add_option("-o,--output,--output-dir", Output,
                 "Write DIR/<stem>.<arch>.<ext>; a name with an extension "
                 "of an artifact (k.cubin) is the single file written, '-' "
                 "is standard output");
  App.add_option("--output-name", Options.OutputName,
                 "Template of the file-name stem: {kernel}, {variant} (the "
                 "default stem) and {NAME} for a compile-time parameter's "
                 "value, e.g. '{kernel}_{dtype}_b{block}'");
  App.add_option("-O,--opt-level", Options.OptLevel,
                 "Optimization level of LLVM, NVPTX and ptxas (0-3; "
                 "default 3; a bare -O is -O3)")
      ->check(CLI::Range(0u, 3u));
  App.add_option("--ptxas", Options.PtxasPath,
                 "The ptxas to use (default: DIR/bin of --cuda-path, "
                 "$CUDA_HOME/bin, $CUDA_PATH/bin, PATH, then "
                 "/usr/local/cuda/bin)");
  App.add_option("--fatbinary", Options.FatbinaryPath,
                 "The fatbinary to use (default: searched like ptxas)");
  App.add_option("--cuda-path", Options.CudaPath,
                 "CUDA toolkit root searched first for ptxas, fatbinary and "
                 "libdevice");
  App.add_flag("--lineinfo", Options.LineInfo,
               "Map the PTX and cubin to the .tile source (.file/.loc "
               "directives, ptxas -lineinfo); also spelled -lineinfo");
  App.add_flag("--fast-math", Options.FastMath,
               "Lower f32 exp, exp2, log, log2, sqrt, rsqrt, tanh, sin, cos "
               "and division to PTX approximations (ex2.approx.ftz, "
               "rcp.approx.ftz, ...), as nvcc --use_fast_math does; also "
               "spelled --use_fast_math");
  App.add_flag("--clusters", Options.Clusters,
               "Let warp-specialized sm_90a GEMMs run in clusters of two "
               "blocks that load B once for both (TMA multicast)");
  App.add_flag("--stats", Options.Stats,
               "Print each kernel's resources per architecture to standard "
               "error: registers, spills, stack, shared memory, barriers, "
               "grid");
  App.add_flag("--dry-run", Options.DryRun,
               "Check the sources, then print the ptxas and fatbinary "
               "commands the compilation would run instead of running it; "
               "write nothing (also spelled -###)");
  App.add_flag("--deps", Options.WriteDepFile,
               "Also write a Make rule to the --deps-file: the files "
               "written depend on the input files (also spelled -MD)");
  App.add_flag("--deps-only", Options.DepsOnly,
               "Check the sources, then write only the Make rule of the "
               "files the run would write, to the --deps-file or standard "
               "output; compile and write nothing (also spelled -M)");
  App.add_option("--deps-file", Options.DepFile,
                 "The dependency file of --deps or --deps-only (also "
                 "spelled -MF FILE)");
  App.add_flag("--no-cache", Options.NoCache,
               "Compile every kernel without reading or writing the compile "
               "cache (as TILEC_DISABLE_CACHE=1 does)");
  App.add_flag("--print-ir-after-all", Options.PrintIRAfterAll,
               "Print the IR after every MLIR pass and every LLVM step to "
               "standard error");
  App.add_flag("--version", Version,
               "Print the versions of tilec, LLVM and ptxas and exit");

  // Spellings CLI11 cannot declare: a bare -O, as C compilers accept it, is
  // -O3 rather than an option that takes the next argument (a flag, the
  // input file) as its level; -lineinfo is nvcc's spelling of --lineinfo,
  // --use_fast_math (or -use_fast_math) nvcc's of --fast-math, -### clang's
  // of --dry-run; -MD, -M and -MF FILE (or -MFFILE) are clang's
  // and nvcc's of --deps, --deps-only and --deps-file.
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  for (std::string &Arg : Args) {
    if (Arg == "-O")
      Arg = "-O3";
    else if (Arg == "-lineinfo")
      Arg = "--lineinfo";
    else if (Arg == "--use_fast_math" || Arg == "-use_fast_math")
      Arg = "--fast-math";
    else if (Arg == "-###")
      Arg = "--dry-run";
    else if (Arg == "-MD")
      Arg = "--deps";
    else if (Arg == "-M")
      Arg = "--deps-only";
    else if (Arg == "-MF")
      Arg = "--deps-file";
    else if (Arg.rfind("-MF", 0) == 0)
      Arg = "--deps-file=" + Arg.substr(3);
  }
  // CLI11 takes the arguments last first, without the program's name.
  std::reverse(Args.begin(), Args.end());
  App.name(Argv[0]);
  try {
    App.parse(Args);
  } catch (const CLI::Success &Info) {
    return App.exit(Info);
  } catch (const CLI::ParseError &Error) {
    llvm::errs() << "tilec: error: " << Error.what()
                 << "\nRun 'tilec --help' for usage.\n";
    return 1;
  }

  int Status;
  if (Version) {
    tilec::printVersion(llvm::outs(), Options.PtxasPath, Options.CudaPath);
    Status = 0;
  } else if (Options.InputPaths.empty()) {
    llvm::errs() << "tilec: error: no input file\nRun 'tilec --help' for "
                    "usage.\n";
    return 1;
  } else {
    if (App.count("-o"))
      Options.Output = Output;
    Status = tilec::runDriver(Options, llvm::outs(), llvm::errs());
  }
  // A failed write to standard output (a full disk) is an error, not an
  // abort when the stream is destroyed.
  llvm::outs().flush();
  if (llvm::outs().has_error()) {
    llvm::errs() << "tilec: error: cannot write to standard output: "
                 << llvm::outs().error().message() << "\n";
    llvm::outs().clear_error();
    return 1;
  }
  return Status;
}
