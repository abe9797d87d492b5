//===- DType.cpp - Element types --------------------------------*- C++ -*-===//

#include "DType.h"

#include "Status.h"

#include <iterator>

namespace tilert::detail {

namespace {

/// DLPack's boolean type code (kDLBool), which dlpack.h v0.6 does not name.
constexpr uint8_t DLBoolCode = 6;

struct DTypeEntry {
  tilertDType DType;
  const char *Name;
  uint8_t Code;
  uint8_t Bits;
};

/// Indexed by tilertDType value - 1.
constexpr DTypeEntry DTypes[] = {
    {TILERT_DTYPE_F16, "f16", kDLFloat, 16},
    {TILERT_DTYPE_BF16, "bf16", kDLBfloat, 16},
    {TILERT_DTYPE_F32, "f32", kDLFloat, 32},
    {TILERT_DTYPE_F64, "f64", kDLFloat, 64},
    {TILERT_DTYPE_I8, "i8", kDLInt, 8},
    {TILERT_DTYPE_I16, "i16", kDLInt, 16},
    {TILERT_DTYPE_I32, "i32", kDLInt, 32},
    {TILERT_DTYPE_I64, "i64", kDLInt, 64},
    {TILERT_DTYPE_U8, "u8", kDLUInt, 8},
    {TILERT_DTYPE_U32, "u32", kDLUInt, 32},
    {TILERT_DTYPE_BOOL, "bool", DLBoolCode, 8},
};

constexpr bool isIndexedByValue() {
  for (size_t I = 0; I < std::size(DTypes); ++I)
    if (DTypes[I].DType != static_cast<tilertDType>(I + 1))
      return false;
  return true;
}
static_assert(isIndexedByValue(), "DTypes must be in tilertDType order");

/// The entry of `dtype` (a table index: launches look dtypes up per tensor).
const DTypeEntry *findEntry(tilertDType dtype) {
  size_t Index = static_cast<size_t>(dtype) - 1;
  return Index < std::size(DTypes) ? &DTypes[Index] : nullptr;
}

} // namespace

tilertDType parseDType(std::string_view name) {
  for (const DTypeEntry &Entry : DTypes)
    if (name == Entry.Name)
      return Entry.DType;
  return TILERT_DTYPE_INVALID;
}

const char *dtypeName(tilertDType dtype) {
  const DTypeEntry *Entry = findEntry(dtype);
  return Entry ? Entry->Name : nullptr;
}

size_t dtypeSize(tilertDType dtype) {
  const DTypeEntry *Entry = findEntry(dtype);
  return Entry ? Entry->Bits / 8 : 0;
}

const std::string &dtypeNameList() {
  static const std::string List = [] {
    std::vector<std::string> Names;
    for (const DTypeEntry &Entry : DTypes)
      Names.push_back(Entry.Name);
    return joinNames(Names);
  }();
  return List;
}

DLDataType toDLDataType(tilertDType dtype) {
  const DTypeEntry *Entry = findEntry(dtype);
  if (!Entry)
    return DLDataType{0, 0, 0};
  return DLDataType{Entry->Code, Entry->Bits, 1};
}

std::string describeDLDataType(DLDataType type) {
  if (type.lanes == 1)
    for (const DTypeEntry &Entry : DTypes)
      if (Entry.Code == type.code && Entry.Bits == type.bits)
        return Entry.Name;
  return strCat("DLDataType(code=", unsigned(type.code),
                ", bits=", unsigned(type.bits), ", lanes=", type.lanes, ")");
}

} // namespace tilert::detail
