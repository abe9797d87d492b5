//===- tilec-tune.cpp - The tilec tuning tool -----------------------------===//
//
// `tilec-tune compile SPACE.yaml -o PKG` runs the compile phase of tuning
// (CompilePhase.h, docs/tuning.md): it compiles the candidates of a tuning
// space that its constraints and the target keep, on every core, into a
// kernel package. Exit status: 0 on success, 1 on any error.
//
//===----------------------------------------------------------------------===//

#include "CompilePhase.h"

#include <CLI/CLI.hpp>

#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <string>
#include <vector>

namespace {

constexpr const char *Footer = R"(Examples:
  tilec-tune compile specs/gemm.tune.yaml -o pkg/gemm
      compile the candidates of the GEMM space into the package pkg/gemm/
      (pkg/gemm/index.json, a cubin and a metadata JSON per variant)
  tilec-tune compile specs/vector_add.tune.yaml -o pkg/va -j 1 --no-cache
      on one thread, without the compile cache

A tuning space names a .tile file, its architectures, candidate values for
compile-time parameters, constraints over them, register and spill limits
and the problem shapes to tune for: see docs/tuning.md. Candidates are
compiled by the tilec driver in process, through tilec's compile cache
($TILEC_CACHE_DIR; TILEC_DISABLE_CACHE=1 or --no-cache bypasses it), so an
unchanged space compiles again in moments. A progress bar is drawn when
standard error is a terminal; otherwise one line per compiled variant.)";

} // namespace

int main(int Argc, char **Argv) {
  CLI::App App("tilec-tune: compiles the tuning space of a tile kernel into "
               "a kernel package");
  App.footer(Footer);
  App.require_subcommand(1);
  tilec::CompilePhaseOptions Options;
  CLI::App *Compile = App.add_subcommand(
      "compile", "Compile a tuning space's candidates into a kernel package "
                 "(no GPU needed)");
  Compile
      ->add_option("space", Options.SpacePath,
                   "The tuning space (a YAML file, such as "
                   "specs/gemm.tune.yaml)")
      ->required();
  Compile
      ->add_option("-o,--output", Options.OutputDir,
                   "The package's directory (replaced if it holds a "
                   "package)")
      ->required();
  Compile
      ->add_option("-j,--jobs", Options.Jobs,
                   "Compile on this many threads (default: one per core)")
      ->check(CLI::Range(1u, 1024u));
  Compile->add_flag("--no-cache", Options.NoCache,
                    "Compile every candidate without reading or writing the "
                    "compile cache");
  Compile->add_option("--ptxas", Options.PtxasPath,
                      "The ptxas to use (default: searched as tilec does)");
  Compile->add_option("--cuda-path", Options.CudaPath,
                      "CUDA toolkit root searched first for ptxas and "
                      "libdevice");

  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  std::reverse(Args.begin(), Args.end());
  App.name(Argv[0]);
  try {
    App.parse(Args);
  } catch (const CLI::Success &Info) {
    return App.exit(Info);
  } catch (const CLI::ParseError &Error) {
    llvm::errs() << "tilec-tune: error: " << Error.what()
                 << "\nRun 'tilec-tune --help' for usage.\n";
    return 1;
  }
  Options.ProgressBar = llvm::sys::Process::StandardErrIsDisplayed();
  return tilec::runCompilePhase(Options, llvm::errs());
}
