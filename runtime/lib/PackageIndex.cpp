//===- PackageIndex.cpp - A kernel package's index.json ---------*- C++ -*-===//

#include "PackageIndex.h"

#include "FileIO.h"
#include "JsonReader.h"

namespace tilert::detail {

namespace {

using json = nlohmann::json;

/// Validates one index document.
class IndexReader : JsonReader {
public:
  explicit IndexReader(const std::string &path) : JsonReader(path) {}

  Status run(const json &root, PackageIndex &out) {
    if (!root.is_object())
      return makeError(TILERT_ERROR_METADATA, Path,
                       ": the top level must be a JSON object, found ",
                       describeJsonType(root));
    TILERT_TRY(
        checkSchema(root, PackageSchemaPrefix, PackageSchemaMajor, "package"));
    TILERT_TRY(getString(root, "", "kernel", out.Kernel));
    const json *Variants = nullptr;
    TILERT_TRY(getArray(root, "", "variants", Variants));
    if (Variants->empty())
      return fail("variants", "the package has no variant");
    for (size_t I = 0; I < Variants->size(); ++I)
      TILERT_TRY(parseVariant((*Variants)[I], jsonElement("variants", I), out));
    TILERT_TRY(parseShapes(root, out));
    TILERT_TRY(getString(root, "", "default", out.Default));
    for (const PackageVariantInfo &Variant : out.Variants)
      if (Variant.Name == out.Default)
        return Status::success();
    return fail("default", "'", out.Default,
                "' is not the name of any variant");
  }

private:
  /// The optional `shapes`: objects of dim values >= 1.
  Status parseShapes(const json &root, PackageIndex &out) {
    if (!root.contains("shapes"))
      return Status::success();
    const json *Shapes = nullptr;
    TILERT_TRY(getArray(root, "", "shapes", Shapes));
    for (size_t I = 0; I < Shapes->size(); ++I) {
      const json &Shape = (*Shapes)[I];
      std::string Field = jsonElement("shapes", I);
      if (!Shape.is_object() || Shape.empty())
        return fail(Field, "expected an object of dim values, found ",
                    Shape.is_object() ? "an empty object"
                                      : describeJsonType(Shape));
      PackageShape Dims;
      for (auto It = Shape.begin(); It != Shape.end(); ++It) {
        int64_t Extent = 0;
        TILERT_TRY(asInt(*It, jsonMember(Field, It.key().c_str()), 1, INT64_MAX,
                         Extent));
        Dims.emplace_back(It.key(), Extent);
      }
      out.Shapes.push_back(std::move(Dims));
    }
    return Status::success();
  }

  Status getFile(const json &files, const std::string &parent, const char *key,
                 std::string &out) {
    std::string File;
    TILERT_TRY(getString(files, parent, key, File));
    if (File.front() == '/')
      return fail(jsonMember(parent, key), "'", File,
                  "' must be relative to the package's directory");
    out = siblingPath(Path, File);
    return Status::success();
  }

  Status parseVariant(const json &entry, const std::string &field,
                      PackageIndex &out) {
    if (!entry.is_object())
      return fail(field, "expected an object, found ", describeJsonType(entry));
    PackageVariantInfo Variant;
    TILERT_TRY(getString(entry, field, "name", Variant.Name));
    std::string ArchName;
    TILERT_TRY(getString(entry, field, "arch", ArchName));
    if (!parseArch(ArchName, Variant.Target))
      return fail(jsonMember(field, "arch"), "'", ArchName,
                  "' is not a target architecture (expected sm_XY or sm_XYa, "
                  "e.g. sm_80, sm_90a)");
    for (const PackageVariantInfo &Seen : out.Variants)
      if (Seen.Name == Variant.Name && Seen.Target.Name == ArchName)
        return fail(field, "a second variant '", Variant.Name, "' for ",
                    ArchName);
    const json *Files = nullptr;
    std::string FilesField = jsonMember(field, "files");
    TILERT_TRY(getObject(entry, field, "files", Files));
    TILERT_TRY(getFile(*Files, FilesField, "metadata", Variant.MetadataPath));
    TILERT_TRY(getFile(*Files, FilesField, "cubin", Variant.CubinPath));
    out.Variants.push_back(std::move(Variant));
    return Status::success();
  }
};

} // namespace

Status parsePackageIndex(std::string_view text, const std::string &path,
                         PackageIndex &out) {
  json Root;
  TILERT_TRY(parseJson(text, path, Root));
  PackageIndex Result;
  TILERT_TRY(IndexReader(path).run(Root, Result));
  out = std::move(Result);
  return Status::success();
}

} // namespace tilert::detail
