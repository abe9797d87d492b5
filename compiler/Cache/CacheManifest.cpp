//===- CacheManifest.cpp - The manifest of a compile cache entry ----------===//

#include "compiler/Cache/CacheManifest.h"

#include "compiler/Cache/CacheKey.h"

#include "llvm/Support/ConvertUTF.h"

#include <set>

using namespace tilec;

namespace {
constexpr const char *ManifestFormat = "tilec-cache-entry/1";

using Json = nlohmann::ordered_json;

/// Returns true if `Value` is a string of 64 lowercase hex digits.
bool isHexDigest(const Json &Value) {
  return Value.is_string() && isCacheKey(Value.get<std::string>());
}
} // namespace

std::string tilec::getStoredFileName(std::size_t Index, std::string_view Name) {
  std::string Stored = std::to_string(Index) + "-";
  for (char C : Name) {
    bool Safe = (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
                (C >= '0' && C <= '9') || C == '.' || C == '_' || C == '+' ||
                C == '-';
    Stored += Safe ? C : '_';
  }
  return Stored;
}

bool tilec::isValidManifestString(std::string_view Text) {
  const auto *Begin = reinterpret_cast<const llvm::UTF8 *>(Text.data());
  return llvm::isLegalUTF8String(&Begin, Begin + Text.size());
}

std::string tilec::printCacheManifest(const CacheManifest &Manifest) {
  Json Files = Json::array();
  for (const CacheManifestFile &File : Manifest.Files)
    Files.push_back({{"name", File.Name},
                     {"stored", File.Stored},
                     {"size", File.Size},
                     {"sha256", File.Sha256}});
  Json Document;
  Document["format"] = ManifestFormat;
  Document["key"] = Manifest.Key;
  Document["files"] = std::move(Files);
  Document["messages"] = Manifest.Messages;
  Document["inputs"] = Manifest.Inputs;
  return Document.dump(2, ' ', /*ensure_ascii=*/false,
                       Json::error_handler_t::replace) +
         "\n";
}

std::string tilec::parseCacheManifest(std::string_view Text,
                                      CacheManifest &Manifest) {
  Json Document = Json::parse(Text.begin(), Text.end(), /*cb=*/nullptr,
                              /*allow_exceptions=*/false);
  if (Document.is_discarded())
    return "the manifest is not valid JSON";
  if (!Document.is_object())
    return "the manifest is not a JSON object";
  auto Format = Document.find("format");
  if (Format == Document.end() || !Format->is_string() ||
      *Format != ManifestFormat)
    return std::string("the manifest's format is not '") + ManifestFormat + "'";
  auto Key = Document.find("key");
  if (Key == Document.end() || !isHexDigest(*Key))
    return "the manifest's key is not 64 hex digits";
  auto Files = Document.find("files");
  if (Files == Document.end() || !Files->is_array())
    return "the manifest has no list of files";
  auto Messages = Document.find("messages");
  if (Messages == Document.end() || !Messages->is_array())
    return "the manifest has no list of messages";

  CacheManifest Parsed;
  Parsed.Key = Key->get<std::string>();
  std::set<std::string> Names, StoredNames;
  for (const Json &File : *Files) {
    std::string Position = "file " + std::to_string(Parsed.Files.size() + 1);
    if (!File.is_object())
      return "the manifest's " + Position + " is not an object";
    auto Name = File.find("name");
    auto Stored = File.find("stored");
    auto Size = File.find("size");
    auto Sha256 = File.find("sha256");
    if (Name == File.end() || !Name->is_string() ||
        Name->get<std::string>().empty())
      return "the manifest's " + Position + " has no name";
    if (Stored == File.end() || !Stored->is_string())
      return "the manifest's " + Position + " has no stored name";
    std::string StoredName = Stored->get<std::string>();
    if (StoredName.empty() || StoredName == "." || StoredName == ".." ||
        StoredName == CacheManifestName ||
        StoredName.find('/') != std::string::npos ||
        StoredName.find('\0') != std::string::npos)
      return "the manifest's " + Position + " has the stored name '" +
             StoredName + "', which is not a file of the entry";
    if (Size == File.end() || !Size->is_number_unsigned())
      return "the manifest's " + Position + " has no size";
    if (Sha256 == File.end() || !isHexDigest(*Sha256))
      return "the manifest's " + Position + " has no SHA-256 of 64 hex digits";
    if (!Names.insert(Name->get<std::string>()).second)
      return "the manifest names '" + Name->get<std::string>() + "' twice";
    if (!StoredNames.insert(StoredName).second)
      return "the manifest stores two files as '" + StoredName + "'";
    Parsed.Files.push_back({Name->get<std::string>(), StoredName,
                            Size->get<std::uint64_t>(),
                            Sha256->get<std::string>()});
  }
  for (const Json &Message : *Messages) {
    if (!Message.is_string())
      return "the manifest's messages are not all strings";
    Parsed.Messages.push_back(Message.get<std::string>());
  }
  if (auto Inputs = Document.find("inputs");
      Inputs != Document.end() && Inputs->is_object())
    Parsed.Inputs = *Inputs;
  Manifest = std::move(Parsed);
  return "";
}
