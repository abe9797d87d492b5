//===- HostFunctions.cpp - Functions host code calls ----------------------===//

#include "HostFunctions.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <math.h>

using namespace tilehost;

namespace {

float hostRsqrtf(float x) { return 1.0f / ::sqrtf(x); }
double hostRsqrt(double x) { return 1.0 / ::sqrt(x); }

/// Rounds `value` to bf16 (to nearest, ties to even) and returns the result
/// the way the psABIs of x86-64 and AArch64 return a `__bf16`: in the low 16
/// bits of the first floating-point register, here those of a `float`.
float roundToBfloat16(const llvm::APFloat &value) {
  llvm::APFloat rounded = value;
  bool losesInfo = false;
  rounded.convert(llvm::APFloat::BFloat(), llvm::APFloat::rmNearestTiesToEven,
                  &losesInfo);
  uint32_t bits = rounded.bitcastToAPInt().getZExtValue();
  float result;
  std::memcpy(&result, &bits, sizeof(result));
  return result;
}

float truncsfbf2(float x) { return roundToBfloat16(llvm::APFloat(x)); }
float truncdfbf2(double x) { return roundToBfloat16(llvm::APFloat(x)); }

/// A libdevice function and its host version.
struct HostFunction {
  /// The libdevice name (`__nv_expf`).
  llvm::StringLiteral name;
  /// How many arguments it takes; each and the result are `float` or
  /// `double`.
  unsigned arity;
  /// True for `double`, false for `float`.
  bool isDouble;
  llvm::orc::ExecutorAddr address;
};

template <typename T> llvm::orc::ExecutorAddr addressOf(T *function) {
  return llvm::orc::ExecutorAddr::fromPtr(function);
}

using F1 = float (*)(float);
using D1 = double (*)(double);
using F2 = float (*)(float, float);
using D2 = double (*)(double, double);
using F3 = float (*)(float, float, float);
using D3 = double (*)(double, double, double);

// Both precisions of a C library function: `__nv_<fn>f` is `<fn>f` and
// `__nv_<fn>` is `<fn>`.
#define UNARY(fn)                                                              \
  {"__nv_" #fn "f", 1, false, addressOf(static_cast<F1>(&::fn##f))}, {         \
    "__nv_" #fn, 1, true, addressOf(static_cast<D1>(&::fn))                    \
  }
#define BINARY(fn)                                                             \
  {"__nv_" #fn "f", 2, false, addressOf(static_cast<F2>(&::fn##f))}, {         \
    "__nv_" #fn, 2, true, addressOf(static_cast<D2>(&::fn))                    \
  }

const HostFunction kHostFunctions[] = {
    UNARY(acos),
    UNARY(acosh),
    UNARY(asin),
    UNARY(asinh),
    UNARY(atan),
    UNARY(atanh),
    UNARY(cbrt),
    UNARY(ceil),
    UNARY(cos),
    UNARY(cosh),
    UNARY(erf),
    UNARY(erfc),
    UNARY(exp),
    UNARY(exp2),
    UNARY(expm1),
    UNARY(fabs),
    UNARY(floor),
    UNARY(log),
    UNARY(log10),
    UNARY(log1p),
    UNARY(log2),
    UNARY(rint),
    UNARY(round),
    UNARY(sin),
    UNARY(sinh),
    UNARY(sqrt),
    UNARY(tan),
    UNARY(tanh),
    UNARY(trunc),
    BINARY(atan2),
    BINARY(copysign),
    BINARY(fmax),
    BINARY(fmin),
    BINARY(fmod),
    BINARY(hypot),
    BINARY(pow),
    {"__nv_fmaf", 3, false, addressOf(static_cast<F3>(&::fmaf))},
    {"__nv_fma", 3, true, addressOf(static_cast<D3>(&::fma))},
    {"__nv_rsqrtf", 1, false, addressOf(static_cast<F1>(&hostRsqrtf))},
    {"__nv_rsqrt", 1, true, addressOf(static_cast<D1>(&hostRsqrt))},
};

#undef UNARY
#undef BINARY

/// True if `type` is the type of `function`.
bool hasType(const HostFunction &function, llvm::FunctionType *type) {
  auto isOperand = [&](llvm::Type *operand) {
    return function.isDouble ? operand->isDoubleTy() : operand->isFloatTy();
  };
  return !type->isVarArg() && type->getNumParams() == function.arity &&
         isOperand(type->getReturnType()) &&
         llvm::all_of(type->params(), isOperand);
}

} // namespace

llvm::Expected<llvm::orc::ExecutorAddr>
tilehost::findHostLibdeviceFunction(llvm::StringRef name,
                                    llvm::FunctionType *type) {
  for (const HostFunction &function : kHostFunctions) {
    if (function.name != name)
      continue;
    if (!hasType(function, type)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << *type;
      return llvm::createStringError(
          "libdevice's '" + name.str() + "' is declared as '" + text +
          "', but its host version takes " + std::to_string(function.arity) +
          (function.isDouble ? " double" : " float") + " argument(s)");
    }
    return function.address;
  }
  return llvm::createStringError(
      "the kernel calls libdevice's '" + name.str() +
      "', which tile-host-run has no host version of (see "
      "tools/tile-host-run/HostFunctions.cpp)");
}

int32_t tilehost::hostVprintf(const char *format, const char *arguments) {
  // CUDA's vprintf: each argument at the next multiple of its size, floats
  // as double, integers as 32 or 64 bits by their length modifier.
  std::string text;
  size_t offset = 0;
  auto take = [&](auto value) {
    offset = llvm::alignTo(offset, sizeof(value));
    std::memcpy(&value, arguments + offset, sizeof(value));
    offset += sizeof(value);
    return value;
  };
  for (const char *c = format; *c; ++c) {
    if (*c != '%') {
      text += *c;
      continue;
    }
    // One conversion: flags, width, precision, length, conversion.
    const char *start = c++;
    while (*c && std::strchr("-+ #0", *c))
      ++c;
    while (*c && (std::isdigit(static_cast<unsigned char>(*c)) || *c == '.'))
      ++c;
    bool wide = false;
    while (*c && std::strchr("hlzjt", *c))
      wide |= *c++ != 'h';
    if (!*c)
      break;
    std::string spec(start, c + 1);
    char buffer[512];
    int written = 0;
    if (*c == '%')
      written = std::snprintf(buffer, sizeof(buffer), "%%");
    else if (std::strchr("fFeEgGaA", *c))
      written =
          std::snprintf(buffer, sizeof(buffer), spec.c_str(), take(double()));
    else if (*c == 's' || *c == 'p')
      written = std::snprintf(buffer, sizeof(buffer), spec.c_str(),
                              take(static_cast<const char *>(nullptr)));
    else if (wide)
      written =
          std::snprintf(buffer, sizeof(buffer), spec.c_str(), take(int64_t()));
    else
      written =
          std::snprintf(buffer, sizeof(buffer), spec.c_str(), take(int32_t()));
    text.append(buffer,
                std::min<size_t>(std::max(written, 0), sizeof(buffer) - 1));
  }
  llvm::outs() << text;
  llvm::outs().flush();
  return int32_t(text.size());
}

HostSymbols tilehost::getHostRuntimeHelpers() {
  return {{"__truncsfbf2", addressOf(&truncsfbf2)},
          {"__truncdfbf2", addressOf(&truncdfbf2)},
          {"vprintf", addressOf(&hostVprintf)}};
}
