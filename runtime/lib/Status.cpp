//===- Status.cpp - Internal status values ----------------------*- C++ -*-===//

#include "Status.h"

namespace tilert::detail {

const char *statusName(tilertStatus code) {
  switch (code) {
  case TILERT_SUCCESS:
    return "TILERT_SUCCESS";
  case TILERT_ERROR_INVALID_ARGUMENT:
    return "TILERT_ERROR_INVALID_ARGUMENT";
  case TILERT_ERROR_METADATA:
    return "TILERT_ERROR_METADATA";
  case TILERT_ERROR_IO:
    return "TILERT_ERROR_IO";
  case TILERT_ERROR_CHECKSUM:
    return "TILERT_ERROR_CHECKSUM";
  case TILERT_ERROR_NO_DEVICE:
    return "TILERT_ERROR_NO_DEVICE";
  case TILERT_ERROR_ARCH_MISMATCH:
    return "TILERT_ERROR_ARCH_MISMATCH";
  case TILERT_ERROR_JIT:
    return "TILERT_ERROR_JIT";
  case TILERT_ERROR_UNSUPPORTED:
    return "TILERT_ERROR_UNSUPPORTED";
  case TILERT_ERROR_CUDA:
    return "TILERT_ERROR_CUDA";
  case TILERT_ERROR_OUT_OF_MEMORY:
    return "TILERT_ERROR_OUT_OF_MEMORY";
  case TILERT_ERROR_INTERNAL:
    return "TILERT_ERROR_INTERNAL";
  case TILERT_STATUS_MAX_ENUM:
    break;
  }
  return "TILERT_ERROR_UNKNOWN";
}

std::string joinNames(const std::vector<std::string> &items) {
  std::string Result;
  for (const std::string &Item : items)
    Result += (Result.empty() ? "" : ", ") + Item;
  return Result;
}

} // namespace tilert::detail
