//===- Float16Test.cpp - f16/bf16 host conversions ------------------------===//

#include "tilert/float16.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace tilert;

TEST_CASE("float to f16 rounds to nearest even", "[float16]") {
  CHECK(halfFromFloat(1.0f) == 0x3c00);
  CHECK(halfFromFloat(-2.0f) == 0xc000);
  CHECK(halfFromFloat(0.0f) == 0x0000);
  CHECK(halfFromFloat(-0.0f) == 0x8000);
  CHECK(halfFromFloat(65504.0f) == 0x7bff);
  CHECK(halfFromFloat(65519.0f) == 0x7bff);
  CHECK(halfFromFloat(65520.0f) == 0x7c00);
  CHECK(halfFromFloat(1e10f) == 0x7c00);
  CHECK(halfFromFloat(-std::numeric_limits<float>::infinity()) == 0xfc00);
  CHECK(halfFromFloat(std::ldexp(1.0f, -14)) == 0x0400);
  CHECK(halfFromFloat(std::ldexp(1.0f, -24)) == 0x0001);
  CHECK(halfFromFloat(std::ldexp(1.0f, -25)) == 0x0000); // Tie to even.
  CHECK(halfFromFloat(std::ldexp(1.5f, -25)) == 0x0001);
  CHECK(halfFromFloat(std::ldexp(3.0f, -25)) == 0x0002);        // Tie to even.
  CHECK(halfFromFloat(1.0f + std::ldexp(1.0f, -11)) == 0x3c00); // Tie.
  CHECK(halfFromFloat(1.0f + std::ldexp(3.0f, -11)) == 0x3c02); // Tie.
  CHECK(halfFromFloat(std::ldexp(1023.5f, -24)) == 0x0400);     // Into normals.
  uint16_t NaN = halfFromFloat(std::numeric_limits<float>::quiet_NaN());
  CHECK((NaN & 0x7c00) == 0x7c00);
  CHECK((NaN & 0x03ff) != 0);
}

TEST_CASE("every f16 converts to float and back exactly", "[float16]") {
  for (uint32_t Bits = 0; Bits < 0x10000; ++Bits) {
    float Value = floatFromHalf(static_cast<uint16_t>(Bits));
    if (std::isnan(Value)) {
      CHECK((Bits & 0x7c00) == 0x7c00);
      continue;
    }
    INFO("bits " << Bits);
    REQUIRE(halfFromFloat(Value) == Bits);
  }
  CHECK(floatFromHalf(0x3c00) == 1.0f);
  CHECK(floatFromHalf(0x0001) == std::ldexp(1.0f, -24));
}

TEST_CASE("float to bf16 rounds to nearest even", "[float16]") {
  CHECK(bfloat16FromFloat(1.0f) == 0x3f80);
  CHECK(bfloat16FromFloat(-1.0f) == 0xbf80);
  CHECK(bfloat16FromFloat(1.0f + std::ldexp(1.0f, -8)) == 0x3f80); // Tie.
  CHECK(bfloat16FromFloat(1.0f + std::ldexp(3.0f, -8)) == 0x3f82); // Tie.
  CHECK(bfloat16FromFloat(1.0f + std::ldexp(1.0f, -7)) == 0x3f81);
  CHECK(bfloat16FromFloat(std::numeric_limits<float>::max()) == 0x7f80);
  uint16_t NaN = bfloat16FromFloat(std::numeric_limits<float>::quiet_NaN());
  CHECK(std::isnan(floatFromBfloat16(NaN)));
  CHECK(floatFromBfloat16(0x3f80) == 1.0f);
  for (uint32_t Bits = 0; Bits < 0x10000; ++Bits) {
    float Value = floatFromBfloat16(static_cast<uint16_t>(Bits));
    if (!std::isnan(Value))
      REQUIRE(bfloat16FromFloat(Value) == Bits);
  }
}
