//===- Types.cpp - Types and constants of the .tile language --------------===//

#include "compiler/Types.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

using namespace tilec;

namespace {

struct ScalarInfo {
  ScalarKind Kind;
  const char *Spelling;
  unsigned Bits;
};

constexpr ScalarInfo Scalars[] = {
    {ScalarKind::Bool, "bool", 1},  {ScalarKind::I8, "i8", 8},
    {ScalarKind::I16, "i16", 16},   {ScalarKind::I32, "i32", 32},
    {ScalarKind::I64, "i64", 64},   {ScalarKind::U8, "u8", 8},
    {ScalarKind::U32, "u32", 32},   {ScalarKind::F16, "f16", 16},
    {ScalarKind::BF16, "bf16", 16}, {ScalarKind::F32, "f32", 32},
    {ScalarKind::F64, "f64", 64},   {ScalarKind::Index, "index", 64},
};

const ScalarInfo &getInfo(ScalarKind Kind) {
  return Scalars[static_cast<unsigned>(Kind)];
}

} // namespace

std::optional<ScalarKind> tilec::parseElementType(std::string_view Name) {
  for (const ScalarInfo &Info : Scalars)
    if (Info.Kind != ScalarKind::Index && Name == Info.Spelling)
      return Info.Kind;
  return std::nullopt;
}

std::optional<ScalarKind> tilec::parseScalarType(std::string_view Name) {
  if (Name == "index")
    return ScalarKind::Index;
  return parseElementType(Name);
}

const char *tilec::getSpelling(ScalarKind Kind) {
  return getInfo(Kind).Spelling;
}

const char *tilec::getElementTypeList() {
  return "f16, bf16, f32, f64, i8, i16, i32, i64, u8, u32, bool";
}

bool tilec::isFloat(ScalarKind Kind) {
  return Kind == ScalarKind::F16 || Kind == ScalarKind::BF16 ||
         Kind == ScalarKind::F32 || Kind == ScalarKind::F64;
}

bool tilec::isInteger(ScalarKind Kind) {
  return Kind != ScalarKind::Bool && !isFloat(Kind);
}

bool tilec::isUnsigned(ScalarKind Kind) {
  return Kind == ScalarKind::U8 || Kind == ScalarKind::U32;
}

unsigned tilec::getBitWidth(ScalarKind Kind) { return getInfo(Kind).Bits; }

unsigned tilec::getByteSize(ScalarKind Kind) {
  return Kind == ScalarKind::Bool ? 1 : getInfo(Kind).Bits / 8;
}

double tilec::getMaxFinite(ScalarKind Kind) {
  switch (Kind) {
  case ScalarKind::F16:
    return 65504.0;
  case ScalarKind::BF16:
    return 3.3895313892515355e38;
  case ScalarKind::F32:
    return FLT_MAX;
  default:
    return DBL_MAX;
  }
}

bool tilec::fitsInInteger(std::int64_t Value, ScalarKind Kind) {
  switch (Kind) {
  case ScalarKind::I8:
    return Value >= -128 && Value <= 127;
  case ScalarKind::I16:
    return Value >= -32768 && Value <= 32767;
  case ScalarKind::I32:
    return Value >= std::numeric_limits<std::int32_t>::min() &&
           Value <= std::numeric_limits<std::int32_t>::max();
  case ScalarKind::U8:
    return Value >= 0 && Value <= 255;
  case ScalarKind::U32:
    return Value >= 0 && Value <= std::numeric_limits<std::uint32_t>::max();
  case ScalarKind::I64:
  case ScalarKind::Index:
    return true;
  default:
    return false;
  }
}

const char *tilec::getSpelling(MemScope Scope) {
  switch (Scope) {
  case MemScope::Global:
    return "global";
  case MemScope::Shared:
    return "shared";
  case MemScope::Fragment:
    return "fragment";
  case MemScope::Local:
    return "local";
  }
  return "local";
}

std::int64_t BufferInfo::getNumElements() const {
  std::int64_t N = 1;
  for (std::int64_t Extent : Shape)
    N *= Extent;
  return N;
}

std::string BufferInfo::describeShape() const {
  std::string S = "[";
  for (unsigned I = 0; I != Shape.size(); ++I) {
    if (I)
      S += ", ";
    if (Shape[I] == Dynamic)
      S += DimNames[I];
    else
      S += std::to_string(Shape[I]);
  }
  return S + "]";
}

std::string Constant::toString() const {
  switch (K) {
  case Kind::Int:
    return std::to_string(Int);
  case Kind::Float: {
    // NaN never reads back as itself (and printf may spell it "-nan").
    if (std::isnan(Float))
      return "nan";
    // The shortest spelling that reads back as the same double.
    char Buf[32];
    for (int Precision = 1; Precision <= 17; ++Precision) {
      std::snprintf(Buf, sizeof(Buf), "%.*g", Precision, Float);
      if (std::strtod(Buf, nullptr) == Float)
        break;
    }
    return Buf;
  }
  case Kind::Bool:
    return Bool ? "true" : "false";
  case Kind::Type:
    return getSpelling(Type);
  }
  return "";
}

std::string ExprType::describe() const {
  switch (K) {
  case Kind::Error:
    return "<error>";
  case Kind::Scalar:
    return getSpelling(Scalar);
  case Kind::UntypedInt:
    return "integer constant";
  case Kind::UntypedFloat:
    return "floating-point constant";
  case Kind::Buffer:
    return std::string(getSpelling(Buffer->Scope)) + " buffer " +
           getSpelling(Buffer->Elem) + Buffer->describeShape();
  case Kind::TypeValue:
    return "element type";
  case Kind::String:
    return "string";
  case Kind::Shape:
    return "shape list";
  }
  return "";
}
