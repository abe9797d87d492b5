//===- tilec-tune.cpp - The tilec tuning tool -----------------------------===//
//
// `tilec-tune compile SPACE.yaml -o PKG` runs the compile phase of tuning
// (CompilePhase.h, docs/tuning.md): it compiles the candidates of a tuning
// space that its constraints and the target keep, on every core, into a
// kernel package. `tilec-tune manifest FILE.yaml` checks a kernel manifest
// (KernelManifest.h, docs/cmake.md) and prints its compilations as JSON, for
// tilec_add_kernels(... MANIFEST); `tilec-tune export PKG -o FILE.yaml`
// writes the manifest of a tuned package's chosen variants
// (ManifestExport.h). Exit status: 0 on success, 1 on any error.
//
//===----------------------------------------------------------------------===//

#include "CompilePhase.h"
#include "ManifestExport.h"

#include "compiler/Tune/KernelManifest.h"

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
  tilec-tune manifest kernels.yaml
      check a kernel manifest and print what it compiles (JSON)
  tilec-tune export pkg/gemm -o kernels.yaml
      the variants tile-bench tune chose for pkg/gemm, as a manifest

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
               "a kernel package, and checks kernel manifests");
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

  std::string ManifestPath;
  CLI::App *Manifest = App.add_subcommand(
      "manifest", "Check a kernel manifest (kernels x configurations x "
                  "architectures, docs/cmake.md) and print its compilations "
                  "as JSON, as tilec_add_kernels(... MANIFEST) reads them");
  Manifest->add_option("manifest", ManifestPath, "The manifest (YAML)")
      ->required();

  std::string ExportPackage, ExportOutput;
  CLI::App *Export = App.add_subcommand(
      "export", "Write the kernel manifest of the variants a tuned package's "
                "tuning.json selects (and its default), for "
                "tilec_add_kernels(... MANIFEST)");
  Export
      ->add_option("package", ExportPackage,
                   "The tuned package (tilec-tune compile, then "
                   "tile-bench tune)")
      ->required();
  Export->add_option("-o,--output", ExportOutput, "The manifest to write")
      ->required();

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
  if (Export->parsed())
    return tilec::exportTunedManifest(ExportPackage, ExportOutput,
                                      llvm::errs());
  if (Manifest->parsed()) {
    std::optional<std::vector<tilec::ManifestCompile>> Compiles =
        tilec::loadKernelManifest(ManifestPath, [](const std::string &Text) {
          llvm::errs() << Text;
        });
    if (!Compiles)
      return 1;
    llvm::outs() << tilec::describeManifestCompiles(*Compiles).dump(2) << "\n";
    return 0;
  }
  Options.ProgressBar = llvm::sys::Process::StandardErrIsDisplayed();
  return tilec::runCompilePhase(Options, llvm::errs());
}
