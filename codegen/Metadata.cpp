//===- Metadata.cpp - Kernel metadata JSON (tilec.kernel/1) ---------------===//

#include "codegen/Metadata.h"

#include "codegen/LaunchGrid.h"
#include "codegen/Sha256.h"
#include "codegen/Version.h"
#include "dialects/Tile/TileOps.h"
#include "passes/Analysis/AccessAnalysis.h"
#include "passes/Analysis/TensorMaps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;
using namespace tilec;
using json = nlohmann::ordered_json;

std::optional<std::string> tilec::dtypeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return std::nullopt;
  unsigned width = integer.getWidth();
  if (width == 1)
    return "bool";
  if (integer.isUnsigned())
    return (width == 8 || width == 32)
               ? std::optional<std::string>("u" + std::to_string(width))
               : std::nullopt;
  if (width == 8 || width == 16 || width == 32 || width == 64)
    return "i" + std::to_string(width);
  return std::nullopt;
}

namespace {
/// The JSON value of a compile-time constant, or nullopt if unrepresentable.
std::optional<json> constantValue(Attribute value) {
  if (auto boolean = dyn_cast<BoolAttr>(value))
    return json(boolean.getValue());
  if (auto integer = dyn_cast<IntegerAttr>(value)) {
    if (integer.getType().isInteger(1))
      return json(integer.getValue().getBoolValue());
    return json(integer.getValue().getSExtValue());
  }
  if (auto type = dyn_cast<TypeAttr>(value)) {
    if (std::optional<std::string> name = dtypeName(type.getValue()))
      return json(*name);
    return std::nullopt;
  }
  if (auto floating = dyn_cast<FloatAttr>(value))
    return json(floating.getValueAsDouble());
  if (auto string = dyn_cast<StringAttr>(value))
    return json(string.getValue().str());
  return std::nullopt;
}

/// The dtype of kernel argument `index`: the front end's `tile.dtype`
/// spelling (which tells u8 from i8), else the one of `type`.
std::optional<std::string> argumentDtype(tile::KernelOp kernel, unsigned index,
                                         Type type) {
  if (auto spelling = kernel.getArgAttrOfType<StringAttr>(
          index, tile::TileDialect::DtypeAttrHelper::getNameStr()))
    return spelling.getValue().str();
  return dtypeName(type);
}

/// What the kernel does to the global tensor argument `tensor`: "read",
/// "write" or "readwrite", from the memory effects of the ops that use it.
/// A use whose effects are unknown, or that may make an alias of the tensor
/// (an op with a buffer result), counts as both.
const char *tensorAccess(BlockArgument tensor) {
  bool reads = false;
  bool writes = false;
  for (OpOperand &use : tensor.getUses()) {
    Operation *user = use.getOwner();
    auto effects = dyn_cast<MemoryEffectOpInterface>(user);
    bool mayAlias = llvm::any_of(user->getResultTypes(), [](Type type) {
      return isa<tile::BufferType>(type);
    });
    if (!effects || mayAlias) {
      reads = writes = true;
      continue;
    }
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffectsOnValue(tensor, instances);
    for (const MemoryEffects::EffectInstance &instance : instances) {
      reads |= isa<MemoryEffects::Read>(instance.getEffect());
      writes |= isa<MemoryEffects::Write>(instance.getEffect());
    }
  }
  if (reads && writes)
    return "readwrite";
  return writes ? "write" : "read";
}

json resourcesJson(const PtxasResources &resources, int64_t maxThreads,
                   const char *source) {
  json result;
  result["registers"] = resources.registers;
  result["spill_stores"] = resources.spillStores;
  result["spill_loads"] = resources.spillLoads;
  result["local_bytes"] = resources.localBytes;
  result["static_smem"] = resources.staticSmem;
  result["performance_warnings"] = resources.performanceWarnings;
  result["max_threads"] = maxThreads;
  result["source"] = source;
  return result;
}
} // namespace

FailureOr<json> tilec::describeKernel(tile::KernelOp kernel,
                                      const GpuTarget &target,
                                      const KernelSource &source) {
  tile::LaunchOp launch = kernel.getLaunch();
  if (!launch)
    return kernel.emitOpError("has no 'tile.launch'");

  json metadata;
  metadata["schema"] = kMetadataSchema;
  metadata["name"] = kernel.getSymName().str();
  metadata["entry"] = kernel.getSymName().str();
  metadata["arch"] = target.arch;
  metadata["binaries"] = json::array();
  metadata["versions"] = {{"tilec", TILEC_VERSION},
                          {"llvm", LLVM_VERSION_STRING},
                          {"ptxas", nullptr}};
  metadata["source"] = {{"path", source.path}, {"sha256", source.sha256}};

  json constants = json::object();
  if (auto dict = kernel->getAttrOfType<DictionaryAttr>(
          tile::KernelOp::getConstantsAttrName())) {
    for (NamedAttribute entry : dict) {
      std::optional<json> value = constantValue(entry.getValue());
      if (!value)
        return kernel.emitOpError("compile-time constant '")
               << entry.getName().getValue() << "' has no JSON representation";
      constants[entry.getName().getValue().str()] = std::move(*value);
    }
  }
  metadata["constants"] = std::move(constants);

  json params = json::array();
  for (BlockArgument arg : kernel.getArguments()) {
    std::string name = kernel.getArgName(arg.getArgNumber()).str();
    if (auto buffer = dyn_cast<tile::BufferType>(arg.getType())) {
      std::optional<std::string> dtype =
          argumentDtype(kernel, arg.getArgNumber(), buffer.getElementType());
      if (!dtype)
        return emitError(arg.getLoc())
               << "tensor element type " << buffer.getElementType()
               << " has no metadata dtype";
      json shape = json::array();
      auto shapeAttr = kernel.getArgAttrOfType<ArrayAttr>(
          arg.getArgNumber(), tile::KernelOp::getArgShapeAttrName());
      for (auto [dim, extent] : llvm::enumerate(buffer.getShape())) {
        auto symbol =
            shapeAttr ? dyn_cast<StringAttr>(shapeAttr[dim]) : StringAttr();
        if (symbol)
          shape.push_back(symbol.getValue().str());
        else
          shape.push_back(extent);
      }
      params.push_back({{"kind", "tensor"},
                        {"name", name},
                        {"dtype", *dtype},
                        {"shape", std::move(shape)},
                        {"alignment", tensorAlignment(arg)},
                        {"access", tensorAccess(arg)}});
    } else if (arg.getType().isIndex()) {
      params.push_back({{"kind", "dim"}, {"name", name}, {"dtype", "i64"}});
    } else {
      std::optional<std::string> dtype =
          argumentDtype(kernel, arg.getArgNumber(), arg.getType());
      if (!dtype)
        return emitError(arg.getLoc())
               << "scalar type " << arg.getType() << " has no metadata dtype";
      params.push_back({{"kind", "scalar"}, {"name", name}, {"dtype", *dtype}});
    }
  }
  SmallVector<TensorMapParam> maps = collectTensorMaps(kernel);
  for (const TensorMapParam &map : maps)
    params.push_back({{"kind", "tensor_map"},
                      {"name", map.name},
                      {"tensor", kernel.getArgName(map.argument).str()},
                      {"box", {map.boxRows, map.boxColumns}},
                      {"swizzle", map.swizzleBytes},
                      {"l2_promotion", 256},
                      {"oob_fill", "zero"},
                      {"optional", true}});
  if (!maps.empty())
    metadata["schema"] = kTensorMapMetadataSchema;
  metadata["params"] = std::move(params);

  FailureOr<std::array<std::string, 3>> grid = launchGridExpressions(launch);
  if (failed(grid))
    return failure();
  int64_t threads = launch.getBlockThreads();
  int64_t dynamicSmem = 0;
  if (auto bytes = kernel->getAttrOfType<IntegerAttr>(
          tile::TileDialect::SharedMemoryBytesAttrHelper::getNameStr()))
    dynamicSmem = bytes.getInt();
  // A launch of clusters is persistent: its blocks are launched along x.
  tile::WarpSpecializeOp roles = launch.getWarpSpecialize();
  int64_t cluster = roles ? roles.getClusterBlocks() : 1;
  metadata["launch"] = {{"grid", *grid},
                        {"block", {threads, 1, 1}},
                        {"cluster", {cluster, 1, 1}},
                        {"dynamic_smem", dynamicSmem}};
  if (roles && roles.getPersistent())
    metadata["launch"]["persistent"] = true;
  metadata["resources"] = resourcesJson(PtxasResources(), threads, "none");
  return metadata;
}

void tilec::setPtxasResults(json &metadata, llvm::StringRef ptxasVersion,
                            const PtxasResources &resources) {
  metadata["versions"]["ptxas"] = ptxasVersion.str();
  int64_t maxThreads = metadata["resources"]["max_threads"].get<int64_t>();
  metadata["resources"] = resourcesJson(resources, maxThreads, "ptxas");
}

void tilec::setBinaries(json &metadata, llvm::ArrayRef<BinaryFile> binaries) {
  json list = json::array();
  for (const BinaryFile &binary : binaries)
    list.push_back({{"kind", binary.kind},
                    {"file", binary.file},
                    {"sha256", sha256Hex(binary.bytes)}});
  metadata["binaries"] = std::move(list);
}
