//===- HostValues.cpp - Tensor elements on the host -----------------------===//

#include "HostValues.h"

#include "tilert/float16.hpp"

#include <cmath>
#include <cstring>

namespace tilert::gputest {

bool isHostSupported(tilertDType dtype) {
  return dtype == TILERT_DTYPE_F32 || dtype == TILERT_DTYPE_F16 ||
         dtype == TILERT_DTYPE_BF16 || dtype == TILERT_DTYPE_I32;
}

void encodeValue(tilertDType dtype, double value, char *out) {
  switch (dtype) {
  case TILERT_DTYPE_F32: {
    float Value = static_cast<float>(value);
    std::memcpy(out, &Value, sizeof(Value));
    return;
  }
  case TILERT_DTYPE_F16:
  case TILERT_DTYPE_BF16: {
    float Value = static_cast<float>(value);
    uint16_t Bits = dtype == TILERT_DTYPE_F16 ? halfFromFloat(Value)
                                              : bfloat16FromFloat(Value);
    std::memcpy(out, &Bits, sizeof(Bits));
    return;
  }
  default: {
    int32_t Value = static_cast<int32_t>(std::trunc(value));
    std::memcpy(out, &Value, sizeof(Value));
    return;
  }
  }
}

double decodeValue(tilertDType dtype, const char *in) {
  switch (dtype) {
  case TILERT_DTYPE_F32: {
    float Value;
    std::memcpy(&Value, in, sizeof(Value));
    return Value;
  }
  case TILERT_DTYPE_F16:
  case TILERT_DTYPE_BF16: {
    uint16_t Bits;
    std::memcpy(&Bits, in, sizeof(Bits));
    return dtype == TILERT_DTYPE_F16 ? floatFromHalf(Bits)
                                     : floatFromBfloat16(Bits);
  }
  default: {
    int32_t Value;
    std::memcpy(&Value, in, sizeof(Value));
    return Value;
  }
  }
}

double roundTo(tilertDType dtype, double value) {
  char Bytes[4];
  encodeValue(dtype, value, Bytes);
  return decodeValue(dtype, Bytes);
}

uint32_t poisonBits(tilertDType dtype) {
  switch (dtype) {
  case TILERT_DTYPE_F32:
    return 0x7fc00000u;
  case TILERT_DTYPE_F16:
    return 0x7e00u;
  case TILERT_DTYPE_BF16:
    return 0x7fc0u;
  default:
    return 0x8badf00du;
  }
}

bool isPoison(tilertDType dtype, const char *in) {
  uint32_t Bits = 0;
  bool Wide = dtype == TILERT_DTYPE_F32 || dtype == TILERT_DTYPE_I32;
  if (Wide) {
    std::memcpy(&Bits, in, 4);
  } else {
    uint16_t Half;
    std::memcpy(&Half, in, 2);
    Bits = Half;
  }
  return Bits == poisonBits(dtype);
}

} // namespace tilert::gputest
