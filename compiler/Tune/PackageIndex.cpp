//===- PackageIndex.cpp - The index of a kernel package -------------------===//

#include "compiler/Tune/PackageIndex.h"

using namespace tilec;
using nlohmann::ordered_json;

namespace {

/// Returns a compile-time value as the metadata's `constants` spell it:
/// numbers and booleans as JSON's, element types as strings.
ordered_json describeValue(const Constant &Value) {
  switch (Value.K) {
  case Constant::Kind::Int:
    return Value.Int;
  case Constant::Kind::Float:
    return Value.Float;
  case Constant::Kind::Bool:
    return Value.Bool;
  case Constant::Kind::Type:
    return getSpelling(Value.Type);
  }
  return nullptr;
}

} // namespace

ordered_json tilec::describePackageIndex(const PackageIndex &Index) {
  ordered_json Json;
  Json["schema"] = PackageIndexSchema;
  Json["kernel"] = Index.Kernel;
  Json["source"] = {{"path", Index.SourcePath}, {"sha256", Index.SourceSha256}};
  Json["space"] = {{"path", Index.SpacePath}, {"sha256", Index.SpaceSha256}};
  ordered_json Archs = ordered_json::array();
  for (Arch A : Index.Archs)
    Archs.push_back(getArchName(A));
  Json["archs"] = std::move(Archs);
  ordered_json Shapes = ordered_json::array();
  for (const SpaceShape &Shape : Index.Shapes) {
    ordered_json Dims = ordered_json::object();
    for (const auto &[Name, Extent] : Shape.Dims)
      Dims[Name] = Extent;
    Shapes.push_back(std::move(Dims));
  }
  Json["shapes"] = std::move(Shapes);
  Json["fast_math"] = Index.FastMath;
  Json["default"] = Index.Default;
  ordered_json Variants = ordered_json::array();
  for (const PackageVariant &Variant : Index.Variants) {
    ordered_json Entry;
    Entry["name"] = Variant.Name;
    Entry["arch"] = getArchName(Variant.Target);
    ordered_json Defines = ordered_json::object();
    for (const auto &[Name, Value] : Variant.Defines)
      Defines[Name] = describeValue(Value);
    Entry["defines"] = std::move(Defines);
    Entry["files"] = {{"metadata", Variant.Metadata}, {"cubin", Variant.Cubin}};
    Entry["registers"] = Variant.Registers;
    Entry["spills"] = {{"stores", Variant.SpillStores},
                       {"loads", Variant.SpillLoads}};
    Entry["smem"] = Variant.SharedMemory;
    Entry["threads"] = Variant.Threads;
    Variants.push_back(std::move(Entry));
  }
  Json["variants"] = std::move(Variants);
  return Json;
}
