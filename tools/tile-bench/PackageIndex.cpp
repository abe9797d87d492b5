//===- PackageIndex.cpp - The index of a kernel package -------------------===//

#include "PackageIndex.h"

#include "FileIO.h"
#include "Sha256.h"
#include "Workload.h"

#include <nlohmann/json.hpp>

namespace tilebench {

namespace {

/// Ordered, so that dims keep their order in the file.
using json = nlohmann::ordered_json;

/// Reports a problem with the index file at JSON path `where`.
[[noreturn]] void fail(const std::string &path, const std::string &where,
                       const std::string &problem) {
  throw BenchError(path + ": " + (where.empty() ? "" : where + ": ") +
                   problem);
}

/// `object[key]`, which must be a non-empty string.
std::string stringField(const json &object, const char *key,
                        const std::string &path, const std::string &where) {
  auto It = object.find(key);
  if (It == object.end() || !It->is_string() ||
      It->get_ref<const std::string &>().empty())
    fail(path, where, std::string("'") + key +
                          "' must be a non-empty string");
  return It->get<std::string>();
}

/// `object[key]`, which must be an array.
const json &arrayField(const json &object, const char *key,
                       const std::string &path, const std::string &where) {
  auto It = object.find(key);
  if (It == object.end() || !It->is_array())
    fail(path, where, std::string("'") + key + "' must be an array");
  return *It;
}

DimValues readShape(const json &shape, const std::string &path,
                    const std::string &where) {
  if (!shape.is_object() || shape.empty())
    fail(path, where, "a shape must be an object of dim values");
  DimValues Dims;
  for (auto It = shape.begin(); It != shape.end(); ++It) {
    if (!It->is_number_integer() || It->get<int64_t>() < 1)
      fail(path, where + "." + It.key(), "must be an integer >= 1");
    Dims.emplace_back(It.key(), It->get<int64_t>());
  }
  return Dims;
}

} // namespace

std::string describeDims(const DimValues &dims) {
  std::string Text;
  for (const auto &[Name, Value] : dims)
    Text += (Text.empty() ? "" : " ") + Name + "=" + std::to_string(Value);
  return Text.empty() ? "no dims" : Text;
}

PackageIndex readPackageIndex(const std::string &directory) {
  PackageIndex Index;
  Index.Directory = directory;
  Index.IndexPath = directory + "/index.json";
  std::string Bytes;
  if (!tilert::detail::readFile(Index.IndexPath, Bytes).ok())
    throw BenchError(Index.IndexPath +
                     ": cannot be read (is '" + directory +
                     "' a kernel package written by tilec-tune compile?)");
  Index.IndexSha256 = tilert::detail::sha256Hex(Bytes);
  json Root = json::parse(Bytes, nullptr, /*allow_exceptions=*/false);
  if (Root.is_discarded() || !Root.is_object())
    throw BenchError(Index.IndexPath + ": not a JSON object");
  const std::string &Path = Index.IndexPath;
  std::string Schema = stringField(Root, "schema", Path, "");
  if (Schema != "tilec.package/1" && Schema.rfind("tilec.package/1.", 0) != 0)
    fail(Path, "schema", "'" + Schema +
                             "' is not tilec.package/1 (this tile-bench "
                             "reads tilec.package/1.x)");
  Index.Kernel = stringField(Root, "kernel", Path, "");
  Index.Default = stringField(Root, "default", Path, "");
  const auto &Shapes = arrayField(Root, "shapes", Path, "");
  for (size_t I = 0; I < Shapes.size(); ++I)
    Index.Shapes.push_back(
        readShape(Shapes[I], Path, "shapes[" + std::to_string(I) + "]"));
  const auto &Variants = arrayField(Root, "variants", Path, "");
  for (size_t I = 0; I < Variants.size(); ++I) {
    std::string Where = "variants[" + std::to_string(I) + "]";
    const auto &Entry = Variants[I];
    if (!Entry.is_object())
      fail(Path, Where, "must be an object");
    PackageVariant Variant;
    Variant.Name = stringField(Entry, "name", Path, Where);
    Variant.Arch = stringField(Entry, "arch", Path, Where);
    auto Files = Entry.find("files");
    if (Files == Entry.end() || !Files->is_object())
      fail(Path, Where, "'files' must be an object");
    std::string Metadata =
        stringField(*Files, "metadata", Path, Where + ".files");
    if (Metadata.front() == '/' || Metadata.find("..") != std::string::npos)
      fail(Path, Where + ".files.metadata",
           "'" + Metadata + "' must be a path inside the package");
    Variant.MetadataPath = directory + "/" + Metadata;
    for (const PackageVariant &Other : Index.Variants)
      if (Other.Name == Variant.Name && Other.Arch == Variant.Arch)
        fail(Path, Where, "variant '" + Variant.Name + "' for " +
                              Variant.Arch + " is listed twice");
    Index.Variants.push_back(std::move(Variant));
  }
  bool HasDefault = false;
  for (const PackageVariant &Variant : Index.Variants)
    HasDefault |= Variant.Name == Index.Default;
  if (!HasDefault)
    fail(Path, "default", "names no variant ('" + Index.Default + "')");
  return Index;
}

} // namespace tilebench
