//===- KernelManifest.cpp - A kernel library described in YAML ------------===//

#include "compiler/Tune/KernelManifest.h"

#include "compiler/Tune/KernelSpec.h"
#include "compiler/Tune/YamlReader.h"

using namespace tilec;

namespace {

constexpr std::string_view ManifestKeys[] = {"kernels"};
constexpr std::string_view EntryKeys[] = {"spec", "kernel", "archs", "configs",
                                          "fast_math"};

/// Reads a manifest's YAML into compilations.
class ManifestLoader : public YamlReader {
public:
  ManifestLoader(const SourceFile &File, const DiagnosticSink &Sink)
      : YamlReader(File, Sink), Sink(Sink) {}

  /// Loads the manifest; false after any error.
  bool load(const YAML::Node &Root, std::vector<ManifestCompile> &Out);

private:
  void loadEntry(const YAML::Node &Item, std::vector<ManifestCompile> &Out);
  /// Reads one configuration (a map of parameter values).
  std::optional<std::vector<Define>> readConfig(const YAML::Node &Config);

  const DiagnosticSink &Sink;
};

std::optional<std::vector<Define>>
ManifestLoader::readConfig(const YAML::Node &Config) {
  if (Config.IsNull())
    return std::vector<Define>();
  std::optional<std::vector<Entry>> Entries =
      readMap(Config, "a configuration", {});
  if (!Entries)
    return std::nullopt;
  std::vector<Define> Defines;
  for (const Entry &E : *Entries) {
    if (!E.Value.IsScalar() || !checkTag(E.Value) || E.Value.Scalar().empty()) {
      if (!E.Value.IsScalar())
        error(E.Value, "the value of '" + E.Key.Scalar() +
                           "' must be a number, true, false or an element "
                           "type");
      return std::nullopt;
    }
    Defines.push_back({E.Key.Scalar(), E.Value.Scalar()});
  }
  return Defines;
}

void ManifestLoader::loadEntry(const YAML::Node &Item,
                               std::vector<ManifestCompile> &Out) {
  std::optional<std::vector<Entry>> Entries =
      readMap(Item, "a kernel of the manifest",
              std::vector<std::string_view>(std::begin(EntryKeys),
                                            std::end(EntryKeys)));
  if (!Entries)
    return;
  auto Find = [&](std::string_view Key) { return find(*Entries, Key); };
  const Entry *Spec = Find("spec");
  const Entry *ArchList = Find("archs");
  if (!Spec || !ArchList) {
    error(Item, std::string("a kernel of the manifest needs '") +
                    (!Spec ? "spec" : "archs") + "'" +
                    (!Spec ? " (the .tile file, relative to the manifest)"
                           : " (the architectures to compile for)"));
    return;
  }
  std::vector<Arch> Archs;
  unsigned Before = getNumErrors();
  readArchs(ArchList->Value, "'archs'", Archs);
  std::unique_ptr<KernelSpec> Kernel = loadKernel(*Spec, Find("kernel"));
  if (!Kernel || getNumErrors() != Before)
    return;
  std::string KernelName;
  if (const Entry *Name = Find("kernel"))
    KernelName = Name->Value.Scalar();
  bool FastMath = false;
  if (const Entry *Math = Find("fast_math")) {
    std::optional<bool> Value = readBool(Math->Value, "'fast_math'");
    if (!Value)
      return;
    FastMath = *Value;
  }

  std::vector<YAML::Node> Configs;
  if (const Entry *List = Find("configs")) {
    if (!List->Value.IsSequence() || List->Value.size() == 0) {
      error(List->Value, "'configs' must be a list of configurations "
                         "(`- {NAME: VALUE, ...}`; `- {}` is the defaults)");
      return;
    }
    Configs = readList(List->Value);
  } else {
    Configs.push_back(YAML::Node(YAML::NodeType::Null));
  }
  std::vector<std::pair<std::string, YAML::Node>> Stems;
  for (const YAML::Node &Config : Configs) {
    std::optional<std::vector<Define>> Defines = readConfig(Config);
    if (!Defines)
      continue;
    CandidateCheck Check = Kernel->check(*Defines, Archs);
    const YAML::Node &Where = Config.IsNull() ? Spec->Value : Config;
    if (!Check.Error.empty()) {
      // Sema's message, without the "tilec: error: " of a -D problem.
      std::string_view Message = Check.Error;
      constexpr std::string_view Prefix = "tilec: error: ";
      if (Message.substr(0, Prefix.size()) == Prefix)
        Message.remove_prefix(Prefix.size());
      error(Where, "the front end rejects this configuration: " +
                       std::string(Message));
      continue;
    }
    bool Fits = true;
    for (const std::string &SharedMemory : Check.SharedMemory)
      if (!SharedMemory.empty()) {
        error(Where, "this configuration does not fit: " + SharedMemory);
        Fits = false;
        break;
      }
    if (!Fits)
      continue;
    bool Repeated = false;
    for (const auto &[Stem, Earlier] : Stems)
      if (Stem == Check.Stem) {
        error(Where, "this configuration is the variant '" + Stem +
                         "' again (first at line " +
                         std::to_string(Earlier.Mark().line + 1) + ")");
        Repeated = true;
      }
    if (Repeated)
      continue;
    Stems.emplace_back(Check.Stem, Where);
    Out.push_back(
        {Kernel->getPath(), KernelName, Archs, *Defines, Check.Stem, FastMath});
  }
}

bool ManifestLoader::load(const YAML::Node &Root,
                          std::vector<ManifestCompile> &Out) {
  if (!Root.IsMap()) {
    error(Root, "a kernel manifest is a map with the key 'kernels' "
                "(docs/cmake.md)");
    return false;
  }
  std::optional<std::vector<Entry>> Entries =
      readMap(Root, "a kernel manifest",
              std::vector<std::string_view>(std::begin(ManifestKeys),
                                            std::end(ManifestKeys)));
  if (!Entries)
    return false;
  if (Entries->empty() || !Entries->front().Value.IsSequence() ||
      Entries->front().Value.size() == 0) {
    error(Entries->empty() ? Root : Entries->front().Value,
          "'kernels' must list the kernels to compile (`- spec: FILE.tile`, "
          "`archs: [...]`, optional `configs`)");
    return false;
  }
  for (const YAML::Node &Item : Entries->front().Value)
    loadEntry(Item, Out);
  return getNumErrors() == 0;
}

} // namespace

std::optional<std::vector<ManifestCompile>>
tilec::loadKernelManifest(const std::string &Path, const DiagnosticSink &Sink) {
  std::string Problem;
  std::optional<std::string> Contents = readTextFile(Path, Problem);
  if (!Contents) {
    Diagnostic D;
    D.Message = "cannot read the kernel manifest '" + Path + "': " + Problem;
    Sink(renderDiagnostic(nullptr, "tilec-tune", D));
    return std::nullopt;
  }
  SourceFile File(Path, *Contents);
  ManifestLoader Loader(File, Sink);
  std::optional<YAML::Node> Root = Loader.parseDocument(
      "a kernel manifest",
      "the kernel manifest is empty (docs/cmake.md describes its keys)");
  std::vector<ManifestCompile> Compiles;
  if (!Root || !Loader.load(*Root, Compiles))
    return std::nullopt;
  return Compiles;
}

nlohmann::json
tilec::describeManifestCompiles(const std::vector<ManifestCompile> &Compiles) {
  nlohmann::json List = nlohmann::json::array();
  for (const ManifestCompile &C : Compiles) {
    nlohmann::json Archs = nlohmann::json::array();
    for (Arch A : C.Archs)
      Archs.push_back(getArchName(A));
    nlohmann::json Defines = nlohmann::json::array();
    for (const Define &D : C.Defines)
      Defines.push_back(D.Name + "=" + D.Value);
    List.push_back({{"spec", C.Spec},
                    {"kernel", C.Kernel},
                    {"archs", std::move(Archs)},
                    {"defines", std::move(Defines)},
                    {"stem", C.Stem},
                    {"fast_math", C.FastMath}});
  }
  return {{"schema", "tilec.manifest-compiles/1"},
          {"compiles", std::move(List)}};
}
