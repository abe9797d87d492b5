//===- KernelParamsTest.cpp - The kernel's .param list --------------------===//

#include "KernelParams.h"

#include "TestSupport.h"

#include "tilert/float16.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace tilert::detail;
using namespace tilert::test;
using nlohmann::json;

namespace {

template <typename T> T read(void *pointer) {
  T Value;
  std::memcpy(&Value, pointer, sizeof(T));
  return Value;
}

} // namespace

TEST_CASE("parameters follow the ABI order and widths", "[params]") {
  json Document = gemmLikeMetadata();
  Document["params"].push_back(
      {{"kind", "scalar"}, {"name", "count"}, {"dtype", "i32"}});
  Document["params"].push_back(
      {{"kind", "scalar"}, {"name", "h"}, {"dtype", "f16"}});
  Document["params"].push_back(
      {{"kind", "scalar"}, {"name", "x"}, {"dtype", "f64"}});
  KernelMetadata M = parseValid(Document);
  BoundArgs Args;
  Args.Device = 0;
  Args.Addresses = {0x1000, 0x2000, 0x3000};
  Args.Dims = {64, 32, 48};
  tilertScalar Scalars[5] = {};
  Scalars[0].dtype = TILERT_DTYPE_F32;
  Scalars[0].value.f32 = 2.5f;
  Scalars[1].dtype = TILERT_DTYPE_BOOL;
  Scalars[1].value.boolean = 1;
  Scalars[2].dtype = TILERT_DTYPE_I32;
  Scalars[2].value.i32 = -7;
  Scalars[3].dtype = TILERT_DTYPE_F16;
  Scalars[3].value.f16 = tilert::halfFromFloat(1.0f);
  Scalars[4].dtype = TILERT_DTYPE_F64;
  Scalars[4].value.f64 = 0.125;

  KernelParams Params;
  Params.assign(M, Args, Scalars);
  REQUIRE(Params.size() == 11);
  void **P = Params.pointers();
  CHECK(read<uint64_t>(P[0]) == 0x1000);
  CHECK(read<uint64_t>(P[2]) == 0x3000);
  CHECK(read<int64_t>(P[3]) == 64);
  CHECK(read<int64_t>(P[4]) == 32);
  CHECK(read<int64_t>(P[5]) == 48);
  CHECK(read<float>(P[6]) == 2.5f);
  CHECK(read<uint8_t>(P[7]) == 1);
  CHECK(read<int32_t>(P[8]) == -7);
  CHECK(read<uint16_t>(P[9]) == 0x3c00);
  CHECK(read<double>(P[10]) == 0.125);
}

TEST_CASE("tensor maps follow the scalars, 64-byte aligned", "[params]") {
  json Document = tmaGemmMetadata();
  Document["params"].insert(
      Document["params"].begin() + 6,
      json::object({{"kind", "scalar"}, {"name", "alpha"}, {"dtype", "f32"}}));
  KernelMetadata M = parseValid(Document);
  BoundArgs Args;
  Args.Device = 0;
  Args.Addresses = {0x1000, 0x2000, 0x3000};
  Args.Dims = {64, 32, 48};
  tilertScalar Alpha = {};
  Alpha.dtype = TILERT_DTYPE_F32;
  Alpha.value.f32 = 0.5f;

  KernelParams Params;
  Params.assign(M, Args, &Alpha);
  REQUIRE(Params.size() == 9);
  void **P = Params.pointers();
  CHECK(read<uint64_t>(P[0]) == 0x1000);
  CHECK(read<int64_t>(P[5]) == 48);
  CHECK(read<float>(P[6]) == 0.5f);
  for (size_t I = 0; I < 2; ++I) {
    CHECK(P[7 + I] == &Params.tensorMap(I));
    CHECK(reinterpret_cast<uintptr_t>(P[7 + I]) % 64 == 0);
    CUtensorMap Zero{};
    CHECK(std::memcmp(P[7 + I], &Zero, sizeof(CUtensorMap)) == 0);
  }
  static_assert(sizeof(CUtensorMap) == 128, "the ABI passes 128 bytes");
  Params.tensorMap(1).opaque[15] = 0xfeed;
  CHECK(read<uint64_t>(static_cast<char *>(P[8]) + 120) == 0xfeed);
}

TEST_CASE("assigning again replaces the parameters and reuses the storage",
          "[params]") {
  KernelMetadata Gemm = parseValid(gemmLikeMetadata());
  BoundArgs Args;
  Args.Device = 0;
  Args.Addresses = {0x1000, 0x2000, 0x3000};
  Args.Dims = {64, 32, 48};
  tilertScalar Scalars[2] = {};
  Scalars[0].dtype = TILERT_DTYPE_F32;
  Scalars[0].value.f32 = 1.0f;
  Scalars[1].dtype = TILERT_DTYPE_BOOL;
  KernelParams Params;
  Params.assign(Gemm, Args, Scalars);
  REQUIRE(Params.size() == 8);
  void **First = Params.pointers();

  // A smaller kernel: fewer parameters, in the same storage.
  KernelMetadata Add = parseValid(baseMetadata());
  BoundArgs AddArgs;
  AddArgs.Addresses = {0x4000, 0x5000, 0x6000};
  AddArgs.Dims = {7};
  Params.assign(Add, AddArgs, nullptr);
  REQUIRE(Params.size() == 4);
  CHECK(Params.pointers() == First);
  CHECK(read<uint64_t>(Params.pointers()[0]) == 0x4000);
  CHECK(read<int64_t>(Params.pointers()[3]) == 7);

  // Back to the larger kernel: every pointer names its value again.
  Scalars[0].value.f32 = 3.0f;
  Params.assign(Gemm, Args, Scalars);
  REQUIRE(Params.size() == 8);
  void **P = Params.pointers();
  CHECK(read<uint64_t>(P[2]) == 0x3000);
  CHECK(read<int64_t>(P[5]) == 48);
  CHECK(read<float>(P[6]) == 3.0f);
  CHECK(read<uint8_t>(P[7]) == 0);
  for (size_t I = 0; I + 1 < Params.size(); ++I)
    CHECK(static_cast<char *>(P[I + 1]) - static_cast<char *>(P[I]) == 8);
}

TEST_CASE("a kernel with tensor maps after one without", "[params]") {
  // The same number of 8-byte parameters, but tensor maps after them: the
  // pointers must cover the maps.
  KernelMetadata Add = parseValid(baseMetadata());
  BoundArgs AddArgs;
  AddArgs.Addresses = {0x4000, 0x5000, 0x6000};
  AddArgs.Dims = {7};
  KernelParams Params;
  Params.assign(Add, AddArgs, nullptr);
  REQUIRE(Params.size() == 4);

  KernelMetadata Tma = parseValid(tmaGemmMetadata());
  BoundArgs Args;
  Args.Device = 0;
  Args.Addresses = {0x1000, 0x2000, 0x3000};
  Args.Dims = {64, 32, 48};
  Params.assign(Tma, Args, nullptr);
  REQUIRE(Params.size() == 6 + Tma.TensorMaps.size());
  Params.tensorMap(0).opaque[0] = 0xabc;
  CHECK(read<uint64_t>(Params.pointers()[6]) == 0xabc);
  CHECK(read<int64_t>(Params.pointers()[5]) == 48);

  // Assigning again zeroes the maps.
  Params.assign(Tma, Args, nullptr);
  CHECK(read<uint64_t>(Params.pointers()[6]) == 0);
}
