//===- CacheKey.cpp - The compile cache's key of one kernel ---------------===//

#include "compiler/Cache/CacheKey.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

using namespace tilec;

namespace {
/// Changes whenever the key's inputs or the layout of an entry change, so
/// that a tilec never reads another's entries.
constexpr const char *KeyFormat = "tilec-cache-key/1";
} // namespace

nlohmann::ordered_json
tilec::describeCacheKeyInputs(const CacheKeyInputs &Inputs) {
  nlohmann::ordered_json Constants = nlohmann::ordered_json::array();
  for (const CacheKeyConstant &Constant : Inputs.Constants)
    Constants.push_back({{"name", Constant.Name},
                         {"kind", Constant.Kind},
                         {"value", Constant.Value}});
  nlohmann::ordered_json Tools = nlohmann::ordered_json::array();
  for (const CacheKeyTool &Tool : Inputs.Tools)
    Tools.push_back({{"role", Tool.Role},
                     {"path", Tool.Path},
                     {"version", Tool.Version},
                     {"stamp", Tool.Stamp}});
  nlohmann::ordered_json Description;
  Description["tilec_version"] = Inputs.TilecVersion;
  Description["tilec_commit"] = Inputs.TilecCommit;
  Description["tilec_build"] = Inputs.TilecBuild;
  Description["llvm_version"] = Inputs.LLVMVersion;
  Description["source_path"] = Inputs.SourcePath;
  Description["source_sha256"] = Inputs.SourceSha256;
  Description["kernel"] = Inputs.Kernel;
  Description["constants"] = std::move(Constants);
  Description["defines"] = Inputs.Defines;
  Description["kernel_selection"] = Inputs.KernelSelection;
  Description["targets"] = Inputs.Targets;
  Description["stages"] = Inputs.Stages;
  Description["file_stem"] = Inputs.FileStem;
  Description["output_name"] = Inputs.OutputNameTemplate;
  Description["opt_level"] = Inputs.OptLevel;
  Description["lineinfo"] = Inputs.LineInfo;
  Description["fast_math"] = Inputs.FastMath;
  Description["clusters"] = Inputs.Clusters;
  Description["stats"] = Inputs.Stats;
  Description["list_binaries"] = Inputs.ListBinaries;
  Description["tools"] = std::move(Tools);
  return Description;
}

namespace {
/// The text the key hashes: every field as `name=<length>:<bytes>;`, a list
/// as `name#<count>;` followed by its elements, so that no two inputs
/// serialize alike (whatever bytes a path or value holds).
class KeyText {
public:
  void add(llvm::StringRef Name, llvm::StringRef Value) {
    Text += Name;
    Text += '=';
    Text += std::to_string(Value.size());
    Text += ':';
    Text += Value;
    Text += ';';
  }
  void add(llvm::StringRef Name, unsigned Value) {
    add(Name, llvm::StringRef(std::to_string(Value)));
  }
  void add(llvm::StringRef Name, bool Value) {
    add(Name, llvm::StringRef(Value ? "1" : "0"));
  }
  void add(llvm::StringRef Name, const std::vector<std::string> &Values) {
    startList(Name, Values.size());
    for (const std::string &Value : Values)
      add("", Value);
  }
  void startList(llvm::StringRef Name, std::size_t Count) {
    Text += Name;
    Text += '#';
    Text += std::to_string(Count);
    Text += ';';
  }
  const std::string &str() const { return Text; }

private:
  std::string Text;
};
} // namespace

std::string tilec::computeCacheKey(const CacheKeyInputs &Inputs) {
  KeyText Text;
  Text.add("format", llvm::StringRef(KeyFormat));
  Text.add("tilec_version", Inputs.TilecVersion);
  Text.add("tilec_commit", Inputs.TilecCommit);
  Text.add("tilec_build", Inputs.TilecBuild);
  Text.add("llvm_version", Inputs.LLVMVersion);
  Text.add("source_path", Inputs.SourcePath);
  Text.add("source_sha256", Inputs.SourceSha256);
  Text.add("kernel", Inputs.Kernel);
  Text.startList("constants", Inputs.Constants.size());
  for (const CacheKeyConstant &Constant : Inputs.Constants) {
    Text.add("name", Constant.Name);
    Text.add("kind", Constant.Kind);
    Text.add("value", Constant.Value);
  }
  Text.add("defines", Inputs.Defines);
  Text.add("kernel_selection", Inputs.KernelSelection);
  Text.add("targets", Inputs.Targets);
  Text.add("stages", Inputs.Stages);
  Text.add("file_stem", Inputs.FileStem);
  Text.add("output_name", Inputs.OutputNameTemplate);
  Text.add("opt_level", Inputs.OptLevel);
  Text.add("lineinfo", Inputs.LineInfo);
  Text.add("fast_math", Inputs.FastMath);
  Text.add("clusters", Inputs.Clusters);
  Text.add("stats", Inputs.Stats);
  Text.add("list_binaries", Inputs.ListBinaries);
  Text.startList("tools", Inputs.Tools.size());
  for (const CacheKeyTool &Tool : Inputs.Tools) {
    Text.add("role", Tool.Role);
    Text.add("path", Tool.Path);
    Text.add("version", Tool.Version);
    Text.add("stamp", Tool.Stamp);
  }
  return llvm::toHex(
      llvm::SHA256::hash(llvm::arrayRefFromStringRef(Text.str())),
      /*LowerCase=*/true);
}

bool tilec::isCacheKey(const std::string &Text) {
  return Text.size() == 64 && llvm::all_of(Text, [](char C) {
           return (C >= '0' && C <= '9') || (C >= 'a' && C <= 'f');
         });
}
