//===- VariantCompiler.cpp - Compiles one variant of a tuning space -------===//

#include "VariantCompiler.h"

#include "compiler/Driver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <chrono>

using namespace tilec;

namespace {

/// Returns the first line of `Text` that reports an error, or its first
/// line.
std::string getFirstError(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines)
    if (Line.contains("error: "))
      return Line.str();
  return Lines.empty() ? "the compilation failed" : Lines.front().str();
}

/// Reads the resources of the variant from its metadata `Path` into
/// `Result`; false (and `Result.Error` set) if the file does not hold them.
bool readResources(const std::string &Path, CompiledVariant &Result) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) {
    Result.Error = "cannot read '" + Path + "': " + Buffer.getError().message();
    return false;
  }
  nlohmann::json Json = nlohmann::json::parse(
      (*Buffer)->getBuffer().begin(), (*Buffer)->getBuffer().end(), nullptr,
      /*allow_exceptions=*/false);
  const nlohmann::json *Resources =
      Json.is_object() && Json.contains("resources") ? &Json["resources"]
                                                     : nullptr;
  const nlohmann::json *Launch =
      Json.is_object() && Json.contains("launch") ? &Json["launch"] : nullptr;
  auto Number = [](const nlohmann::json *Object, const char *Key,
                   std::uint64_t &Value) {
    if (!Object || !Object->is_object() || !Object->contains(Key) ||
        !(*Object)[Key].is_number_unsigned())
      return false;
    Value = (*Object)[Key].get<std::uint64_t>();
    return true;
  };
  std::uint64_t Registers = 0, StaticSmem = 0, DynamicSmem = 0;
  bool Ok = Number(Resources, "registers", Registers) &&
            Number(Resources, "spill_stores", Result.SpillStores) &&
            Number(Resources, "spill_loads", Result.SpillLoads) &&
            Number(Resources, "static_smem", StaticSmem) &&
            Number(Launch, "dynamic_smem", DynamicSmem);
  std::uint64_t Threads = 1;
  if (Ok && Launch->contains("block") && (*Launch)["block"].is_array()) {
    for (const nlohmann::json &Extent : (*Launch)["block"])
      Threads *= Extent.is_number_unsigned() ? Extent.get<std::uint64_t>() : 0;
  } else {
    Ok = false;
  }
  if (Ok && Resources->contains("performance_warnings")) {
    const nlohmann::json &Notes = (*Resources)["performance_warnings"];
    Ok =
        Notes.is_array() && llvm::all_of(Notes, [](const nlohmann::json &Note) {
          return Note.is_string();
        });
    if (Ok)
      for (const nlohmann::json &Note : Notes)
        Result.PerformanceWarnings.push_back(Note.get<std::string>());
  }
  if (!Ok) {
    Result.Error = "'" + Path + "' has no resources and launch block";
    return false;
  }
  Result.Registers = static_cast<unsigned>(Registers);
  Result.SharedMemory = StaticSmem + DynamicSmem;
  Result.Threads = static_cast<unsigned>(Threads);
  return true;
}

} // namespace

CompiledVariant tilec::compileVariant(const VariantOptions &Options,
                                      const std::vector<Define> &Defines,
                                      Arch Target, const std::string &Stem) {
  auto Start = std::chrono::steady_clock::now();
  DriverOptions Driver;
  Driver.InputPaths = {Options.SpecPath};
  Driver.Archs = {getArchName(Target)};
  for (const Define &D : Defines)
    Driver.Defines.push_back(D.Name + "=" + D.Value);
  Driver.Output = Options.OutputDir;
  Driver.NoCache = Options.NoCache;
  Driver.FastMath = Options.FastMath;
  Driver.PtxasPath = Options.PtxasPath;
  Driver.CudaPath = Options.CudaPath;
  std::string Out, Err;
  llvm::raw_string_ostream OutStream(Out), ErrStream(Err);
  int Status = runDriver(Driver, OutStream, ErrStream);

  CompiledVariant Result;
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Err).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines)
    // The performance notes of ptxas come from the metadata
    // (PerformanceWarnings), cached compilations included.
    if (Line.contains("warning: ") && !isPtxasNoteWarning(Line))
      Result.Warnings.push_back(Line.str());
  std::string Prefix = Stem + "." + getArchName(Target);
  Result.Metadata = Prefix + ".json";
  Result.Cubin = Prefix + ".cubin";
  if (Status != 0) {
    Result.Error = getFirstError(Err);
  } else {
    llvm::SmallString<256> Path(Options.OutputDir);
    llvm::sys::path::append(Path, Result.Metadata);
    Result.Ok = readResources(std::string(Path), Result);
  }
  Result.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return Result;
}
