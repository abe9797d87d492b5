//===- TuningDatabase.cpp - A kernel package's tuning.json ------*- C++ -*-===//

#include "TuningDatabase.h"

#include "JsonReader.h"
#include "Sha256.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tilert::detail {

namespace {

using json = nlohmann::json;

/// Validates one tuning document against its package.
class TuningReader : JsonReader {
public:
  TuningReader(const std::string &path, const PackageIndex &index,
               const std::vector<std::string> &dims,
               std::string_view indexBytes)
      : JsonReader(path), Index(index), Dims(dims), IndexBytes(indexBytes) {}

  Status run(const json &root, TuningDatabase &out) {
    if (!root.is_object())
      return makeError(TILERT_ERROR_METADATA, Path,
                       ": the top level must be a JSON object, found ",
                       describeJsonType(root));
    TILERT_TRY(
        checkSchema(root, TuningSchemaPrefix, TuningSchemaMajor, "tuning"));
    std::string Kernel;
    TILERT_TRY(getString(root, "", "kernel", Kernel));
    if (Kernel != Index.Kernel)
      return fail("kernel", "'", Kernel,
                  "' is not the package's kernel (index.json: '", Index.Kernel,
                  "')");
    TILERT_TRY(checkIndexDigest(root));
    const json *Devices = nullptr;
    TILERT_TRY(getArray(root, "", "devices", Devices));
    for (size_t I = 0; I < Devices->size(); ++I)
      TILERT_TRY(parseDevice((*Devices)[I], jsonElement("devices", I), out));
    return Status::success();
  }

private:
  Status checkIndexDigest(const json &root) {
    auto Package = root.find("package");
    if (Package == root.end())
      return Status::success();
    if (!Package->is_object())
      return fail("package", "expected an object, found ",
                  describeJsonType(*Package));
    if (Package->find("index_sha256") == Package->end())
      return Status::success();
    std::string Recorded;
    TILERT_TRY(getSha256(*Package, "package", "index_sha256", Recorded));
    std::string Current = sha256Hex(IndexBytes);
    if (Recorded != Current)
      return makeError(TILERT_ERROR_METADATA, Path,
                       ": tuning.json was measured for another index.json "
                       "(package.index_sha256 is ",
                       Recorded, " but index.json's sha256 is ", Current,
                       ": the package was compiled again after tuning); "
                       "tune the package again");
    return Status::success();
  }

  Status parseDevice(const json &entry, const std::string &field,
                     TuningDatabase &out) {
    if (!entry.is_object())
      return fail(field, "expected an object, found ", describeJsonType(entry));
    TunedDevice Device;
    TILERT_TRY(getString(entry, field, "device", Device.Name));
    const json *Shapes = nullptr;
    TILERT_TRY(getArray(entry, field, "shapes", Shapes));
    std::string ShapesField = jsonMember(field, "shapes");
    for (size_t I = 0; I < Shapes->size(); ++I) {
      TunedShape Shape;
      TILERT_TRY(parseShape((*Shapes)[I], jsonElement(ShapesField, I), Shape));
      Device.Shapes.push_back(std::move(Shape));
    }
    out.Devices.push_back(std::move(Device));
    return Status::success();
  }

  Status parseShape(const json &entry, const std::string &field,
                    TunedShape &out) {
    if (!entry.is_object())
      return fail(field, "expected an object, found ", describeJsonType(entry));
    const json *Values = nullptr;
    TILERT_TRY(getObject(entry, field, "dims", Values));
    std::string DimsField = jsonMember(field, "dims");
    for (const auto &Item : Values->items())
      if (std::find(Dims.begin(), Dims.end(), Item.key()) == Dims.end())
        return fail(jsonMember(DimsField, Item.key().c_str()), "'", Item.key(),
                    "' is not a dim of ", Index.Kernel, " (", joinNames(Dims),
                    ")");
    for (const std::string &Dim : Dims) {
      int64_t Value = 0;
      TILERT_TRY(getInt(*Values, DimsField, Dim.c_str(), 1,
                        std::numeric_limits<int64_t>::max(), Value));
      out.Dims.push_back(Value);
    }
    const json *Best = nullptr;
    TILERT_TRY(getObject(entry, field, "best", Best));
    std::string BestField = jsonMember(field, "best");
    std::string Variant, Arch;
    TILERT_TRY(getString(*Best, BestField, "variant", Variant));
    TILERT_TRY(getString(*Best, BestField, "arch", Arch));
    for (size_t I = 0; I < Index.Variants.size(); ++I)
      if (Index.Variants[I].Name == Variant &&
          Index.Variants[I].Target.Name == Arch) {
        out.Best = I;
        return Status::success();
      }
    return fail(BestField, "variant '", Variant, "' for ", Arch,
                " is not in the package's index.json");
  }

  const PackageIndex &Index;
  const std::vector<std::string> &Dims;
  std::string_view IndexBytes;
};

/// Distances closer than this are equal (log2 of integers that are not
/// powers of two is rounded).
constexpr double TieTolerance = 1e-9;

double log2Extent(int64_t value) {
  return std::log2(static_cast<double>(std::max<int64_t>(value, 1)));
}

} // namespace

const TunedShape *TunedDevice::nearest(const int64_t *dims,
                                       size_t count) const {
  for (const TunedShape &Shape : Shapes)
    if (std::equal(Shape.Dims.begin(), Shape.Dims.end(), dims, dims + count))
      return &Shape;
  const TunedShape *Best = nullptr;
  double BestDistance = 0;
  for (const TunedShape &Shape : Shapes) {
    double Distance = 0;
    for (size_t I = 0; I < count; ++I)
      Distance += std::fabs(log2Extent(dims[I]) - log2Extent(Shape.Dims[I]));
    // Equal up to rounding is a tie, which the earlier shape wins.
    if (!Best || Distance < BestDistance - TieTolerance) {
      Best = &Shape;
      BestDistance = Distance;
    }
  }
  return Best;
}

const TunedDevice *TuningDatabase::find(std::string_view name) const {
  for (const TunedDevice &Device : Devices)
    if (Device.Name == name)
      return &Device;
  return nullptr;
}

size_t TuningDatabase::numShapes() const {
  size_t Count = 0;
  for (const TunedDevice &Device : Devices)
    Count += Device.Shapes.size();
  return Count;
}

Status parseTuningDatabase(std::string_view text, const std::string &path,
                           const PackageIndex &index,
                           const std::vector<std::string> &dims,
                           std::string_view indexBytes, TuningDatabase &out) {
  json Root;
  TILERT_TRY(parseJson(text, path, Root));
  TuningDatabase Result;
  TILERT_TRY(TuningReader(path, index, dims, indexBytes).run(Root, Result));
  out = std::move(Result);
  return Status::success();
}

} // namespace tilert::detail
