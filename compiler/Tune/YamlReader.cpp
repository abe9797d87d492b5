//===- YamlReader.cpp - Located reads of a tilec-tune YAML file -----------===//

#include "compiler/Tune/YamlReader.h"

#include "compiler/Limits.h"
#include "compiler/Suggestions.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tilec;

std::optional<std::string> tilec::readTextFile(const std::string &Path,
                                               std::string &Problem) {
  std::error_code Failure;
  if (std::filesystem::is_directory(Path, Failure)) {
    Problem = "it is a directory";
    return std::nullopt;
  }
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Problem = std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream Contents;
  Contents << In.rdbuf();
  if (In.bad()) {
    Problem = "read error";
    return std::nullopt;
  }
  if (Contents.str().size() > limits::MaxSourceBytes) {
    Problem = "it is larger than " + std::to_string(limits::MaxSourceBytes) +
              " bytes";
    return std::nullopt;
  }
  return Contents.str();
}

std::optional<std::int64_t> tilec::parseYamlInt(const std::string &Text) {
  std::int64_t Value = 0;
  const char *End = Text.data() + Text.size();
  auto [Ptr, Failure] = std::from_chars(Text.data(), End, Value);
  if (Failure != std::errc() || Ptr != End)
    return std::nullopt;
  return Value;
}

void YamlReader::error(std::size_t Offset, std::string Message) {
  ++Errors;
  Diagnostic D;
  D.Loc = File.getLoc(static_cast<std::uint32_t>(Offset));
  D.Message = std::move(Message);
  Sink(renderDiagnostic(&File, "tilec-tune", D));
}

std::optional<YAML::Node> YamlReader::parseDocument(const char *What,
                                                    const char *IfEmpty) {
  try {
    std::vector<YAML::Node> Documents =
        YAML::LoadAll(std::string(File.getContents()));
    if (Documents.empty()) {
      error(0, IfEmpty);
      return std::nullopt;
    }
    if (Documents.size() > 1) {
      error(Documents[1].Mark().pos,
            std::string(What) + " is one YAML document; this is a second");
      return std::nullopt;
    }
    return Documents.front();
  } catch (const YAML::Exception &Failure) {
    error(Failure.mark.is_null() ? 0 : Failure.mark.pos,
          "malformed YAML: " + Failure.msg);
    return std::nullopt;
  }
}

/// Checks that `Node` has no explicit YAML tag (`!foo`), which would change
/// what a value means: an expression starting with `!` must be quoted.
bool YamlReader::checkTag(const YAML::Node &Node) {
  const std::string &Tag = Node.Tag();
  if (Tag.empty() || Tag == "?" || Tag == "!")
    return true;
  error(Node, "YAML reads '" + Tag +
                  "' as a tag; quote a value that starts with '!'");
  return false;
}

/// Returns the entries of the map `Map` (`What` names it in messages),
/// reporting keys that are not strings, duplicates and, when `Known` is
/// not empty, keys not in it. Nullopt if `Map` is not a map.
std::optional<std::vector<YamlReader::Entry>>
YamlReader::readMap(const YAML::Node &Map, const char *What,
                    const std::vector<std::string_view> &Known) {
  if (!Map.IsMap()) {
    error(Map, std::string(What) + " must be a map (`key: value` lines)");
    return std::nullopt;
  }
  std::vector<Entry> Entries;
  for (auto It = Map.begin(); It != Map.end(); ++It) {
    YAML::Node Key = It->first, Value = It->second;
    if (!Key.IsScalar() || !checkTag(Key)) {
      if (!Key.IsScalar())
        error(Key, std::string("the keys of ") + What + " are names");
      continue;
    }
    bool Duplicate = false;
    for (const Entry &Earlier : Entries)
      if (Earlier.Key.Scalar() == Key.Scalar()) {
        error(Key, "duplicate key '" + Key.Scalar() + "' (first at line " +
                       std::to_string(Earlier.Key.Mark().line + 1) + ")");
        Duplicate = true;
      }
    if (Duplicate)
      continue;
    if (!Known.empty() &&
        std::find(Known.begin(), Known.end(), Key.Scalar()) == Known.end()) {
      std::string Message = "unknown key '" + Key.Scalar() + "' in " + What;
      std::string Closest = closestName(Key.Scalar(), Known);
      if (!Closest.empty()) {
        Message += "; did you mean '" + Closest + "'?";
      } else {
        Message += " (expected ";
        for (std::size_t I = 0; I != Known.size(); ++I)
          Message += (I ? I + 1 == Known.size() ? " or " : ", " : "") +
                     std::string(Known[I]);
        Message += ")";
      }
      error(Key, Message);
      continue;
    }
    Entries.push_back({Key, Value});
  }
  return Entries;
}

std::optional<std::string> YamlReader::readString(const YAML::Node &Node,
                                                  const char *What) {
  if (!checkTag(Node))
    return std::nullopt;
  if (!Node.IsScalar() || Node.Scalar().empty()) {
    error(Node, std::string(What) + " must be a non-empty string");
    return std::nullopt;
  }
  return Node.Scalar();
}

/// Returns the elements of a list, or a scalar as a list of one.
std::vector<YAML::Node> YamlReader::readList(const YAML::Node &Node) {
  std::vector<YAML::Node> Items;
  if (Node.IsSequence())
    for (const YAML::Node &Item : Node)
      Items.push_back(Item);
  else
    Items.push_back(Node);
  return Items;
}

std::optional<std::int64_t> YamlReader::readInt(const YAML::Node &Node,
                                                const char *What,
                                                std::int64_t Min,
                                                std::int64_t Max) {
  std::optional<std::int64_t> Value;
  if (Node.IsScalar() && checkTag(Node))
    Value = parseYamlInt(Node.Scalar());
  if (!Value || *Value < Min || *Value > Max) {
    error(Node, std::string(What) + " must be an integer from " +
                    std::to_string(Min) + " to " + std::to_string(Max) +
                    (Node.IsScalar() ? ", not '" + Node.Scalar() + "'" : ""));
    return std::nullopt;
  }
  return Value;
}

std::optional<bool> YamlReader::readBool(const YAML::Node &Node,
                                         const char *What) {
  if (Node.IsScalar()) {
    if (!checkTag(Node))
      return std::nullopt;
    if (Node.Scalar() == "true")
      return true;
    if (Node.Scalar() == "false")
      return false;
  }
  error(Node, std::string(What) + " must be true or false" +
                  (Node.IsScalar() ? ", not '" + Node.Scalar() + "'" : ""));
  return std::nullopt;
}

void YamlReader::readArchs(const YAML::Node &Node, const char *Key,
                           std::vector<Arch> &Archs) {
  for (const YAML::Node &Item : readList(Node)) {
    std::optional<std::string> Name = readString(Item, "an architecture");
    if (!Name)
      continue;
    std::optional<Arch> A = parseArch(*Name);
    if (!A) {
      std::string Future = describeFutureArch(*Name);
      error(Item, !Future.empty() ? Future
                                  : "unknown architecture '" + *Name +
                                        "' (valid: " + getArchList() + ")");
      continue;
    }
    if (std::find(Archs.begin(), Archs.end(), *A) != Archs.end()) {
      error(Item, "architecture '" + *Name + "' is listed twice");
      continue;
    }
    Archs.push_back(*A);
  }
  if (Archs.empty() && Node.IsSequence() && Node.size() == 0)
    error(Node, std::string(Key) + " lists no architecture");
}

const YamlReader::Entry *YamlReader::find(const std::vector<Entry> &Entries,
                                          std::string_view Key) {
  for (const Entry &E : Entries)
    if (E.Key.Scalar() == Key)
      return &E;
  return nullptr;
}

std::unique_ptr<KernelSpec> YamlReader::loadKernel(const Entry &Spec,
                                                   const Entry *Kernel) {
  std::optional<std::string> SpecName = readString(Spec.Value, "'spec'");
  std::optional<std::string> KernelName = std::string();
  if (Kernel)
    KernelName = readString(Kernel->Value, "'kernel'");
  if (!SpecName || !KernelName)
    return nullptr;
  std::filesystem::path SpecPath(*SpecName);
  if (SpecPath.is_relative())
    SpecPath = (std::filesystem::path(File.getName()).parent_path() / SpecPath)
                   .lexically_normal();
  std::string Problem;
  std::optional<std::string> Contents =
      readTextFile(SpecPath.string(), Problem);
  if (!Contents) {
    error(Spec.Value, "cannot read the kernel file '" + SpecPath.string() +
                          "': " + Problem);
    return nullptr;
  }
  std::string SelectionError;
  std::unique_ptr<KernelSpec> Loaded = KernelSpec::load(
      std::make_unique<SourceFile>(SpecPath.string(), std::move(*Contents)),
      *KernelName, Sink, SelectionError);
  if (!SelectionError.empty())
    error(Kernel ? Kernel->Value : Spec.Value, SelectionError);
  else if (!Loaded)
    ++Errors; // The front end reported the .tile file's errors.
  return Loaded;
}
