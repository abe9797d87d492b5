//===- Workload.cpp - tile-bench's dims, scalars and FLOP model -----------===//

#include "Workload.h"

#include "IntExpr.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <limits>

namespace tilebench {

namespace {

using tilert::detail::IntExpr;
using tilert::detail::Status;

std::string join(const std::vector<std::string> &names) {
  return names.empty() ? "none" : tilert::detail::joinNames(names);
}

/// Splits NAME=VALUE; `option` names the flag in errors.
std::pair<std::string, std::string> splitAssignment(const std::string &text,
                                                    const char *option) {
  size_t Equals = text.find('=');
  if (Equals == std::string::npos || Equals == 0 || Equals + 1 == text.size())
    throw BenchError(std::string(option) + " " + text +
                     ": expected NAME=VALUE");
  return {text.substr(0, Equals), text.substr(Equals + 1)};
}

/// Evaluates an integer expression over `names` = `values`.
int64_t evaluate(const std::string &text, const std::vector<std::string> &names,
                 const std::vector<int64_t> &values, const std::string &what) {
  IntExpr Expr;
  Status Parsed = IntExpr::parse(text, names, Expr);
  int64_t Value = 0;
  if (Parsed.ok())
    Parsed = Expr.evaluate(values, Value);
  if (!Parsed.ok())
    throw BenchError(what + " '" + text + "': " + Parsed.message());
  return Value;
}

double parseFloat(const std::string &text, const std::string &what) {
  errno = 0;
  char *End = nullptr;
  double Value = std::strtod(text.c_str(), &End);
  if (End == text.c_str() || *End != '\0' || errno == ERANGE)
    throw BenchError(what + ": '" + text + "' is not a number");
  return Value;
}

int64_t parseInteger(const std::string &text, int64_t min, int64_t max,
                     const std::string &what) {
  errno = 0;
  char *End = nullptr;
  long long Value = std::strtoll(text.c_str(), &End, 0);
  if (End == text.c_str() || *End != '\0' || errno == ERANGE || Value < min ||
      Value > max)
    throw BenchError(what + ": '" + text + "' is not an integer in [" +
                     std::to_string(min) + ", " + std::to_string(max) + "]");
  return Value;
}

template <typename T> int64_t lowest() {
  return static_cast<int64_t>(std::numeric_limits<T>::lowest());
}
template <typename T> int64_t highest() {
  return static_cast<int64_t>(std::numeric_limits<T>::max());
}

tilert::Scalar parseScalar(const tilert::ScalarParam &param,
                           const std::string &text) {
  std::string What =
      "--scalar " + param.name + " (" + tilert::dtypeName(param.dtype) + ")";
  switch (param.dtype) {
  case TILERT_DTYPE_F16:
    return tilert::Scalar::f16(static_cast<float>(parseFloat(text, What)));
  case TILERT_DTYPE_BF16:
    return tilert::Scalar::bf16(static_cast<float>(parseFloat(text, What)));
  case TILERT_DTYPE_F32:
    return tilert::Scalar::f32(static_cast<float>(parseFloat(text, What)));
  case TILERT_DTYPE_F64:
    return tilert::Scalar::f64(parseFloat(text, What));
  case TILERT_DTYPE_I8:
    return tilert::Scalar::i8(static_cast<int8_t>(
        parseInteger(text, lowest<int8_t>(), highest<int8_t>(), What)));
  case TILERT_DTYPE_I16:
    return tilert::Scalar::i16(static_cast<int16_t>(
        parseInteger(text, lowest<int16_t>(), highest<int16_t>(), What)));
  case TILERT_DTYPE_I32:
    return tilert::Scalar::i32(static_cast<int32_t>(
        parseInteger(text, lowest<int32_t>(), highest<int32_t>(), What)));
  case TILERT_DTYPE_I64:
    return tilert::Scalar::i64(
        parseInteger(text, lowest<int64_t>(), highest<int64_t>(), What));
  case TILERT_DTYPE_U8:
    return tilert::Scalar::u8(
        static_cast<uint8_t>(parseInteger(text, 0, highest<uint8_t>(), What)));
  case TILERT_DTYPE_U32:
    return tilert::Scalar::u32(static_cast<uint32_t>(
        parseInteger(text, 0, highest<uint32_t>(), What)));
  case TILERT_DTYPE_BOOL:
    if (text == "true" || text == "1")
      return tilert::Scalar::boolean(true);
    if (text == "false" || text == "0")
      return tilert::Scalar::boolean(false);
    throw BenchError(What + ": '" + text + "' is not true, false, 1 or 0");
  case TILERT_DTYPE_INVALID:
  case TILERT_DTYPE_MAX_ENUM:
    break;
  }
  throw BenchError(What + ": unsupported dtype");
}

/// Assigns each NAME=VALUE in `arguments` to its slot in `names`; throws for
/// an unknown, repeated or missing name.
std::vector<std::string> assign(const std::vector<std::string> &arguments,
                                const std::vector<std::string> &names,
                                const char *option, const std::string &kernel,
                                const char *kind) {
  std::vector<std::string> Values(names.size());
  std::vector<bool> Given(names.size(), false);
  for (const std::string &Argument : arguments) {
    auto [Name, Value] = splitAssignment(Argument, option);
    auto It = std::find(names.begin(), names.end(), Name);
    if (It == names.end())
      throw BenchError(std::string(option) + " " + Argument + ": " + kernel +
                       " has no " + kind + " '" + Name + "' (its " + kind +
                       "s: " + join(names) + ")");
    size_t Index = static_cast<size_t>(It - names.begin());
    if (Given[Index])
      throw BenchError(std::string(option) + " " + Name + " is given twice");
    Given[Index] = true;
    Values[Index] = Value;
  }
  for (size_t I = 0; I < names.size(); ++I)
    if (!Given[I])
      throw BenchError("missing " + std::string(option) + " " + names[I] +
                       "=VALUE (" + kernel + " needs " + kind +
                       "s: " + join(names) + ")");
  return Values;
}

} // namespace

void check(const tilert::detail::Status &status) {
  if (!status.ok())
    throw BenchError(std::string(tilertGetErrorName(status.code())) + ": " +
                     status.message());
}

Workload resolveWorkload(const tilert::Kernel &kernel,
                         const std::vector<std::string> &dims,
                         const std::vector<std::string> &scalars) {
  std::string Name = kernel.name();
  Workload Result;
  Result.DimNames = kernel.dims();
  std::vector<std::string> DimText =
      assign(dims, Result.DimNames, "--dim", Name, "dim");
  for (size_t I = 0; I < DimText.size(); ++I) {
    int64_t Value = evaluate(DimText[I], {}, {}, "--dim " + Result.DimNames[I]);
    if (Value < 0)
      throw BenchError("--dim " + Result.DimNames[I] + " is negative (" +
                       std::to_string(Value) + ")");
    Result.DimValues.push_back(Value);
  }

  std::vector<tilert::ScalarParam> Params = kernel.scalars();
  for (const tilert::ScalarParam &Param : Params)
    Result.ScalarNames.push_back(Param.name);
  Result.ScalarText =
      assign(scalars, Result.ScalarNames, "--scalar", Name, "scalar");
  for (size_t I = 0; I < Params.size(); ++I)
    Result.Scalars.push_back(parseScalar(Params[I], Result.ScalarText[I]));

  for (const tilert::TensorParam &Tensor : kernel.tensors()) {
    std::vector<int64_t> Shape;
    int64_t Bytes = static_cast<int64_t>(tilert::dtypeSize(Tensor.dtype));
    for (const tilert::ShapeEntry &Entry : Tensor.shape) {
      int64_t Extent = Entry.value;
      if (!Entry.dim.empty())
        Extent = Result.DimValues[static_cast<size_t>(
            std::find(Result.DimNames.begin(), Result.DimNames.end(),
                      Entry.dim) -
            Result.DimNames.begin())];
      Shape.push_back(Extent);
      if (__builtin_mul_overflow(Bytes, Extent, &Bytes))
        throw BenchError("tensor '" + Tensor.name +
                         "' is larger than 2^63 bytes with these dims");
    }
    if (__builtin_add_overflow(Result.Bytes, static_cast<uint64_t>(Bytes),
                               &Result.Bytes))
      throw BenchError("the tensors total more than 2^64 bytes");
    Result.Shapes.push_back(std::move(Shape));
  }
  return Result;
}

int64_t evaluateFlops(const std::string &expression, const Workload &workload) {
  return evaluate(expression, workload.DimNames, workload.DimValues, "--flops");
}

} // namespace tilebench
