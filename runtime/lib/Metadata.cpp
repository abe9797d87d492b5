//===- Metadata.cpp - Kernel metadata (schema tilec.kernel/1) ---*- C++ -*-===//

#include "Metadata.h"

#include "DType.h"
#include "FileIO.h"
#include "JsonReader.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <limits>

namespace tilert::detail {

namespace {

using json = nlohmann::json;

constexpr int64_t Int32Max = std::numeric_limits<int32_t>::max();
constexpr int64_t Int64Max = std::numeric_limits<int64_t>::max();

bool isIdentifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0])))
    return false;
  return std::all_of(text.begin(), text.end(), [](char C) {
    return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
  });
}

/// Validates one metadata document; every error names the file and the
/// field's path (`params[2].shape[0]`).
class Validator : JsonReader {
public:
  explicit Validator(const std::string &path) : JsonReader(path) {}

  Status run(const json &root, KernelMetadata &out) {
    if (!root.is_object())
      return makeError(TILERT_ERROR_METADATA, Path,
                       ": the top level must be a JSON object, found ",
                       describeJsonType(root));
    TILERT_TRY(checkSchema(root, SchemaPrefix, SchemaMajor, "kernel"));
    TILERT_TRY(getString(root, "", "name", out.Name));
    TILERT_TRY(getString(root, "", "entry", out.Entry));
    std::string ArchName;
    TILERT_TRY(getString(root, "", "arch", ArchName));
    if (!parseArch(ArchName, out.Target))
      return fail("arch", "'", ArchName,
                  "' is not a target architecture (expected sm_XY or sm_XYa, "
                  "e.g. sm_80, sm_90a)");
    TILERT_TRY(parseBinaries(root, out));
    TILERT_TRY(checkVersions(root));
    TILERT_TRY(checkSource(root));
    TILERT_TRY(parseConstants(root, out));
    TILERT_TRY(parseParams(root, out));
    TILERT_TRY(parseLaunch(root, out));
    return parseResources(root, out);
  }

private:
  Status parseBinaries(const json &root, KernelMetadata &out) {
    const json *Binaries = nullptr;
    TILERT_TRY(getArray(root, "", "binaries", Binaries));
    if (Binaries->empty())
      return fail("binaries", "the kernel has no binary");
    for (size_t I = 0; I < Binaries->size(); ++I) {
      std::string Field = jsonElement("binaries", I);
      const json &Entry = (*Binaries)[I];
      if (!Entry.is_object())
        return fail(Field, "expected an object, found ",
                    describeJsonType(Entry));
      BinaryInfo Binary;
      std::string Kind;
      TILERT_TRY(getString(Entry, Field, "kind", Kind));
      if (!parseBinaryKind(Kind, Binary.Kind))
        return fail(jsonMember(Field, "kind"), "unknown binary kind '", Kind,
                    "' (expected cubin, ptx or fatbin)");
      for (const BinaryInfo &Seen : out.Binaries)
        if (Seen.Kind == Binary.Kind)
          return fail(jsonMember(Field, "kind"), "a second ", Kind, " binary");
      TILERT_TRY(getString(Entry, Field, "file", Binary.File));
      if (Binary.File.front() == '/')
        return fail(jsonMember(Field, "file"), "'", Binary.File,
                    "' must be relative to the JSON's directory");
      TILERT_TRY(getSha256(Entry, Field, "sha256", Binary.Sha256));
      out.Binaries.push_back(std::move(Binary));
    }
    return Status::success();
  }

  Status checkVersions(const json &root) {
    const json *Versions = nullptr;
    TILERT_TRY(getObject(root, "", "versions", Versions));
    std::string Ignored;
    TILERT_TRY(getString(*Versions, "versions", "tilec", Ignored));
    TILERT_TRY(getString(*Versions, "versions", "llvm", Ignored));
    const json *Ptxas = nullptr;
    TILERT_TRY(find(*Versions, "versions", "ptxas", Ptxas));
    if (!Ptxas->is_null())
      TILERT_TRY(asString(*Ptxas, "versions.ptxas", Ignored));
    return Status::success();
  }

  Status checkSource(const json &root) {
    const json *Source = nullptr;
    TILERT_TRY(getObject(root, "", "source", Source));
    std::string Ignored;
    TILERT_TRY(getString(*Source, "source", "path", Ignored));
    return getSha256(*Source, "source", "sha256", Ignored);
  }

  Status parseConstants(const json &root, KernelMetadata &out) {
    const json *Constants = nullptr;
    TILERT_TRY(getObject(root, "", "constants", Constants));
    for (const auto &[Key, Value] : Constants->items())
      if (!Value.is_number() && !Value.is_boolean() && !Value.is_string())
        return fail(jsonMember("constants", Key.c_str()),
                    "expected a number, a boolean or a string, found ",
                    describeJsonType(Value));
    out.Constants = *Constants;
    return Status::success();
  }

  enum class ParamGroup { Tensor, Dim, Scalar, TensorMap };

  static const char *groupName(ParamGroup group) {
    switch (group) {
    case ParamGroup::Tensor:
      return "tensor";
    case ParamGroup::Dim:
      return "dim";
    case ParamGroup::Scalar:
      return "scalar";
    case ParamGroup::TensorMap:
      return "tensor_map";
    }
    return "";
  }

  Status parseParams(const json &root, KernelMetadata &out) {
    const json *Params = nullptr;
    TILERT_TRY(getArray(root, "", "params", Params));
    ParamGroup Phase = ParamGroup::Tensor;
    std::vector<std::string> Names;
    // Dim names of each tensor's shape, resolved once all dims are known.
    std::vector<std::vector<std::string>> ShapeNames;
    for (size_t I = 0; I < Params->size(); ++I) {
      std::string Field = jsonElement("params", I);
      const json &Param = (*Params)[I];
      if (!Param.is_object())
        return fail(Field, "expected an object, found ",
                    describeJsonType(Param));
      std::string Kind, Name, DTypeName;
      TILERT_TRY(getString(Param, Field, "kind", Kind));
      ParamGroup Group;
      if (Kind == "tensor")
        Group = ParamGroup::Tensor;
      else if (Kind == "dim")
        Group = ParamGroup::Dim;
      else if (Kind == "scalar")
        Group = ParamGroup::Scalar;
      else if (Kind == "tensor_map")
        Group = ParamGroup::TensorMap;
      else
        return fail(jsonMember(Field, "kind"), "unknown parameter kind '", Kind,
                    "' (expected tensor, dim, scalar or tensor_map)");
      if (Group < Phase)
        return fail(Field, "a ", Kind, " parameter after ", groupName(Phase),
                    " parameters (the ABI order is tensors, dims, scalars, "
                    "tensor maps)");
      Phase = Group;
      TILERT_TRY(getString(Param, Field, "name", Name));
      if (!isIdentifier(Name))
        return fail(jsonMember(Field, "name"), "'", Name,
                    "' is not an identifier");
      if (std::find(Names.begin(), Names.end(), Name) != Names.end())
        return fail(jsonMember(Field, "name"), "duplicate parameter name '",
                    Name, "'");
      Names.push_back(Name);
      if (Group == ParamGroup::TensorMap) {
        TILERT_TRY(parseTensorMap(Param, Field, Name, out));
        continue;
      }
      TILERT_TRY(getString(Param, Field, "dtype", DTypeName));
      tilertDType DType = parseDType(DTypeName);
      if (DType == TILERT_DTYPE_INVALID)
        return fail(jsonMember(Field, "dtype"), "unknown dtype '", DTypeName,
                    "' (expected one of ", dtypeNameList(), ")");
      switch (Group) {
      case ParamGroup::Tensor: {
        TensorParam Tensor{Name, DType, {}, 1};
        ShapeNames.emplace_back();
        TILERT_TRY(parseShape(Param, Field, Tensor, ShapeNames.back()));
        TILERT_TRY(
            getInt(Param, Field, "alignment", 1, Int64Max, Tensor.Alignment));
        if ((Tensor.Alignment & (Tensor.Alignment - 1)) != 0)
          return fail(jsonMember(Field, "alignment"), Tensor.Alignment,
                      " is not a power of two");
        out.Tensors.push_back(std::move(Tensor));
        break;
      }
      case ParamGroup::Dim:
        if (DType != TILERT_DTYPE_I64)
          return fail(jsonMember(Field, "dtype"),
                      "a dim parameter must be i64, "
                      "found ",
                      DTypeName);
        out.Dims.push_back(Name);
        break;
      case ParamGroup::Scalar:
        out.Scalars.push_back({Name, DType});
        break;
      case ParamGroup::TensorMap: // Parsed above.
        break;
      }
    }
    return resolveShapes(ShapeNames, out);
  }

  /// Gets `key` of `object`, an integer that must be one of `allowed`.
  Status getChoice(const json &object, const std::string &parent,
                   const char *key, std::initializer_list<int64_t> allowed,
                   const char *meaning, uint32_t &out) {
    const json *Value = nullptr;
    TILERT_TRY(find(object, parent, key, Value));
    std::string Field = jsonMember(parent, key);
    if (!Value->is_number_integer())
      return fail(Field, "expected an integer, found ",
                  describeJsonType(*Value));
    for (int64_t Allowed : allowed)
      if (*Value == Allowed) {
        out = static_cast<uint32_t>(Allowed);
        return Status::success();
      }
    std::vector<std::string> Choices;
    for (int64_t Allowed : allowed)
      Choices.push_back(std::to_string(Allowed));
    return fail(Field, "expected one of ", joinNames(Choices), " (", meaning,
                "), found ", Value->dump());
  }

  /// Parses a tensor_map parameter (tensors are all known by then) and
  /// checks it against TMA's rules for boxes (docs/metadata.md).
  Status parseTensorMap(const json &param, const std::string &field,
                        const std::string &name, KernelMetadata &out) {
    TensorMapParam Map;
    Map.Name = name;
    std::string TensorName;
    TILERT_TRY(getString(param, field, "tensor", TensorName));
    auto It = std::find_if(
        out.Tensors.begin(), out.Tensors.end(),
        [&](const TensorParam &Tensor) { return Tensor.Name == TensorName; });
    if (It == out.Tensors.end()) {
      std::vector<std::string> Known;
      for (const TensorParam &Tensor : out.Tensors)
        Known.push_back(Tensor.Name);
      return fail(jsonMember(field, "tensor"), "'", TensorName,
                  "' is not a tensor parameter (tensors: ", joinNames(Known),
                  ")");
    }
    Map.Tensor = static_cast<size_t>(It - out.Tensors.begin());
    const TensorParam &Tensor = *It;
    size_t Rank = Tensor.Shape.size();
    if (Rank < 1 || Rank > MaxTensorMapRank)
      return fail(jsonMember(field, "tensor"), "tensor '", TensorName,
                  "' has rank ", Rank, " but a tensor map needs rank 1 to ",
                  MaxTensorMapRank);

    const json *Box = nullptr;
    TILERT_TRY(getArray(param, field, "box", Box));
    std::string BoxField = jsonMember(field, "box");
    if (Box->size() != Rank)
      return fail(BoxField, "expected ", Rank, " extents (the rank of tensor '",
                  TensorName, "'), found ", Box->size());
    for (size_t J = 0; J < Rank; ++J) {
      int64_t Extent = 0;
      TILERT_TRY(asInt((*Box)[J], jsonElement(BoxField, J), 1, 256, Extent));
      Map.Box.push_back(static_cast<uint32_t>(Extent));
    }
    TILERT_TRY(getChoice(param, field, "swizzle", {0, 32, 64, 128},
                         "swizzle bytes, 0 for none", Map.Swizzle));
    size_t ElementSize = dtypeSize(Tensor.DType);
    uint64_t InnerBytes = uint64_t(Map.Box.back()) * ElementSize;
    if (InnerBytes % 16 != 0)
      return fail(BoxField, "the innermost box extent ", Map.Box.back(), " x ",
                  ElementSize, " bytes (", dtypeName(Tensor.DType),
                  ") = ", InnerBytes,
                  " bytes is not a multiple of 16 bytes as TMA requires");
    if (Map.Swizzle != 0 && InnerBytes > Map.Swizzle)
      return fail(BoxField, "the innermost box extent ", Map.Box.back(), " x ",
                  ElementSize, " bytes (", dtypeName(Tensor.DType),
                  ") = ", InnerBytes, " bytes exceeds the swizzle span of ",
                  Map.Swizzle, " bytes");
    TILERT_TRY(getChoice(param, field, "l2_promotion", {0, 64, 128, 256},
                         "L2 promotion bytes, 0 for none", Map.L2Promotion));
    std::string Fill;
    TILERT_TRY(getString(param, field, "oob_fill", Fill));
    if (Fill == "zero") {
      Map.Fill = OobFill::Zero;
    } else if (Fill == "nan") {
      bool Float = Tensor.DType == TILERT_DTYPE_F16 ||
                   Tensor.DType == TILERT_DTYPE_BF16 ||
                   Tensor.DType == TILERT_DTYPE_F32 ||
                   Tensor.DType == TILERT_DTYPE_F64;
      if (!Float)
        return fail(jsonMember(field, "oob_fill"),
                    "'nan' needs a floating-point tensor but tensor '",
                    TensorName, "' is ", dtypeName(Tensor.DType));
      Map.Fill = OobFill::Nan;
    } else {
      return fail(jsonMember(field, "oob_fill"), "unknown fill '", Fill,
                  "' (expected zero or nan)");
    }
    if (const auto Found = param.find("optional"); Found != param.end()) {
      if (!Found->is_boolean())
        return fail(jsonMember(field, "optional"), "expected a boolean, found ",
                    Found->dump());
      Map.Optional = Found->get<bool>();
    }
    out.TensorMaps.push_back(std::move(Map));
    return Status::success();
  }

  Status parseShape(const json &param, const std::string &field,
                    TensorParam &tensor, std::vector<std::string> &dimNames) {
    const json *Shape = nullptr;
    TILERT_TRY(getArray(param, field, "shape", Shape));
    std::string ShapeField = jsonMember(field, "shape");
    for (size_t J = 0; J < Shape->size(); ++J) {
      std::string EntryField = jsonElement(ShapeField, J);
      const json &Entry = (*Shape)[J];
      ShapeEntry Dim;
      if (Entry.is_string()) {
        std::string Name = Entry.get<std::string>();
        if (!isIdentifier(Name))
          return fail(EntryField, "'", Name, "' is not a dim name");
        dimNames.push_back(Name);
      } else if (Entry.is_number_integer()) {
        TILERT_TRY(asInt(Entry, EntryField, 0, Int64Max, Dim.Value));
        dimNames.emplace_back();
      } else {
        return fail(EntryField, "expected a dim name or an integer, found ",
                    describeJsonType(Entry));
      }
      tensor.Shape.push_back(Dim);
    }
    return Status::success();
  }

  /// Binds shape names to dim parameters and checks the ABI's dim order:
  /// first appearance in the tensor shapes.
  Status resolveShapes(const std::vector<std::vector<std::string>> &shapeNames,
                       KernelMetadata &out) {
    std::vector<std::string> Appearance;
    for (size_t T = 0; T < out.Tensors.size(); ++T) {
      for (size_t J = 0; J < shapeNames[T].size(); ++J) {
        const std::string &Name = shapeNames[T][J];
        if (Name.empty())
          continue;
        auto It = std::find(out.Dims.begin(), out.Dims.end(), Name);
        if (It == out.Dims.end())
          return fail(
              jsonElement(jsonMember(jsonElement("params", T), "shape"), J),
              "'", Name, "' is not a dim parameter");
        out.Tensors[T].Shape[J].Dim =
            static_cast<int32_t>(It - out.Dims.begin());
        if (std::find(Appearance.begin(), Appearance.end(), Name) ==
            Appearance.end())
          Appearance.push_back(Name);
      }
    }
    for (size_t K = 0; K < out.Dims.size(); ++K) {
      std::string Field = jsonElement("params", out.Tensors.size() + K);
      if (std::find(Appearance.begin(), Appearance.end(), out.Dims[K]) ==
          Appearance.end())
        return fail(Field, "dim '", out.Dims[K],
                    "' does not appear in any tensor shape");
      if (Appearance[K] != out.Dims[K])
        return fail(Field, "dim '", out.Dims[K],
                    "' is out of order: dims follow their first appearance in "
                    "the tensor shapes (",
                    joinNames(Appearance), ")");
    }
    return Status::success();
  }

  Status parseDims3(const json &launch, const char *key,
                    const std::array<int64_t, 3> &max,
                    std::array<uint32_t, 3> &out) {
    const json *Values = nullptr;
    TILERT_TRY(getArray(launch, "launch", key, Values));
    std::string Field = jsonMember("launch", key);
    if (Values->size() != 3)
      return fail(Field, "expected 3 entries (x, y, z), found ",
                  Values->size());
    for (size_t I = 0; I < 3; ++I) {
      int64_t Value = 0;
      TILERT_TRY(asInt((*Values)[I], jsonElement(Field, I), 1, max[I], Value));
      out[I] = static_cast<uint32_t>(Value);
    }
    return Status::success();
  }

  Status parseLaunch(const json &root, KernelMetadata &out) {
    const json *Launch = nullptr;
    TILERT_TRY(getObject(root, "", "launch", Launch));
    const json *Grid = nullptr;
    TILERT_TRY(getArray(*Launch, "launch", "grid", Grid));
    if (Grid->size() != 3)
      return fail("launch.grid", "expected 3 expressions (x, y, z), found ",
                  Grid->size());
    for (size_t I = 0; I < 3; ++I) {
      std::string Field = jsonElement("launch.grid", I);
      std::string Text;
      TILERT_TRY(asString((*Grid)[I], Field, Text));
      Status Parsed = IntExpr::parse(Text, out.Dims, out.Launch.Grid[I]);
      if (!Parsed.ok())
        return fail(Field, Parsed.message(), " in '", Text, "'");
    }
    TILERT_TRY(
        parseDims3(*Launch, "block", {1024, 1024, 64}, out.Launch.Block));
    uint64_t Threads = uint64_t(out.Launch.Block[0]) * out.Launch.Block[1] *
                       out.Launch.Block[2];
    if (Threads > 1024)
      return fail("launch.block", Threads,
                  " threads per block exceed CUDA's limit of 1024");
    TILERT_TRY(
        parseDims3(*Launch, "cluster", {16, 16, 16}, out.Launch.Cluster));
    uint64_t Blocks = uint64_t(out.Launch.Cluster[0]) * out.Launch.Cluster[1] *
                      out.Launch.Cluster[2];
    if (Blocks > 16)
      return fail("launch.cluster", Blocks,
                  " blocks per cluster exceed CUDA's limit of 16");
    int64_t Smem = 0;
    TILERT_TRY(getInt(*Launch, "launch", "dynamic_smem", 0, Int32Max, Smem));
    out.Launch.DynamicSmem = static_cast<uint32_t>(Smem);
    if (const auto Found = Launch->find("persistent"); Found != Launch->end()) {
      if (!Found->is_boolean())
        return fail("launch.persistent", "expected a boolean, found ",
                    Found->dump());
      out.Launch.Persistent = Found->get<bool>();
    }
    return Status::success();
  }

  Status parseResources(const json &root, KernelMetadata &out) {
    const json *Resources = nullptr;
    TILERT_TRY(getObject(root, "", "resources", Resources));
    int64_t Value = 0;
    for (const char *Key : {"spill_stores", "spill_loads", "local_bytes"})
      TILERT_TRY(getInt(*Resources, "resources", Key, 0, Int32Max, Value));
    TILERT_TRY(
        getInt(*Resources, "resources", "registers", 0, Int32Max, Value));
    out.Registers = static_cast<uint32_t>(Value);
    TILERT_TRY(
        getInt(*Resources, "resources", "static_smem", 0, Int32Max, Value));
    out.StaticSmem = static_cast<uint32_t>(Value);
    TILERT_TRY(getInt(*Resources, "resources", "max_threads", 0, 1024, Value));
    const auto &Block = out.Launch.Block;
    int64_t Threads = int64_t(Block[0]) * Block[1] * Block[2];
    if (Value != 0 && Threads > Value)
      return fail("launch.block", Threads,
                  " threads per block exceed resources.max_threads (", Value,
                  "), the block size the kernel was compiled for");
    auto Source = Resources->find("source");
    if (Source != Resources->end()) {
      std::string Ignored;
      TILERT_TRY(asString(*Source, "resources.source", Ignored));
    }
    return Status::success();
  }
};

} // namespace

Status parseMetadata(std::string_view text, const std::string &path,
                     KernelMetadata &out) {
  json Root;
  TILERT_TRY(parseJson(text, path, Root));
  KernelMetadata Result;
  Result.Path = path;
  TILERT_TRY(Validator(path).run(Root, Result));
  out = std::move(Result);
  return Status::success();
}

Status loadMetadata(const std::string &path, KernelMetadata &out) {
  std::string Text;
  TILERT_TRY(readFile(path, Text));
  return parseMetadata(Text, path, out);
}

} // namespace tilert::detail
