//===- ManifestExport.cpp - A tuned package's winners as a manifest -------===//

#include "ManifestExport.h"

#include "compiler/Tune/PackageIndex.h"
#include "compiler/Tune/YamlReader.h"

#include "codegen/Sha256.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

using namespace tilec;

namespace {

using json = nlohmann::ordered_json;

/// A problem that ends the export, with its message.
struct ExportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Reads and parses the JSON file `Path` (`What` names it in messages).
json readJson(const std::string &Path, const std::string &What,
              std::string &Bytes) {
  std::string Problem;
  std::optional<std::string> Contents = readTextFile(Path, Problem);
  if (!Contents)
    throw ExportError("cannot read " + What + " '" + Path + "': " + Problem);
  Bytes = std::move(*Contents);
  json Root = json::parse(Bytes, nullptr, /*allow_exceptions=*/false);
  if (!Root.is_object())
    throw ExportError("'" + Path + "' is not " + What + " (not a JSON object)");
  return Root;
}

/// `Root[Key]` as a string, or an error naming the file.
std::string stringAt(const json &Root, const char *Key,
                     const std::string &Path) {
  auto It = Root.find(Key);
  if (It == Root.end() || !It->is_string())
    throw ExportError("'" + Path + "' has no string '" + Key + "'");
  return It->get<std::string>();
}

/// A YAML flow-map entry value for a define (numbers, booleans and element
/// types are plain scalars in both JSON and YAML).
std::string yamlScalar(const json &Value) {
  return Value.is_string() ? Value.get<std::string>() : Value.dump();
}

void exportManifest(const std::string &PackageDir,
                    const std::string &OutputPath) {
  std::string IndexPath = PackageDir + "/" + PackageIndexName;
  std::string IndexBytes, TuningBytes;
  json Index = readJson(IndexPath, "a package index", IndexBytes);
  if (stringAt(Index, "schema", IndexPath).rfind("tilec.package/1", 0) != 0)
    throw ExportError("'" + IndexPath + "' is not a tilec.package/1 index");
  std::string TuningPath = PackageDir + "/tuning.json";
  if (!std::filesystem::exists(TuningPath))
    throw ExportError("the package '" + PackageDir +
                      "' is not tuned (no tuning.json): run `tile-bench "
                      "tune " +
                      PackageDir + "` on the GPU first");
  json Tuning = readJson(TuningPath, "a tuning database", TuningBytes);
  if (stringAt(Tuning, "schema", TuningPath).rfind("tilec.tuning/1", 0) != 0)
    throw ExportError("'" + TuningPath + "' is not a tilec.tuning/1 database");
  const json &Package = Tuning.value("package", json::object());
  if (!Package.is_object() ||
      Package.value("index_sha256", "") != sha256Hex(IndexBytes))
    throw ExportError("'" + TuningPath +
                      "' was tuned from another index.json (its "
                      "package.index_sha256 differs): tune the package again");

  // The spec, as the compile phase read it.
  const json &Source = Index.value("source", json::object());
  std::string SpecPath = stringAt(Source, "path", IndexPath);
  std::string SpecBytes;
  std::string Problem;
  std::optional<std::string> Spec = readTextFile(SpecPath, Problem);
  if (!Spec)
    throw ExportError("cannot read the package's spec '" + SpecPath +
                      "' (index.json's source.path, relative to where "
                      "`tilec-tune compile` ran): " +
                      Problem);
  if (sha256Hex(*Spec) != Source.value("sha256", ""))
    throw ExportError("the spec '" + SpecPath +
                      "' has changed since the package was compiled (its "
                      "SHA-256 is not index.json's source.sha256)");

  // The chosen variants: every best, and the default, per architecture.
  std::set<std::pair<std::string, std::string>> Chosen;
  std::string Default = stringAt(Index, "default", IndexPath);
  const json &Devices = Tuning.value("devices", json::array());
  for (const json &Device : Devices)
    for (const json &Shape : Device.value("shapes", json::array()))
      if (Shape.contains("best") && Shape["best"].is_object())
        Chosen.insert({Shape["best"].value("variant", ""),
                       Shape["best"].value("arch", "")});
  std::map<std::string, std::vector<const json *>> ByArch;
  std::vector<std::string> ArchOrder;
  // ByArch points into Variants, which lives to the end of the export.
  const json &Variants = Index.value("variants", json::array());
  for (const json &Variant : Variants) {
    std::string Name = Variant.value("name", ""),
                Arch = Variant.value("arch", "");
    if (Name != Default && !Chosen.count({Name, Arch}))
      continue;
    Chosen.erase({Name, Arch});
    if (!ByArch.count(Arch))
      ArchOrder.push_back(Arch);
    ByArch[Arch].push_back(&Variant);
  }
  if (!Chosen.empty())
    throw ExportError("'" + TuningPath + "' selects the variant '" +
                      Chosen.begin()->first + "' (" + Chosen.begin()->second +
                      "), which index.json does not list");

  std::filesystem::path Output = std::filesystem::absolute(OutputPath);
  std::string RelativeSpec = std::filesystem::absolute(SpecPath)
                                 .lexically_relative(Output.parent_path())
                                 .generic_string();
  std::string Kernel = stringAt(Index, "kernel", IndexPath);
  // Packages from before `fast_math` was recorded are exact.
  const json &FastMath = Index.value("fast_math", json(false));
  if (!FastMath.is_boolean())
    throw ExportError("'" + IndexPath +
                      "' has a 'fast_math' that is not "
                      "true or false");
  std::string Text =
      "# Written by `tilec-tune export " + PackageDir +
      "`: the variants tile-bench tune selected (" +
      std::to_string(Devices.size()) +
      " device name(s)) and the default, as a kernel manifest for\n"
      "# tilec_add_kernels(... MANIFEST) (docs/cmake.md).\nkernels:\n";
  for (const std::string &Arch : ArchOrder) {
    Text += "  - spec: " + RelativeSpec + "\n    kernel: " + Kernel +
            "\n    archs: " + Arch +
            (FastMath.get<bool>() ? "\n    fast_math: true" : "") +
            "\n    configs:\n";
    for (const json *Variant : ByArch[Arch]) {
      std::string Config;
      json Defines = Variant->value("defines", json::object());
      for (const auto &[Name, Value] : Defines.items())
        Config +=
            (Config.empty() ? "" : ", ") + Name + ": " + yamlScalar(Value);
      Text +=
          "      - {" + Config + "}  # " + Variant->value("name", "") + "\n";
    }
  }
  std::string Temporary = Output.string() + ".tmp";
  {
    std::ofstream Out(Temporary, std::ios::binary);
    Out << Text;
    if (!Out)
      throw ExportError("cannot write '" + Output.string() + "'");
  }
  std::error_code Failure;
  std::filesystem::rename(Temporary, Output, Failure);
  if (Failure)
    throw ExportError("cannot write '" + Output.string() +
                      "': " + Failure.message());
}

} // namespace

int tilec::exportTunedManifest(const std::string &PackageDir,
                               const std::string &OutputPath,
                               llvm::raw_ostream &Err) {
  try {
    exportManifest(PackageDir, OutputPath);
  } catch (const ExportError &Error) {
    Err << "tilec-tune: error: " << Error.what() << "\n";
    return 1;
  } catch (const nlohmann::json::exception &Error) {
    Err << "tilec-tune: error: the package '" << PackageDir
        << "' has a malformed index.json or tuning.json: " << Error.what()
        << "\n";
    return 1;
  }
  return 0;
}
