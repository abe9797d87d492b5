//===- HostArguments.cpp - A kernel's arguments on the host ---------------===//

#include "HostArguments.h"

#include "HostTensorMap.h"

#include "DType.h"
#include "IntExpr.h"
#include "TensorMap.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <limits>
#include <random>

using namespace tilehost;
using nlohmann::ordered_json;

namespace {

/// The floating-point format of `dtype`, or null for the other dtypes.
const llvm::fltSemantics *getFloatSemantics(llvm::StringRef dtype) {
  if (dtype == "f16")
    return &llvm::APFloat::IEEEhalf();
  if (dtype == "bf16")
    return &llvm::APFloat::BFloat();
  if (dtype == "f32")
    return &llvm::APFloat::IEEEsingle();
  if (dtype == "f64")
    return &llvm::APFloat::IEEEdouble();
  return nullptr;
}

/// The values of an integer dtype ("bool" included).
struct IntegerRange {
  int64_t min;
  uint64_t max;
};

IntegerRange getIntegerRange(llvm::StringRef dtype) {
  if (dtype == "bool")
    return {0, 1};
  if (dtype == "u8")
    return {0, 255};
  if (dtype == "u32")
    return {0, std::numeric_limits<uint32_t>::max()};
  unsigned bits = dtype == "i8"    ? 8
                  : dtype == "i16" ? 16
                  : dtype == "i32" ? 32
                                   : 64;
  return {llvm::minIntN(bits), static_cast<uint64_t>(llvm::maxIntN(bits))};
}

/// Stores the low `bytes` bytes of `value` at `destination`, in the host's
/// byte order (the order the kernel reads on the host).
void storeBits(char *destination, uint64_t value, size_t bytes) {
  switch (bytes) {
  case 1: {
    uint8_t narrow = value;
    std::memcpy(destination, &narrow, 1);
    return;
  }
  case 2: {
    uint16_t narrow = value;
    std::memcpy(destination, &narrow, 2);
    return;
  }
  case 4: {
    uint32_t narrow = value;
    std::memcpy(destination, &narrow, 4);
    return;
  }
  default:
    std::memcpy(destination, &value, 8);
  }
}

/// Rounds `value` to `semantics` and returns its bits.
uint64_t roundToBits(double value, const llvm::fltSemantics &semantics) {
  llvm::APFloat rounded(value);
  bool losesInfo = false;
  rounded.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return rounded.bitcastToAPInt().getZExtValue();
}

/// Fills `tensor` with pseudo-random values from `seed`: floats in [-2, 2),
/// small integers (so that sums and products stay in range), bools.
void fillRandom(HostTensor &tensor, uint64_t seed) {
  std::mt19937_64 random(seed);
  const llvm::fltSemantics *semantics = getFloatSemantics(tensor.dtype);
  int64_t low = 0, high = 1;
  if (tensor.dtype == "i8")
    std::tie(low, high) = std::make_pair(-100, 100);
  else if (tensor.dtype == "u8")
    std::tie(low, high) = std::make_pair(0, 200);
  else if (tensor.dtype == "u32")
    std::tie(low, high) = std::make_pair(0, 1000);
  else if (tensor.dtype != "bool")
    std::tie(low, high) = std::make_pair(-1000, 1000);
  size_t count = tensor.bytes / tensor.elementBytes;
  for (size_t i = 0; i < count; ++i) {
    uint64_t bits;
    if (semantics)
      bits = roundToBits(-2.0 + 4.0 * double(random() >> 11) * 0x1p-53,
                         *semantics);
    else
      bits = static_cast<uint64_t>(
          low + static_cast<int64_t>(random() % uint64_t(high - low + 1)));
    storeBits(tensor.data.get() + i * tensor.elementBytes, bits,
              tensor.elementBytes);
  }
}

/// Splits `NAME=VALUE` arguments of `option` into a map, checking that
/// every name is one of `names` and appears at most once, or, if
/// `required`, exactly once.
llvm::Expected<llvm::StringMap<std::string>>
parseAssignments(llvm::StringRef option, const std::vector<std::string> &items,
                 const std::vector<std::string> &names, bool required) {
  llvm::StringMap<std::string> values;
  for (const std::string &item : items) {
    auto [name, value] = llvm::StringRef(item).split('=');
    if (name.empty() || value.empty() || name.size() == item.size())
      return llvm::createStringError(option.str() + " " + item +
                                     ": expected NAME=VALUE");
    if (!llvm::is_contained(names, name))
      return llvm::createStringError(
          option.str() + " " + item + ": the kernel has no such parameter" +
          (names.empty() ? std::string(" (it has none)")
                         : " (it has " + llvm::join(names, ", ") + ")"));
    if (!values.try_emplace(name, value.str()).second)
      return llvm::createStringError(option.str() + " " + name.str() +
                                     " is given twice");
  }
  for (const std::string &name : names)
    if (required && !values.count(name))
      return llvm::createStringError("missing " + option.str() + " " + name +
                                     "=VALUE");
  return values;
}

/// Parses the value of the scalar `scalar.name` from `text`.
llvm::Error parseScalar(HostScalar &scalar, llvm::StringRef text) {
  std::string context = "--scalar " + scalar.name + "=" + text.str() + ": ";
  size_t bytes =
      tilert::detail::dtypeSize(tilert::detail::parseDType(scalar.dtype));
  if (const llvm::fltSemantics *semantics = getFloatSemantics(scalar.dtype)) {
    llvm::APFloat value(*semantics);
    llvm::Expected<llvm::APFloat::opStatus> status =
        value.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return llvm::createStringError(context + "expected a number");
    }
    storeBits(scalar.bytes.data(), value.bitcastToAPInt().getZExtValue(),
              bytes);
    bool losesInfo = false;
    value.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    scalar.value = value.convertToDouble();
    return llvm::Error::success();
  }
  IntegerRange range = getIntegerRange(scalar.dtype);
  int64_t value = 0;
  uint64_t unsignedValue = 0;
  if (scalar.dtype == "bool" && (text == "true" || text == "false")) {
    value = text == "true";
  } else if (!text.getAsInteger(10, value)) {
    if (value < range.min || (value > 0 && uint64_t(value) > range.max))
      return llvm::createStringError(context + "out of range for " +
                                     scalar.dtype);
  } else if (range.min == 0 && !text.getAsInteger(10, unsignedValue) &&
             unsignedValue <= range.max) {
    value = static_cast<int64_t>(unsignedValue);
  } else {
    return llvm::createStringError(
        context + "expected an integer" +
        (scalar.dtype == "bool" ? " or a bool" : ""));
  }
  storeBits(scalar.bytes.data(), static_cast<uint64_t>(value), bytes);
  if (scalar.dtype == "bool")
    scalar.value = value != 0;
  else if (range.min == 0)
    scalar.value = static_cast<uint64_t>(value);
  else
    scalar.value = value;
  return llvm::Error::success();
}

/// Reads `path` into `tensor`, which must have exactly its size.
llvm::Error readTensor(HostTensor &tensor, llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return llvm::createStringError("--input " + tensor.name +
                                   ": cannot read '" + path.str() +
                                   "': " + file.getError().message());
  if ((*file)->getBufferSize() != tensor.bytes)
    return llvm::createStringError(
        "--input " + tensor.name + ": '" + path.str() + "' has " +
        std::to_string((*file)->getBufferSize()) + " bytes, but " +
        tensor.name + " (" + formatTensorType(tensor) + ") has " +
        std::to_string(tensor.bytes));
  std::memcpy(tensor.data.get(), (*file)->getBufferStart(), tensor.bytes);
  return llvm::Error::success();
}

/// Writes to `bytes` (128) the HostTensorMap of tensor map `param` of
/// kernel `kernelName` over `tensor`: what the runtime gives
/// cuTensorMapEncodeTiled (tilert's makeTensorMapArgs), or zeros where the
/// runtime skips an optional map. Fails with the runtime's message where it
/// fails the launch.
llvm::Error encodeTensorMap(const std::string &kernelName,
                            const ordered_json &param, const HostTensor &tensor,
                            char *bytes) {
  namespace rt = tilert::detail;
  rt::KernelMetadata kernel;
  kernel.Name = kernelName;
  rt::TensorParam described;
  described.Name = tensor.name;
  described.DType = rt::parseDType(tensor.dtype);
  described.Shape.resize(tensor.shape.size());
  kernel.Tensors.push_back(std::move(described));
  rt::TensorMapParam map;
  map.Name = param["name"];
  map.Box = param["box"].get<std::vector<uint32_t>>();
  map.Swizzle = param["swizzle"];
  map.L2Promotion = param["l2_promotion"];
  map.Fill = param["oob_fill"] == "nan" ? rt::OobFill::Nan : rt::OobFill::Zero;
  map.Optional = param.value("optional", false);
  kernel.TensorMaps.push_back(std::move(map));
  // Compact row-major strides, in elements.
  std::vector<int64_t> strides(tensor.shape.size(), 1);
  for (size_t d = tensor.shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * tensor.shape[d];
  rt::TensorMapArgs args;
  rt::Status status = rt::makeTensorMapArgs(
      kernel, 0, reinterpret_cast<uint64_t>(tensor.data.get()),
      tensor.shape.data(), strides.data(), args);
  // The kernel checks the rules of an optional map itself and does not read
  // it where they fail (as tilert's prepareTensorMaps).
  std::memset(bytes, 0, 128);
  if (!status.ok() && kernel.TensorMaps[0].Optional)
    return llvm::Error::success();
  if (!status.ok())
    return llvm::createStringError(status.message());
  HostTensorMap encoded{};
  encoded.magic = HostTensorMap::kMagic;
  encoded.base = reinterpret_cast<char *>(args.Address);
  encoded.rank = args.Rank;
  encoded.elementBytes = tensor.elementBytes;
  encoded.swizzleBytes = args.Swizzle == CU_TENSOR_MAP_SWIZZLE_128B  ? 128
                         : args.Swizzle == CU_TENSOR_MAP_SWIZZLE_64B ? 64
                         : args.Swizzle == CU_TENSOR_MAP_SWIZZLE_32B ? 32
                                                                     : 0;
  encoded.nanFill = args.OobFill != CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  for (uint32_t d = 0; d < args.Rank; ++d) {
    encoded.dims[d] = args.GlobalDim[d];
    encoded.box[d] = args.BoxDim[d];
    if (d + 1 < args.Rank)
      encoded.strides[d] = args.GlobalStrides[d];
  }
  std::memcpy(bytes, &encoded, sizeof(encoded));
  return llvm::Error::success();
}

} // namespace

llvm::Expected<HostArguments>
HostArguments::create(const ordered_json &metadata,
                      const ArgumentRequest &request) {
  HostArguments arguments;
  arguments.metadata = metadata;
  std::vector<std::string> dimNames, scalarNames, tensorNames;
  for (const ordered_json &param : metadata["params"]) {
    std::string kind = param["kind"];
    if (kind == "tensor_map")
      continue;
    (kind == "dim"      ? dimNames
     : kind == "scalar" ? scalarNames
                        : tensorNames)
        .push_back(param["name"]);
  }

  llvm::Expected<llvm::StringMap<std::string>> dimValues =
      parseAssignments("--dim", request.dims, dimNames, /*required=*/true);
  if (!dimValues)
    return dimValues.takeError();
  std::vector<int64_t> dims;
  for (const std::string &name : dimNames) {
    int64_t value = 0;
    std::string text = dimValues->lookup(name);
    if (llvm::StringRef(text).getAsInteger(10, value) || value < 0)
      return llvm::createStringError("--dim " + name + "=" + text +
                                     ": expected an integer >= 0");
    dims.push_back(value);
    arguments.dims.emplace_back(name, value);
  }
  llvm::Expected<llvm::StringMap<std::string>> scalarValues =
      parseAssignments("--scalar", request.scalars, scalarNames,
                       /*required=*/true);
  if (!scalarValues)
    return scalarValues.takeError();
  llvm::Expected<llvm::StringMap<std::string>> inputs = parseAssignments(
      "--input", request.inputs, tensorNames, /*required=*/false);
  if (!inputs)
    return inputs.takeError();

  uint64_t totalBytes = 0;
  for (const ordered_json &param : metadata["params"]) {
    std::string kind = param["kind"];
    if (kind == "scalar") {
      HostScalar scalar;
      scalar.name = param["name"];
      scalar.dtype = param["dtype"];
      if (llvm::Error error =
              parseScalar(scalar, scalarValues->lookup(scalar.name)))
        return std::move(error);
      arguments.scalars.push_back(std::move(scalar));
      continue;
    }
    if (kind != "tensor")
      continue;
    HostTensor tensor;
    tensor.name = param["name"];
    tensor.dtype = param["dtype"];
    tensor.elementBytes =
        tilert::detail::dtypeSize(tilert::detail::parseDType(tensor.dtype));
    uint64_t elements = 1;
    for (const ordered_json &extent : param["shape"]) {
      int64_t value =
          extent.is_string()
              ? dims[llvm::find(dimNames, extent.get<std::string>()) -
                     dimNames.begin()]
              : extent.get<int64_t>();
      tensor.shape.push_back(value);
      elements = llvm::SaturatingMultiply(elements, uint64_t(value));
    }
    uint64_t bytes =
        llvm::SaturatingMultiply(elements, uint64_t(tensor.elementBytes));
    totalBytes = llvm::SaturatingAdd(totalBytes, bytes);
    if (totalBytes > kMaxTensorBytes)
      return llvm::createStringError(
          "the tensors would take more than " +
          std::to_string(kMaxTensorBytes >> 20) + " MiB (with " + tensor.name +
          ": " + formatTensorType(tensor) + "); use smaller dims");
    tensor.bytes = bytes;
    tensor.data.reset(static_cast<char *>(std::aligned_alloc(
        kTensorAlignment,
        llvm::alignTo(std::max<uint64_t>(bytes, 1), kTensorAlignment))));
    if (!tensor.data)
      return llvm::createStringError("cannot allocate " +
                                     std::to_string(bytes) +
                                     " bytes for tensor '" + tensor.name + "'");
    auto input = inputs->find(tensor.name);
    if (input != inputs->end()) {
      if (llvm::Error error = readTensor(tensor, input->second))
        return std::move(error);
    } else {
      fillRandom(tensor, request.seed + 0x9e3779b97f4a7c15ull *
                                            (arguments.tensors.size() + 1));
    }
    arguments.tensors.push_back(std::move(tensor));
  }

  const ordered_json &launch = metadata["launch"];
  std::vector<uint32_t> block = launch["block"];
  if (block[1] != 1 || block[2] != 1)
    return llvm::createStringError(
        "tile-host-run runs blocks of threads along x only");
  arguments.threads = block[0];
  uint64_t threads = arguments.threads;
  for (unsigned axis = 0; axis < 3; ++axis) {
    std::string text = launch["grid"][axis];
    tilert::detail::IntExpr expression;
    tilert::detail::Status status =
        tilert::detail::IntExpr::parse(text, dimNames, expression);
    int64_t extent = 0;
    if (status.ok())
      status = expression.evaluate(dims, extent);
    if (!status.ok())
      return llvm::createStringError("grid extent '" + text +
                                     "': " + status.message());
    int64_t limit = axis == 0 ? std::numeric_limits<int32_t>::max() : 65535;
    if (extent < 0 || extent > limit)
      return llvm::createStringError("grid extent '" + text + "' is " +
                                     std::to_string(extent) + ", outside [0, " +
                                     std::to_string(limit) + "]");
    arguments.grid[axis] = static_cast<uint32_t>(extent);
    threads = llvm::SaturatingMultiply(threads, uint64_t(extent));
  }
  // A persistent kernel loops over the tiles of its grid in every block of
  // the launch, whatever their number (docs/runtime.md).
  if (request.persistentBlocks) {
    if (!launch.value("persistent", false))
      return llvm::createStringError(
          "--blocks: kernel '" + metadata["name"].get<std::string>() +
          "' is not persistent (its metadata has no launch.persistent)");
    uint64_t tiles =
        uint64_t(arguments.grid[0]) * arguments.grid[1] * arguments.grid[2];
    arguments.grid = {
        uint32_t(std::min<uint64_t>(request.persistentBlocks, tiles)), 1, 1};
  }
  if (threads > kMaxThreads)
    return llvm::createStringError("the grid has " + std::to_string(threads) +
                                   " threads; tile-host-run runs at most " +
                                   std::to_string(kMaxThreads) +
                                   " (use smaller dims)");
  return arguments;
}

std::string tilehost::formatTensorType(const HostTensor &tensor) {
  std::string text = tensor.dtype + "[";
  for (size_t i = 0; i < tensor.shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(tensor.shape[i]);
  return text + "]";
}

llvm::Expected<std::vector<void *>> HostArguments::getKernelParams() {
  bases.clear();
  for (HostTensor &tensor : tensors)
    bases.push_back(tensor.data.get());
  tensorMaps.clear();
  for (const ordered_json &param : metadata["params"]) {
    if (param["kind"] != "tensor_map")
      continue;
    const HostTensor *tensor = nullptr;
    for (const HostTensor &candidate : tensors)
      if (candidate.name == param["tensor"])
        tensor = &candidate;
    if (!tensor)
      return llvm::createStringError("tensor map '" +
                                     param["name"].get<std::string>() +
                                     "' describes no tensor parameter");
    tensorMaps.emplace_back();
    if (llvm::Error error = encodeTensorMap(metadata["name"], param, *tensor,
                                            tensorMaps.back().bytes))
      return std::move(error);
  }
  std::vector<void *> params;
  size_t tensor = 0, dim = 0, scalar = 0, map = 0;
  for (const ordered_json &param : metadata["params"]) {
    std::string kind = param["kind"];
    if (kind == "tensor")
      params.push_back(&bases[tensor++]);
    else if (kind == "dim")
      params.push_back(&dims[dim++].second);
    else if (kind == "tensor_map")
      params.push_back(tensorMaps[map++].bytes);
    else
      params.push_back(scalars[scalar++].bytes.data());
  }
  return params;
}

llvm::Error HostArguments::writeTensors(llvm::StringRef directory,
                                        llvm::StringRef suffix) const {
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return llvm::createStringError("cannot create '" + directory.str() +
                                   "': " + error.message());
  for (const HostTensor &tensor : tensors) {
    llvm::SmallString<128> path(directory);
    llvm::sys::path::append(path, tensor.name + "." + suffix.str());
    if (llvm::Error error =
            llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
              os.write(tensor.data.get(), tensor.bytes);
              return llvm::Error::success();
            }))
      return error;
  }
  return llvm::Error::success();
}

llvm::Error
HostArguments::writeDescription(llvm::StringRef directory,
                                llvm::StringRef inputSuffix,
                                llvm::StringRef outputSuffix) const {
  ordered_json run;
  run["kernel"] = metadata["name"];
  run["constants"] = metadata["constants"];
  run["grid"] = grid;
  run["threads"] = threads;
  run["dims"] = ordered_json::object();
  for (const auto &[name, value] : dims)
    run["dims"][name] = value;
  run["scalars"] = ordered_json::object();
  for (const HostScalar &scalar : scalars)
    run["scalars"][scalar.name] = {{"dtype", scalar.dtype},
                                   {"value", scalar.value}};
  run["tensors"] = ordered_json::array();
  for (const HostTensor &tensor : tensors)
    run["tensors"].push_back(
        {{"name", tensor.name},
         {"dtype", tensor.dtype},
         {"shape", tensor.shape},
         {"input", tensor.name + "." + inputSuffix.str()},
         {"output", tensor.name + "." + outputSuffix.str()}});
  llvm::SmallString<128> path(directory);
  llvm::sys::path::append(path, "run.json");
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << run.dump(2) << "\n";
    return llvm::Error::success();
  });
}
