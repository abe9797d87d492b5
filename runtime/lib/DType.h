//===- DType.h - Element types ----------------------------------*- C++ -*-===//
//
// The metadata's dtype strings, their sizes and their DLPack encodings.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_DTYPE_H
#define TILERT_LIB_DTYPE_H

#include "tilert/tilert.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace tilert::detail {

/// Returns the dtype spelled `name` in metadata ("f32"), or
/// TILERT_DTYPE_INVALID.
tilertDType parseDType(std::string_view name);

/// Returns the metadata spelling of `dtype`, or nullptr if it is invalid.
const char *dtypeName(tilertDType dtype);

/// Returns the size in bytes of one element of `dtype`, or 0 if invalid.
size_t dtypeSize(tilertDType dtype);

/// Returns the comma-separated list of every dtype spelling.
const std::string &dtypeNameList();

/// Returns the DLPack data type of a `dtype` tensor (one lane; bool is
/// DLPack's kDLBool, code 6, 8 bits).
DLDataType toDLDataType(tilertDType dtype);

/// Returns a readable name of `type`: a metadata spelling where one matches,
/// otherwise "DLDataType(code=C, bits=B, lanes=L)".
std::string describeDLDataType(DLDataType type);

} // namespace tilert::detail

#endif // TILERT_LIB_DTYPE_H
