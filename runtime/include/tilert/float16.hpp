//===- float16.hpp - Host conversions for 16-bit floats ---------*- C++ -*-===//
//
// Header-only conversions between float and the bit patterns of IEEE binary16
// (f16) and bfloat16 (bf16), rounding to nearest even, for building f16/bf16
// scalar arguments and host-side tensor data.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_FLOAT16_HPP
#define TILERT_FLOAT16_HPP

#include <cstdint>
#include <cstring>

namespace tilert {

/// Rounds `value` to the nearest IEEE binary16 (ties to even) and returns its
/// bit pattern. Overflow gives infinity; NaN stays a (quiet) NaN.
inline uint16_t halfFromFloat(float value) {
  uint32_t Bits;
  std::memcpy(&Bits, &value, sizeof(Bits));
  uint32_t Sign = (Bits >> 16) & 0x8000u;
  uint32_t Exp = (Bits >> 23) & 0xffu;
  uint32_t Mant = Bits & 0x7fffffu;
  if (Exp == 0xff)
    return static_cast<uint16_t>(Sign | 0x7c00u |
                                 (Mant ? 0x200u | (Mant >> 13) : 0u));
  if (Exp > 142)
    return static_cast<uint16_t>(Sign | 0x7c00u);
  if (Exp >= 113) {
    uint32_t Half = ((Exp - 112) << 10) | (Mant >> 13);
    uint32_t Rem = Mant & 0x1fffu;
    if (Rem > 0x1000u || (Rem == 0x1000u && (Half & 1u)))
      ++Half; // A carry into the exponent is the correct rounding.
    return static_cast<uint16_t>(Sign | Half);
  }
  if (Exp < 102)
    return static_cast<uint16_t>(Sign);
  // Subnormal result: the value in units of 2^-24, rounded to nearest even.
  uint32_t Full = Mant | 0x800000u;
  uint32_t Shift = 126 - Exp;
  uint32_t Half = Full >> Shift;
  uint32_t Rem = Full & ((1u << Shift) - 1u);
  uint32_t Halfway = 1u << (Shift - 1);
  if (Rem > Halfway || (Rem == Halfway && (Half & 1u)))
    ++Half;
  return static_cast<uint16_t>(Sign | Half);
}

/// Returns the float value of the IEEE binary16 bit pattern `bits` (exact).
inline float floatFromHalf(uint16_t bits) {
  uint32_t Sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t Exp = (bits >> 10) & 0x1fu;
  uint32_t Mant = bits & 0x3ffu;
  uint32_t Out;
  if (Exp == 0) {
    float Magnitude = static_cast<float>(Mant) * (1.0f / 16777216.0f);
    return Sign ? -Magnitude : Magnitude;
  }
  if (Exp == 31)
    Out = Sign | 0x7f800000u | (Mant << 13);
  else
    Out = Sign | ((Exp + 112) << 23) | (Mant << 13);
  float Value;
  std::memcpy(&Value, &Out, sizeof(Value));
  return Value;
}

/// Rounds `value` to the nearest bfloat16 (ties to even) and returns its bit
/// pattern. NaN stays a (quiet) NaN.
inline uint16_t bfloat16FromFloat(float value) {
  uint32_t Bits;
  std::memcpy(&Bits, &value, sizeof(Bits));
  if ((Bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((Bits >> 16) | 0x40u);
  Bits += 0x7fffu + ((Bits >> 16) & 1u);
  return static_cast<uint16_t>(Bits >> 16);
}

/// Returns the float value of the bfloat16 bit pattern `bits` (exact).
inline float floatFromBfloat16(uint16_t bits) {
  uint32_t Out = static_cast<uint32_t>(bits) << 16;
  float Value;
  std::memcpy(&Value, &Out, sizeof(Value));
  return Value;
}

} // namespace tilert

#endif // TILERT_FLOAT16_HPP
