//===- Driver.cpp - The tilec compilation driver --------------------------===//

#include "compiler/Driver.h"

#include "compiler/ASTPrinter.h"
#include "compiler/Cache/BuildIdentity.h"
#include "compiler/Cache/BuildInfo.h"
#include "compiler/Cache/CacheKey.h"
#include "compiler/Cache/CompileCache.h"
#include "compiler/DepFile.h"
#include "compiler/Diagnostics.h"
#include "compiler/Limits.h"
#include "compiler/MLIRGen.h"
#include "compiler/OutputNames.h"
#include "compiler/Parser.h"
#include "compiler/Sema.h"
#include "compiler/Target.h"

#include "codegen/ArtifactWriter.h"
#include "codegen/CudaToolkit.h"
#include "codegen/ExternalTool.h"
#include "codegen/Fatbinary.h"
#include "codegen/KernelCompiler.h"
#include "codegen/Ptxas.h"
#include "codegen/Sha256.h"
#include "codegen/Version.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"

#include <sstream>

using namespace tilec;

namespace {

struct StageInfo {
  Stage S;
  llvm::StringRef Name;
  llvm::StringRef Extension;
};

constexpr StageInfo Stages[] = {
    {Stage::AST, "ast", "ast"},
    {Stage::Tile, "tile", "tile.mlir"},
    {Stage::TileGPU, "tile-gpu", "tile-gpu.mlir"},
    {Stage::LLVM, "llvm", "ll"},
    {Stage::PTX, "ptx", "ptx"},
    {Stage::Cubin, "cubin", "cubin"},
    {Stage::Fatbin, "fatbin", "fatbin"},
    {Stage::JSON, "json", "json"},
};

/// The inputs of the per-kernel pipeline.
struct KernelJob {
  /// The parsed file.
  const ast::File &File;
  /// The kernel, as semantic analysis saw it.
  const KernelInfo &Kernel;
  /// The verified tile module of the kernel (null when no requested stage
  /// needs it).
  mlir::ModuleOp Module;
};

/// Returns true for the stages the code generator produces (from the tile
/// module, for all architectures of a kernel at once: a fatbin holds them
/// all).
bool isCodegenStage(Stage S) { return S != Stage::AST && S != Stage::Tile; }

/// One invocation of tilec.
class Driver {
public:
  Driver(const DriverOptions &Options, llvm::raw_ostream &Out,
         llvm::raw_ostream &Err)
      : Options(Options), Out(Out), Err(Err),
        Diags(nullptr, [&Err](const std::string &Text) { Err << Text; }) {}

  int run();

private:
  bool parseOptions();
  void parseList(llvm::StringRef Option, llvm::ArrayRef<std::string> Values,
                 std::vector<std::string> &Names);
  bool compileFile(const std::string &Path,
                   std::vector<ArtifactFile> &Artifacts);
  bool loadSource(const std::string &Path);
  void reportUnmatchedOptions();
  bool runKernelPipeline(const KernelJob &Job,
                         std::vector<ArtifactFile> &Artifacts);
  std::string printFrontEndStage(const KernelJob &Job, Stage S);
  bool runCodegen(const KernelJob &Job, const std::string &Stem,
                  std::vector<ArtifactFile> &Artifacts);
  std::optional<CacheKeyInputs> getCacheKeyInputs(const KernelJob &Job,
                                                  const std::string &Stem,
                                                  const EmitStages &Stages,
                                                  const KernelSource &Source);
  std::optional<CacheKeyTool> identifyTool(llvm::StringRef Role,
                                           llvm::StringRef ExplicitPath);
  void predictCodegenArtifacts(const std::string &Stem,
                               const EmitStages &Stages,
                               std::vector<ArtifactFile> &Artifacts);
  bool printToolCommands(mlir::tile::KernelOp Kernel, const EmitStages &Stages);
  bool planOutputFiles(const std::vector<ArtifactFile> &Artifacts,
                       std::string &Dir, std::vector<ArtifactFile> &Files);
  bool writeArtifacts(const std::vector<ArtifactFile> &Artifacts);
  bool writeDependencies(const std::vector<ArtifactFile> &Artifacts);
  void error(const std::string &Message) { Diags.error(SourceLoc(), Message); }
  /// Returns true if a binary stage (cubin, fatbin) is emitted.
  bool emitsBinary() const {
    return llvm::any_of(
        Emit, [](Stage S) { return S == Stage::Cubin || S == Stage::Fatbin; });
  }
  /// Returns what -o names, if given.
  std::optional<OutputKind> getOutputKind() const {
    if (!Options.Output)
      return std::nullopt;
    return classifyOutput(*Options.Output,
                          llvm::sys::fs::is_directory(*Options.Output));
  }
  /// Returns true if the artifacts are printed to standard output.
  bool writesToStdout() const {
    std::optional<OutputKind> Kind = getOutputKind();
    return Kind == OutputKind::Stdout || (!Kind && !emitsBinary());
  }

  const DriverOptions &Options;
  llvm::raw_ostream &Out;
  llvm::raw_ostream &Err;
  DiagnosticEngine Diags;

  std::vector<Arch> Archs;
  std::vector<Stage> Emit;
  SemaOptions Sema;
  /// Every input file read so far (diagnostics may point into any), and the
  /// one being compiled.
  std::vector<std::unique_ptr<SourceFile>> Sources;
  const SourceFile *Source = nullptr;
  /// The input file each artifact comes from, by artifact name.
  llvm::StringMap<std::string> ArtifactOrigins;
  /// With several input files: which -D and --kernel some file matched.
  std::vector<bool> DefineUsed, KernelFound;
  /// What the kernels compiled so far cost (KernelArtifacts::cost).
  std::uint64_t CodegenCost = 0;
  /// Set once a kernel was not compiled for want of budget.
  bool CodegenBudgetReported = false;
  /// The compile cache, when this run compiles (not for -M, --dry-run and
  /// --print-ir-after-all, whose output a hit would not print).
  std::optional<CompileCache> Cache;
  /// The CUDA tools identified for the cache keys so far, by role (nullopt
  /// when one could not be found: the compilation reports why).
  llvm::StringMap<std::optional<CacheKeyTool>> ToolIdentities;
};

/// Splits the comma-separated `Values` of `Option` into `Names`; an empty
/// name (`ptx,,json`, a trailing comma) is an error, and the value is
/// dropped.
void Driver::parseList(llvm::StringRef Option,
                       llvm::ArrayRef<std::string> Values,
                       std::vector<std::string> &Names) {
  for (const std::string &Value : Values) {
    llvm::SmallVector<llvm::StringRef> Parts;
    llvm::StringRef(Value).split(Parts, ',');
    if (llvm::is_contained(Parts, "")) {
      error(Option.str() + " '" + Value +
            "': empty name in the comma-separated list");
      continue;
    }
    for (llvm::StringRef Part : Parts)
      Names.push_back(Part.str());
  }
}

bool Driver::parseOptions() {
  std::vector<std::string> ArchNames, StageNames, KernelNames;
  if (llvm::count(Options.InputPaths, "-") > 1)
    error("standard input ('-') can be read only once");
  parseList("--arch", Options.Archs, ArchNames);
  parseList("--emit", Options.Emit, StageNames);
  parseList("--kernel", Options.Kernels, KernelNames);
  for (const std::string &Name : ArchNames) {
    std::optional<Arch> A = parseArch(Name);
    if (std::string Future = describeFutureArch(Name); !A && !Future.empty()) {
      error(Future);
      continue;
    }
    if (!A) {
      error("unknown architecture '" + Name + "' (valid: " + getArchList() +
            ")");
      continue;
    }
    if (!llvm::is_contained(Archs, *A))
      Archs.push_back(*A);
  }
  if (Options.Archs.empty())
    Archs.push_back(getDefaultArch());

  for (const std::string &Name : StageNames) {
    std::optional<Stage> S = parseStage(Name);
    if (!S) {
      error("unknown --emit stage '" + Name +
            "' (valid: " + getStageList().str() + ")");
      continue;
    }
    if (!llvm::is_contained(Emit, *S))
      Emit.push_back(*S);
  }
  if (Options.Emit.empty())
    Emit = getDefaultStages();
  llvm::sort(Emit);

  for (const std::string &Text : Options.Defines) {
    std::size_t Equal = Text.find('=');
    llvm::StringRef Name = llvm::StringRef(Text).substr(0, Equal);
    bool ValidName =
        !Name.empty() && !llvm::isDigit(Name.front()) &&
        llvm::all_of(Name, [](char C) { return llvm::isAlnum(C) || C == '_'; });
    if (Equal == std::string::npos || !ValidName || Equal + 1 == Text.size()) {
      error("-D " + Text + ": expected NAME=VALUE, such as -D block_M=64");
      continue;
    }
    Sema.Defines.push_back({Name.str(), Text.substr(Equal + 1)});
  }
  if (Options.Stats && !llvm::any_of(Emit, [](Stage S) {
        return isCodegenStage(S) && S != Stage::TileGPU;
      }))
    error("--stats reports what ptxas assembled: emit llvm, ptx, cubin, "
          "fatbin or json");
  if (Options.WriteDepFile && Options.DepsOnly)
    error("-M writes only the dependency rule and -MD writes it beside the "
          "artifacts: give one of them");
  else if (Options.WriteDepFile && Options.DepFile.empty())
    error("-MD writes a dependency file: name it with -MF FILE");
  else if (!Options.DepFile.empty() && !Options.WriteDepFile &&
           !Options.DepsOnly)
    error("-MF " + Options.DepFile +
          " names the dependency file of -MD or -M: give one of them");
  if ((Options.WriteDepFile || Options.DepsOnly) && writesToStdout())
    error(std::string(Options.DepsOnly ? "-M" : "-MD") +
          " lists the files a run writes, but this one prints to standard "
          "output: name a directory or file with -o");
  if (Options.WriteDepFile && Options.DryRun)
    error("--dry-run writes nothing for -MD to list; use -M for the "
          "dependency rule alone");
  Sema.SelectedKernels = KernelNames;
  Sema.ReportUnmatched = Options.InputPaths.size() == 1;
  DefineUsed.assign(Sema.Defines.size(), false);
  KernelFound.assign(Sema.SelectedKernels.size(), false);
  return !Diags.hasErrors();
}

bool Driver::loadSource(const std::string &Path) {
  if (llvm::sys::fs::is_directory(Path)) {
    error("cannot read '" + Path + "': it is a directory");
    return false;
  }
  bool Stdin = Path == "-";
  std::string Name = Stdin ? "<stdin>" : Path;
  llvm::Expected<llvm::sys::fs::file_t> File =
      Stdin ? llvm::sys::fs::getStdinHandle()
            : llvm::sys::fs::openNativeFileForRead(Path);
  if (!File) {
    error("cannot read '" + Path + "': " + llvm::toString(File.takeError()));
    return false;
  }
  // At most one byte over the limit: a pipe or a device (/dev/zero) may
  // never end.
  std::string Contents;
  std::error_code Failure;
  constexpr std::size_t Chunk = 1 << 16;
  while (Contents.size() <= limits::MaxSourceBytes) {
    std::size_t Size = Contents.size();
    Contents.resize(Size + Chunk);
    llvm::Expected<std::size_t> Read = llvm::sys::fs::readNativeFile(
        *File, llvm::MutableArrayRef<char>(Contents.data() + Size, Chunk));
    if (!Read) {
      Failure = llvm::errorToErrorCode(Read.takeError());
      Contents.resize(Size);
      break;
    }
    Contents.resize(Size + *Read);
    if (*Read == 0)
      break;
  }
  if (!Stdin)
    llvm::sys::fs::closeFile(*File);
  if (Failure) {
    error("cannot read '" + Name + "': " + Failure.message());
    return false;
  }
  if (Contents.size() > limits::MaxSourceBytes) {
    error("'" + Name + "' is too large (more than " +
          std::to_string(limits::MaxSourceBytes) + " bytes)");
    return false;
  }
  Sources.push_back(std::make_unique<SourceFile>(Name, std::move(Contents)));
  Source = Sources.back().get();
  Diags.setFile(Source);
  return true;
}

int Driver::run() {
  if (!parseOptions())
    return 1;
  if (!Options.DepsOnly && !Options.DryRun && !Options.PrintIRAfterAll)
    Cache.emplace(
        resolveCacheConfig(CacheEnvironment::fromProcess(), Options.NoCache),
        [this](const std::string &Message) {
          Diags.warning(SourceLoc(), Message);
        });
  bool Ok = true;
  std::vector<ArtifactFile> Artifacts;
  for (const std::string &Path : Options.InputPaths)
    Ok &= compileFile(Path, Artifacts);
  if (!Ok || Diags.hasErrors())
    return 1;
  reportUnmatchedOptions();
  if (Diags.hasErrors())
    return 1;
  if (Options.DepsOnly)
    return writeDependencies(Artifacts) ? 0 : 1;
  if (Options.DryRun)
    return 0;
  if (!writeArtifacts(Artifacts))
    return 1;
  return !Options.WriteDepFile || writeDependencies(Artifacts) ? 0 : 1;
}

/// With several input files, reports the -D and --kernel that no file
/// matched (with one, semantic analysis reported them).
void Driver::reportUnmatchedOptions() {
  if (Sema.ReportUnmatched)
    return;
  Diags.setFile(nullptr);
  for (std::size_t I = 0; I != DefineUsed.size(); ++I)
    if (!DefineUsed[I])
      error("-D " + Sema.Defines[I].Name + "=" + Sema.Defines[I].Value +
            ": no selected kernel of the input files has a compile-time "
            "parameter named '" +
            Sema.Defines[I].Name + "'");
  for (std::size_t I = 0; I != KernelFound.size(); ++I)
    if (!KernelFound[I])
      error("--kernel " + Sema.SelectedKernels[I] + ": no kernel named '" +
            Sema.SelectedKernels[I] + "' in the input files");
}

/// Compiles the file `Path`, appending its artifacts to `Artifacts`.
bool Driver::compileFile(const std::string &Path,
                         std::vector<ArtifactFile> &Artifacts) {
  if (!loadSource(Path))
    return false;
  unsigned ErrorsBefore = Diags.getNumErrors();
  auto Failed = [&] { return Diags.getNumErrors() != ErrorsBefore; };

  // The front end.
  // Semantic analysis of a file with syntax errors would report errors that
  // are only consequences of the statements the parser dropped.
  std::unique_ptr<ast::File> File = parseFile(*Source, Diags);
  if (Failed())
    return false;
  std::unique_ptr<Program> Prog = analyze(*File, Sema, Diags);
  if (Failed())
    return false;
  for (std::size_t I = 0; I != DefineUsed.size(); ++I)
    DefineUsed[I] = DefineUsed[I] || Prog->DefineUsed[I];
  for (std::size_t I = 0; I != KernelFound.size(); ++I)
    KernelFound[I] = KernelFound[I] || Prog->KernelFound[I];
  if (File->Kernels.empty()) {
    error("'" + Source->getName() + "' defines no kernel");
    return false;
  }
  for (const KernelInfo &Kernel : Prog->Kernels)
    if (Kernel.Selected)
      for (Arch Target : Archs)
        checkSharedMemoryLimit(Kernel, Target, Diags);
  if (Failed())
    return false;

  // MLIR generation, verification and the per-kernel pipelines. Verifier
  // messages print like the front end's, against the same source.
  mlir::MLIRContext Context(mlir::MLIRContext::Threading::DISABLED);
  // Located messages only: no dump of the failing op in generic form.
  Context.printOpOnDiagnostic(false);
  loadFrontEndDialects(Context);
  llvm::SourceMgr SourceMgr;
  SourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(Source->getContents(), Source->getName(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler Handler(SourceMgr, &Context, Err);
  bool NeedsModule =
      llvm::any_of(Emit, [](Stage S) { return S != Stage::AST; });
  bool Ok = true;
  std::size_t FirstArtifact = Artifacts.size();
  for (const KernelInfo &Kernel : Prog->Kernels) {
    if (!Kernel.Selected)
      continue;
    mlir::OwningOpRef<mlir::ModuleOp> Module;
    if (NeedsModule) {
      Module = generateKernel(Context, *Source, Kernel);
      if (mlir::failed(mlir::verify(*Module))) {
        Ok = false;
        continue;
      }
    }
    Ok &= runKernelPipeline({*File, Kernel, Module.get()}, Artifacts);
  }
  if (!Ok || Failed())
    return false;

  // Two input files may define kernels of the same name, and an
  // --output-name may give two kernels the same stem.
  for (std::size_t I = FirstArtifact; I != Artifacts.size(); ++I) {
    auto [It, Inserted] =
        ArtifactOrigins.try_emplace(Artifacts[I].name, Source->getName());
    if (Inserted)
      continue;
    if (!Options.OutputName.empty())
      error("two kernels would be written to '" + Artifacts[I].name +
            "': give --output-name a {kernel} or the parameters that "
            "tell them apart");
    else
      error("'" + Source->getName() + "' and '" + It->second +
            "' both produce '" + Artifacts[I].name +
            "' (kernels of the same name); compile them separately, into "
            "different directories");
    return false;
  }
  return true;
}

bool Driver::runKernelPipeline(const KernelJob &Job,
                               std::vector<ArtifactFile> &Artifacts) {
  // The front end's stages, once per architecture.
  std::string Stem =
      getVariantStem(Job.Kernel.Decl->Name.Name, getChangedParams(Job.Kernel));
  if (!Options.OutputName.empty()) {
    std::string Failure;
    Stem = expandOutputName(Options.OutputName, Job.Kernel.Decl->Name.Name,
                            Stem, getParamValues(Job.Kernel), Failure);
    if (!Failure.empty()) {
      error(Failure);
      return false;
    }
  }
  for (Arch Target : Archs)
    for (Stage S : Emit)
      if (!isCodegenStage(S))
        Artifacts.push_back({Stem + "." + getArchName(Target) + "." +
                                 getStageExtension(S).str(),
                             printFrontEndStage(Job, S)});

  return runCodegen(Job, Stem, Artifacts);
}

/// Returns the code generator's stages among `Emit`.
static EmitStages getCodegenStages(llvm::ArrayRef<Stage> Emit) {
  EmitStages Stages;
  for (Stage S : Emit) {
    Stages.tileGPU |= S == Stage::TileGPU;
    Stages.llvm |= S == Stage::LLVM;
    Stages.ptx |= S == Stage::PTX;
    Stages.cubin |= S == Stage::Cubin;
    Stages.fatbin |= S == Stage::Fatbin;
    Stages.json |= S == Stage::JSON;
  }
  return Stages;
}

bool Driver::runCodegen(const KernelJob &Job, const std::string &Stem,
                        std::vector<ArtifactFile> &Artifacts) {
  EmitStages Stages = getCodegenStages(Emit);
  if (!Stages.any())
    return true;
  mlir::ModuleOp Module = Job.Module;
  mlir::tile::KernelOp Kernel = *Module.getOps<mlir::tile::KernelOp>().begin();
  if (Options.DepsOnly) {
    predictCodegenArtifacts(Stem, Stages, Artifacts);
    return true;
  }
  if (Options.DryRun)
    return printToolCommands(Kernel, Stages);
  KernelSource SourceInfo{Source->getName(), sha256Hex(Source->getContents())};

  // A hit gives the files the compilation below would produce, and the
  // lines it would print.
  std::optional<std::string> Key;
  nlohmann::ordered_json KeyInputs;
  if (Cache && Cache->isEnabled())
    if (std::optional<CacheKeyInputs> Inputs =
            getCacheKeyInputs(Job, Stem, Stages, SourceInfo)) {
      Key = computeCacheKey(*Inputs);
      KeyInputs = describeCacheKeyInputs(*Inputs);
      if (std::optional<CacheEntry> Hit = Cache->lookup(*Key)) {
        for (const std::string &Message : Hit->Messages)
          Err << "tilec: " << Message << "\n";
        for (CachedFile &File : Hit->Files)
          Artifacts.push_back({std::move(File.Name), std::move(File.Contents)});
        return true;
      }
    }

  std::vector<std::string> Messages;
  std::vector<KernelArtifacts> Builds;
  for (Arch Target : Archs) {
    // Each kernel is bounded, but a file may hold any number of them.
    if (CodegenCost > kMaxCompilationCost) {
      if (!CodegenBudgetReported)
        mlir::emitError(Kernel.getLoc())
            << "kernel '" << Kernel.getSymName() << "' is not compiled for "
            << getArchName(Target)
            << ": the kernels and architectures compiled before used up what "
               "the code generator compiles in one run; compile fewer at "
               "once (--kernel, --arch)";
      CodegenBudgetReported = true;
      return false;
    }
    CodegenOptions Codegen;
    Codegen.arch = getArchName(Target);
    Codegen.optLevel = Options.OptLevel;
    Codegen.assemble = Stages.needsCubin() || Options.Stats;
    Codegen.keepTileGPU = Stages.tileGPU;
    Codegen.stopAfterTileGPU = !Stages.needsLowering();
    Codegen.ptxasPath = Options.PtxasPath;
    Codegen.cudaPath = Options.CudaPath;
    Codegen.printIRAfterAll = Options.PrintIRAfterAll;
    Codegen.lineInfo = Options.LineInfo;
    Codegen.fastMath = Options.FastMath;
    Codegen.clusters = Options.Clusters;
    Codegen.irDumpStream = &Err;
    mlir::FailureOr<KernelArtifacts> Built =
        compileKernel(Kernel, Codegen, SourceInfo);
    if (mlir::failed(Built))
      return false;
    CodegenCost += Built->cost;
    for (const std::string &Warning : Built->resources.performanceWarnings) {
      Messages.push_back(formatPtxasNoteWarning(Built->kernelName,
                                                Built->target.arch, Warning));
      Err << "tilec: " << Messages.back() << "\n";
    }
    if (Options.Stats) {
      Messages.push_back(formatResourceReport(*Built));
      Err << "tilec: " << Messages.back() << "\n";
    }
    Builds.push_back(std::move(*Built));
  }
  ArtifactOptions Rendering;
  Rendering.stages = Stages;
  Rendering.fatbinaryPath = Options.FatbinaryPath;
  Rendering.cudaPath = Options.CudaPath;
  Rendering.fileStem = Stem;
  Rendering.listBinaries = !writesToStdout();
  mlir::FailureOr<std::vector<ArtifactFile>> Files =
      renderKernelArtifacts(Kernel.getLoc(), Builds, Rendering);
  if (mlir::failed(Files))
    return false;
  if (Key) {
    CacheEntry Entry;
    for (const ArtifactFile &File : *Files)
      Entry.Files.push_back({File.name, File.contents});
    Entry.Messages = std::move(Messages);
    Cache->store(*Key, KeyInputs, Entry);
  }
  llvm::append_range(Artifacts, std::move(*Files));
  return true;
}

/// Returns the name of a constant's kind for the cache key.
static llvm::StringRef getConstantKindName(Constant::Kind K) {
  switch (K) {
  case Constant::Kind::Int:
    return "int";
  case Constant::Kind::Float:
    return "float";
  case Constant::Kind::Bool:
    return "bool";
  case Constant::Kind::Type:
    return "type";
  }
  return "";
}

/// Returns what the cache key records of the CUDA tool `Role` (`ptxas`,
/// `fatbinary`) that the compilation would run: its path, its `--version`
/// output and its file stamp (getFileStamp). The version is remembered in
/// the cache for the tool's path and stamp, so that a hit runs no tool.
/// Nullopt when it cannot be found or run (the compilation reports that).
std::optional<CacheKeyTool> Driver::identifyTool(llvm::StringRef Role,
                                                 llvm::StringRef ExplicitPath) {
  auto [It, Inserted] = ToolIdentities.try_emplace(Role);
  if (!Inserted)
    return It->second;
  llvm::Expected<std::string> Path =
      findCudaTool(Role, ExplicitPath, Options.CudaPath);
  if (!Path) {
    llvm::consumeError(Path.takeError());
    return std::nullopt;
  }
  std::string Stamp = getFileStamp(*Path);
  std::optional<std::string> Version = Cache->getToolVersion(*Path, Stamp);
  if (!Version) {
    llvm::Expected<ToolRun> Run = runTool(*Path, {"--version"});
    if (!Run) {
      llvm::consumeError(Run.takeError());
      return std::nullopt;
    }
    if (Run->exitCode != 0)
      return std::nullopt;
    Version = Run->output;
    Cache->rememberToolVersion(*Path, Stamp, *Version);
  }
  It->second = CacheKeyTool{Role.str(), *Path, *Version, Stamp};
  return It->second;
}

/// Returns everything that determines the code generator's files for
/// `Job` (CacheKey.h), or nullopt when a tool it needs cannot be found:
/// such a kernel is compiled without the cache, which reports the problem.
std::optional<CacheKeyInputs>
Driver::getCacheKeyInputs(const KernelJob &Job, const std::string &Stem,
                          const EmitStages &Stages,
                          const KernelSource &SourceInfo) {
  static const std::string BuildIdentity = getBuildIdentity();
  CacheKeyInputs Inputs;
  Inputs.TilecVersion = TILEC_VERSION;
  Inputs.TilecCommit = TILEC_GIT_COMMIT;
  Inputs.TilecBuild = BuildIdentity;
  Inputs.LLVMVersion = LLVM_VERSION_STRING;
  Inputs.SourcePath = SourceInfo.path;
  Inputs.SourceSha256 = SourceInfo.sha256;
  Inputs.Kernel = Job.Kernel.Decl->Name.Name;
  for (const Symbol *Param : Job.Kernel.ConstParams) {
    if (!Param->Const)
      return std::nullopt;
    Inputs.Constants.push_back({Param->Name,
                                getConstantKindName(Param->Const->K).str(),
                                Param->Const->toString()});
  }
  Inputs.Defines = Options.Defines;
  Inputs.KernelSelection = Options.Kernels;
  for (Arch Target : Archs) {
    llvm::Expected<GpuTarget> Resolved =
        resolveGpuTarget(getArchName(Target), /*ptxVersion=*/0);
    if (!Resolved) {
      llvm::consumeError(Resolved.takeError());
      return std::nullopt;
    }
    Inputs.Targets.push_back(Resolved->arch + "/ptx" +
                             std::to_string(Resolved->ptxVersion));
  }
  for (Stage S : Emit)
    if (isCodegenStage(S))
      Inputs.Stages.push_back(getStageName(S).str());
  Inputs.FileStem = Stem;
  Inputs.OutputNameTemplate = Options.OutputName;
  Inputs.OptLevel = Options.OptLevel;
  Inputs.LineInfo = Options.LineInfo;
  Inputs.FastMath = Options.FastMath;
  Inputs.Clusters = Options.Clusters;
  Inputs.Stats = Options.Stats;
  Inputs.ListBinaries = !writesToStdout();
  if (!Stages.needsLowering())
    return Inputs;
  std::string PtxasPath;
  if (Stages.needsCubin() || Options.Stats) {
    std::optional<CacheKeyTool> Ptxas =
        identifyTool("ptxas", Options.PtxasPath);
    if (!Ptxas)
      return std::nullopt;
    PtxasPath = Ptxas->Path;
    Inputs.Tools.push_back(std::move(*Ptxas));
  }
  if (Stages.fatbin) {
    std::optional<CacheKeyTool> Fatbinary =
        identifyTool("fatbinary", Options.FatbinaryPath);
    if (!Fatbinary)
      return std::nullopt;
    Inputs.Tools.push_back(std::move(*Fatbinary));
  }
  // Linked when the kernel calls a math function (not known before the
  // lowering); a kernel that needs none compiles the same without it.
  CacheKeyTool Libdevice{"libdevice", "", "", ""};
  if (llvm::Expected<std::string> Path =
          findLibdevice(Options.CudaPath, PtxasPath)) {
    Libdevice.Path = *Path;
    Libdevice.Stamp = getFileStamp(*Path);
  } else {
    llvm::consumeError(Path.takeError());
  }
  Inputs.Tools.push_back(std::move(Libdevice));
  return Inputs;
}

/// Appends the files the code generator writes for `Stages` of the kernel
/// with file-name stem `Stem` (renderKernelArtifacts in
/// codegen/ArtifactWriter.h), without contents: `<stem>.fatbin`, then per
/// architecture `<stem>.<arch>.<ext>` in stage order. -M lists them.
void Driver::predictCodegenArtifacts(const std::string &Stem,
                                     const EmitStages &Stages,
                                     std::vector<ArtifactFile> &Artifacts) {
  if (Stages.fatbin)
    Artifacts.push_back({Stem + ".fatbin", ""});
  for (Arch Target : Archs) {
    std::string Prefix = Stem + "." + getArchName(Target) + ".";
    for (Stage S :
         {Stage::TileGPU, Stage::LLVM, Stage::Cubin, Stage::PTX, Stage::JSON})
      if (llvm::is_contained(Emit, S))
        Artifacts.push_back({Prefix + getStageExtension(S).str(), ""});
  }
}

/// Prints the ptxas and fatbinary commands that compiling `Kernel` for
/// `Stages` runs, one per line and each argument quoted, with `<tmp>` for
/// the private directory of each command's files.
bool Driver::printToolCommands(mlir::tile::KernelOp Kernel,
                               const EmitStages &Stages) {
  if (!Stages.needsCubin())
    return true;
  auto PrintCommand = [&](llvm::StringRef Program,
                          llvm::ArrayRef<std::string> Args) {
    llvm::sys::printArg(Out, Program, /*Quote=*/true);
    for (const std::string &Arg : Args) {
      Out << ' ';
      llvm::sys::printArg(Out, Arg, /*Quote=*/true);
    }
    Out << '\n';
  };
  std::vector<GpuTarget> Targets;
  for (Arch Target : Archs) {
    llvm::Expected<GpuTarget> Resolved =
        resolveGpuTarget(getArchName(Target), /*ptxVersion=*/0);
    if (!Resolved) {
      mlir::emitError(Kernel.getLoc()) << llvm::toString(Resolved.takeError());
      return false;
    }
    Targets.push_back(*Resolved);
  }
  llvm::Expected<std::string> Ptxas =
      findCudaTool("ptxas", Options.PtxasPath, Options.CudaPath);
  if (!Ptxas) {
    mlir::emitError(Kernel.getLoc()) << llvm::toString(Ptxas.takeError());
    return false;
  }
  for (const GpuTarget &Target : Targets)
    PrintCommand(*Ptxas,
                 getPtxasArguments(Target, Options.OptLevel, Options.LineInfo,
                                   "<tmp>/kernel.ptx", "<tmp>/kernel.cubin"));
  if (!Stages.fatbin)
    return true;
  llvm::Expected<std::string> Fatbinary =
      findCudaTool("fatbinary", Options.FatbinaryPath, Options.CudaPath);
  if (!Fatbinary) {
    mlir::emitError(Kernel.getLoc()) << llvm::toString(Fatbinary.takeError());
    return false;
  }
  std::vector<size_t> BuildIndex;
  std::vector<FatbinImage> Images = planFatbinImages(Targets, BuildIndex);
  std::vector<std::string> Paths;
  for (std::size_t I = 0; I != Images.size(); ++I)
    Paths.push_back("<tmp>/" + getFatbinImageName(I, Images[I].isCubin));
  PrintCommand(*Fatbinary,
               getFatbinaryArguments("<tmp>/kernel.fatbin", Images, Paths));
  return true;
}

std::string Driver::printFrontEndStage(const KernelJob &Job, Stage S) {
  if (S == Stage::AST) {
    std::ostringstream OS;
    printAST(OS, Job.File, Job.Kernel.Decl);
    return OS.str();
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  mlir::ModuleOp Module = Job.Module;
  Module.print(OS, mlir::OpPrintingFlags()
                       .enableDebugInfo(/*enable=*/true, /*prettyForm=*/false)
                       .printNameLocAsPrefix());
  return Text;
}

/// Checks that a single output (-o FILE, a binary on -o -) gets a single
/// artifact, then sets `Dir` and `Files` to where the artifacts go when they
/// are not printed: -o's directory (or the current one) and the artifacts,
/// or, for -o FILE, its directory and the one artifact renamed.
bool Driver::planOutputFiles(const std::vector<ArtifactFile> &Artifacts,
                             std::string &Dir,
                             std::vector<ArtifactFile> &Files) {
  bool Binary = emitsBinary();
  std::optional<OutputKind> Kind = getOutputKind();
  // A file, or a binary on standard output, holds exactly one artifact.
  if ((Kind == OutputKind::File || (Kind == OutputKind::Stdout && Binary)) &&
      Artifacts.size() != 1) {
    std::vector<std::string> Names;
    for (const ArtifactFile &Artifact : Artifacts)
      Names.push_back(Artifact.name);
    error("-o " + *Options.Output +
          (Kind == OutputKind::File ? " names a single file"
                                    : " writes a binary to standard output") +
          ", but this run writes " + std::to_string(Artifacts.size()) +
          " files (" + llvm::join(Names, ", ") +
          "); emit one stage of one kernel for one architecture (--emit, "
          "--kernel, --arch), or name a directory (-o DIR, -o DIR/)");
    return false;
  }
  Dir = Options.Output.value_or(".");
  Files = Artifacts;
  if (Kind == OutputKind::File) {
    llvm::StringRef Path = *Options.Output;
    for (const std::string &Input : Options.InputPaths) {
      bool Same = false;
      if (!llvm::sys::fs::equivalent(Input, Path, Same) && Same) {
        error("-o " + Path.str() + " is an input file; name another file");
        return false;
      }
    }
    Dir = llvm::sys::path::parent_path(Path).str();
    if (Dir.empty())
      Dir = ".";
    Files.front().name = llvm::sys::path::filename(Path).str();
  }
  return true;
}

bool Driver::writeArtifacts(const std::vector<ArtifactFile> &Artifacts) {
  std::string Dir;
  std::vector<ArtifactFile> Files;
  if (!planOutputFiles(Artifacts, Dir, Files))
    return false;
  if (writesToStdout()) {
    for (std::size_t I = 0; I != Artifacts.size(); ++I) {
      if (I)
        Out << "// -----\n";
      Out << Artifacts[I].contents;
    }
    Out.flush();
    return true;
  }
  if (llvm::Error Failure = writeArtifactFiles(Dir, Files)) {
    error(llvm::toString(std::move(Failure)));
    return false;
  }
  return true;
}

/// Writes the Make rule of the files the artifacts go to (their paths as -o
/// spells them) and the input files (standard input has no name) to -MF's
/// file, or, for -M without -MF, to `Out`.
bool Driver::writeDependencies(const std::vector<ArtifactFile> &Artifacts) {
  std::string Dir;
  std::vector<ArtifactFile> Files;
  if (!planOutputFiles(Artifacts, Dir, Files))
    return false;
  std::vector<std::string> Targets, Inputs;
  for (const ArtifactFile &File : Files) {
    if (!Options.Output) {
      Targets.push_back(File.name);
      continue;
    }
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, File.name);
    Targets.push_back(std::string(Path));
  }
  for (const std::string &Input : Options.InputPaths)
    if (Input != "-")
      Inputs.push_back(Input);
  std::string Rule = formatMakeRule(Targets, Inputs);
  if (Options.DepFile.empty()) {
    Out << Rule;
    Out.flush();
    return true;
  }
  llvm::StringRef Parent = llvm::sys::path::parent_path(Options.DepFile);
  if (!Parent.empty())
    if (std::error_code Failure = llvm::sys::fs::create_directories(Parent)) {
      error("cannot create '" + Parent.str() + "' for -MF " + Options.DepFile +
            ": " + Failure.message());
      return false;
    }
  llvm::Error Failure =
      llvm::writeToOutput(Options.DepFile, [&](llvm::raw_ostream &OS) {
        OS << Rule;
        return llvm::Error::success();
      });
  if (Failure) {
    error("cannot write the dependency file '" + Options.DepFile +
          "': " + llvm::toString(std::move(Failure)));
    return false;
  }
  return true;
}

} // namespace

std::optional<Stage> tilec::parseStage(llvm::StringRef Name) {
  for (const StageInfo &Info : Stages)
    if (Info.Name == Name)
      return Info.S;
  return std::nullopt;
}

llvm::StringRef tilec::getStageName(Stage S) {
  return Stages[static_cast<unsigned>(S)].Name;
}

llvm::StringRef tilec::getStageExtension(Stage S) {
  return Stages[static_cast<unsigned>(S)].Extension;
}

llvm::StringRef tilec::getStageList() {
  static const std::string List = [] {
    std::string Text;
    for (const StageInfo &Info : Stages)
      Text += (Text.empty() ? "" : ", ") + Info.Name.str();
    return Text;
  }();
  return List;
}

std::vector<Stage> tilec::getDefaultStages() {
  return {Stage::Cubin, Stage::JSON};
}

int tilec::runDriver(const DriverOptions &Options, llvm::raw_ostream &Out,
                     llvm::raw_ostream &Err) {
  return Driver(Options, Out, Err).run();
}

void tilec::printVersion(llvm::raw_ostream &Out, llvm::StringRef PtxasPath,
                         llvm::StringRef CudaPath) {
  Out << "tilec version " << TILEC_VERSION << "\n";
  Out << "LLVM version " << LLVM_VERSION_STRING << "\n";
  llvm::Expected<std::string> Ptxas =
      findCudaTool("ptxas", PtxasPath, CudaPath);
  if (!Ptxas) {
    llvm::consumeError(Ptxas.takeError());
    Out << "ptxas: not found";
    if (!PtxasPath.empty())
      Out << " (" << PtxasPath << ")";
    Out << "\n";
    return;
  }
  llvm::Expected<PtxasVersion> Version = queryPtxasVersion(*Ptxas);
  if (!Version) {
    llvm::consumeError(Version.takeError());
    Out << "ptxas version unknown (" << *Ptxas << ")\n";
    return;
  }
  Out << "ptxas version " << Version->text << " (" << *Ptxas << ")\n";
}

/// What follows the kernel and arch in a ptxas note's warning; the note
/// itself starts with its code (`C7520: ...`, codegen/PtxasReport.h).
static constexpr llvm::StringLiteral PtxasNoteMarker = ": ptxas ";

std::string tilec::formatPtxasNoteWarning(llvm::StringRef Kernel,
                                          llvm::StringRef Arch,
                                          llvm::StringRef Note) {
  return ("warning: " + Kernel + " " + Arch + PtxasNoteMarker + Note).str();
}

bool tilec::isPtxasNoteWarning(llvm::StringRef Line) {
  size_t Marker = Line.find(PtxasNoteMarker);
  return Line.contains("warning: ") && Marker != llvm::StringRef::npos &&
         Line.substr(Marker + PtxasNoteMarker.size()).starts_with("C");
}
