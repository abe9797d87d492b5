//===- Driver.h - The tilec compilation driver ------------------*- C++ -*-===//
//
// Runs a compilation: reads the source, runs the front end (parse, semantic
// analysis with -D overrides), generates and verifies the tile dialect for
// each selected kernel, then runs the per-kernel pipeline once per target
// architecture to produce the requested stages. Artifacts are collected in
// memory and written only when every kernel and target succeeded, so a
// failed run leaves no partial output.
//
// Stages plug in at `Driver::runKernelPipeline` (Driver.cpp), which runs once
// per kernel with its verified tile module: the front end's stages (ast,
// tile) are printed per architecture there, and the code generator's stages
// (llvm, ptx, cubin, fatbin, json) come from codegen/ for all the
// architectures of the kernel at once (compileKernel per architecture, then
// renderKernelArtifacts), appended to the same artifact list. Those come
// from the compile cache when it holds them (Driver::runCodegen).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_DRIVER_H
#define TILEC_COMPILER_DRIVER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// What tilec can emit, in pipeline order.
enum class Stage { AST, Tile, TileGPU, LLVM, PTX, Cubin, Fatbin, JSON };

/// Returns the stage named `Name` (`ast`, `tile`, `tile-gpu`, `llvm`, `ptx`,
/// `cubin`, `fatbin`, `json`), if any.
std::optional<Stage> parseStage(llvm::StringRef Name);
/// Returns the name of `S` as `--emit` spells it.
llvm::StringRef getStageName(Stage S);
/// Returns the file extension of `S`'s artifacts: `ast`, `tile.mlir`, `ll`,
/// `ptx`, `cubin`, `fatbin`, `json`.
llvm::StringRef getStageExtension(Stage S);
/// Returns the valid stage names, comma-separated.
llvm::StringRef getStageList();
/// Returns the stages produced when `--emit` is not given.
std::vector<Stage> getDefaultStages();

/// The options of one compilation, as given on the command line.
struct DriverOptions {
  /// The `.tile` files (`-` for standard input), compiled with the same
  /// options. A `-D` or `--kernel` must match in at least one of them.
  std::vector<std::string> InputPaths;
  /// `--kernel`: the kernels to compile, each value a comma-separated list;
  /// empty compiles all.
  std::vector<std::string> Kernels;
  /// `--arch`: target architectures, each value a comma-separated list;
  /// empty means the default (sm_90a).
  std::vector<std::string> Archs;
  /// `-D`: `NAME=VALUE` overrides of compile-time parameters.
  std::vector<std::string> Defines;
  /// `--emit`: stage names, each value a comma-separated list; empty means
  /// getDefaultStages().
  std::vector<std::string> Emit;
  /// `--output-name`: a template of the file-name stem (expandOutputName in
  /// compiler/OutputNames.h); empty for the kernel's variant stem.
  std::string OutputName;
  /// `-o`: a directory, the single file written, or `-` for `Out`
  /// (classifyOutput in compiler/OutputNames.h); without it textual
  /// artifacts go to `Out` and binary ones (cubin, fatbin) to the current
  /// directory.
  std::optional<std::string> Output;
  /// `-O`: the optimization level (0..3) of LLVM, NVPTX and ptxas.
  unsigned OptLevel = 3;
  /// `--ptxas`: the ptxas to use; empty to search for it.
  std::string PtxasPath;
  /// `--fatbinary`: the fatbinary to use; empty to search for it.
  std::string FatbinaryPath;
  /// `--cuda-path`: a CUDA toolkit root searched first for ptxas,
  /// fatbinary and libdevice; empty to use CUDA_HOME, CUDA_PATH, PATH and
  /// /usr/local/cuda.
  std::string CudaPath;
  /// `--print-ir-after-all`: dump the IR after every pass to `Err`.
  bool PrintIRAfterAll = false;
  /// `-lineinfo`: PTX `.file`/`.loc` directives naming the `.tile` source,
  /// kept in the cubin by `ptxas -lineinfo`.
  bool LineInfo = false;
  /// `--fast-math`: lower f32 transcendentals and division to PTX
  /// approximations (CodegenOptions::fastMath).
  bool FastMath = false;
  /// `--clusters`: let warp-specialized sm_90a kernels run in thread-block
  /// clusters with TMA multicast (CodegenOptions::clusters).
  bool Clusters = false;
  /// `--stats`: print each kernel's resources per architecture (registers,
  /// spills, stack, shared memory, barriers, grid) to `Err`.
  bool Stats = false;
  /// `--dry-run` (`-###`): run the front end, then print the external
  /// commands (ptxas, fatbinary) the run would execute to `Out` instead of
  /// compiling; nothing is written.
  bool DryRun = false;
  /// `-MD`: once the artifacts are written, write a Make rule to `DepFile`
  /// whose targets are the files written and whose prerequisites are the
  /// input files (compiler/DepFile.h).
  bool WriteDepFile = false;
  /// `-M`: run the front end, then write the Make rule of the files the same
  /// run without `-M` would write to `DepFile` or, when it is empty, to
  /// `Out`; nothing is compiled or written.
  bool DepsOnly = false;
  /// `-MF`: the dependency file of `-MD` (required) or `-M`.
  std::string DepFile;
  /// `--no-cache`: compile every kernel, neither reading nor writing the
  /// compile cache (compiler/Cache/CompileCache.h), as TILEC_DISABLE_CACHE=1
  /// does.
  bool NoCache = false;
};

/// Runs one compilation. Artifacts go to `Output` or, without it, to `Out`
/// (several separated by `// -----` lines) unless a binary stage was asked
/// for, in which case they all go to the current directory; diagnostics go
/// to `Err`. Files are named `<stem>.<arch>.<ext>` (compiler/OutputNames.h).
/// With `WriteDepFile` or `DepsOnly`, also writes their dependency rule.
/// What the code generator produces for a kernel comes from the compile
/// cache when an earlier run produced it (unless `NoCache`, the environment
/// (compiler/Cache/CacheConfig.h) or `PrintIRAfterAll` says otherwise), and
/// goes into it otherwise. Returns the exit status: 0 on success, 1 on any
/// error.
int runDriver(const DriverOptions &Options, llvm::raw_ostream &Out,
              llvm::raw_ostream &Err);

/// The warning the driver prints (after `tilec: `) for a performance note
/// of ptxas on `Kernel` built for `Arch`: `warning: <kernel> <arch>: ptxas
/// <note>`. The metadata holds the same notes
/// (`resources.performance_warnings`).
std::string formatPtxasNoteWarning(llvm::StringRef Kernel, llvm::StringRef Arch,
                                   llvm::StringRef Note);

/// Returns true if `Line`, a line of the driver's diagnostics, is a warning
/// made by formatPtxasNoteWarning.
bool isPtxasNoteWarning(llvm::StringRef Line);

/// Prints the versions of tilec, LLVM and ptxas (found from `PtxasPath`, if
/// not empty, or under `CudaPath` and the usual places) to `Out`.
void printVersion(llvm::raw_ostream &Out, llvm::StringRef PtxasPath,
                  llvm::StringRef CudaPath);

} // namespace tilec

#endif // TILEC_COMPILER_DRIVER_H
