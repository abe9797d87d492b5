//===- TensorMapTest.cpp - TMA tensor map arguments -----------------------===//

#include "TensorMap.h"

#include "TestSupport.h"

#include <catch2/catch.hpp>

#include <limits>

using namespace tilert::detail;
using namespace tilert::test;
using nlohmann::json;

namespace {

/// Arguments of tmaGemmMetadata() for A: f16[M, K], B: f16[K, N] at
/// 0x10000 and 0x20000 (C: f32[M, N] at 0x30000).
BoundArgs gemmArgs(int64_t m, int64_t k, int64_t n) {
  BoundArgs Args;
  Args.Device = 0;
  Args.Addresses = {0x10000, 0x20000, 0x30000};
  Args.Dims = {m, k, n};
  return Args;
}

/// Runs makeTensorMapArgs on map `mapIndex` of `metadata`, expects a
/// TILERT_ERROR_INVALID_ARGUMENT and returns its message.
std::string argsError(const KernelMetadata &metadata, size_t mapIndex,
                      uint64_t address, std::vector<int64_t> shape,
                      std::vector<int64_t> strides) {
  TensorMapArgs Ignored;
  Status S = makeTensorMapArgs(metadata, mapIndex, address, shape.data(),
                               strides.data(), Ignored);
  REQUIRE_FALSE(S.ok());
  CHECK(S.code() == TILERT_ERROR_INVALID_ARGUMENT);
  return S.message();
}

/// Runs makeTensorMapArgs, requires success and returns the arguments.
TensorMapArgs validArgs(const KernelMetadata &metadata, size_t mapIndex,
                        uint64_t address, std::vector<int64_t> shape,
                        std::vector<int64_t> strides) {
  TensorMapArgs Args;
  Status S = makeTensorMapArgs(metadata, mapIndex, address, shape.data(),
                               strides.data(), Args);
  INFO(S.message());
  REQUIRE(S.ok());
  return Args;
}

using Dims = std::array<cuuint64_t, MaxTensorMapRank>;
using Strides = std::array<cuuint64_t, MaxTensorMapRank - 1>;
using Boxes = std::array<cuuint32_t, MaxTensorMapRank>;

} // namespace

TEST_CASE("tensor map arguments are reversed to innermost first",
          "[tensormap]") {
  KernelMetadata M = parseValid(tmaGemmMetadata());
  std::vector<TensorMapArgs> Maps;
  Status S = prepareTensorMaps(M, gemmArgs(300, 520, 200), Maps);
  INFO(S.message());
  REQUIRE(S.ok());
  REQUIRE(Maps.size() == 2);

  const TensorMapArgs &A = Maps[0];
  CHECK(A.DataType == CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  CHECK(A.Rank == 2);
  CHECK(A.Address == 0x10000);
  CHECK(A.GlobalDim == Dims{520, 300, 0, 0, 0});
  CHECK(A.GlobalStrides == Strides{1040, 0, 0, 0});
  CHECK(A.BoxDim == Boxes{64, 128, 0, 0, 0});
  CHECK(A.ElementStrides == Boxes{1, 1, 0, 0, 0});
  CHECK(A.Interleave == CU_TENSOR_MAP_INTERLEAVE_NONE);
  CHECK(A.Swizzle == CU_TENSOR_MAP_SWIZZLE_128B);
  CHECK(A.L2Promotion == CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
  CHECK(A.OobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);

  const TensorMapArgs &B = Maps[1];
  CHECK(B.Address == 0x20000);
  CHECK(B.GlobalDim == Dims{200, 520, 0, 0, 0});
  CHECK(B.GlobalStrides == Strides{400, 0, 0, 0});
  CHECK(B.BoxDim == Boxes{64, 64, 0, 0, 0});
  CHECK(B.L2Promotion == CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  CHECK(B.OobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
}

TEST_CASE("rank-1 and rank-5 tensor maps", "[tensormap]") {
  json Document = baseMetadata();
  Document["params"][0]["shape"] = {2, 3, 4, 5, "N"};
  Document["params"].push_back(
      tensorMapParam("A5", "A", {1, 2, 3, 4, 8}, 32, 64, "zero"));
  Document["params"].push_back(tensorMapParam("B1", "B", {4}, 0, 0, "zero"));
  KernelMetadata M = parseValid(Document);
  BoundArgs Args;
  Args.Device = 0;
  Args.Addresses = {0x1000, 0x2000, 0x3000};
  Args.Dims = {8};
  std::vector<TensorMapArgs> Maps;
  REQUIRE(prepareTensorMaps(M, Args, Maps).ok());
  REQUIRE(Maps.size() == 2);
  CHECK(Maps[0].DataType == CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  CHECK(Maps[0].Rank == 5);
  CHECK(Maps[0].GlobalDim == Dims{8, 5, 4, 3, 2});
  // Element strides 480, 160, 40, 8 (outermost first) of 4 bytes.
  CHECK(Maps[0].GlobalStrides == Strides{32, 160, 640, 1920});
  CHECK(Maps[0].BoxDim == Boxes{8, 4, 3, 2, 1});
  CHECK(Maps[0].ElementStrides == Boxes{1, 1, 1, 1, 1});
  CHECK(Maps[0].Swizzle == CU_TENSOR_MAP_SWIZZLE_32B);
  CHECK(Maps[0].L2Promotion == CU_TENSOR_MAP_L2_PROMOTION_L2_64B);
  CHECK(Maps[1].Rank == 1);
  CHECK(Maps[1].Address == 0x2000);
  CHECK(Maps[1].GlobalDim == Dims{8, 0, 0, 0, 0});
  CHECK(Maps[1].GlobalStrides == Strides{0, 0, 0, 0});
  CHECK(Maps[1].BoxDim == Boxes{4, 0, 0, 0, 0});
  CHECK(Maps[1].Swizzle == CU_TENSOR_MAP_SWIZZLE_NONE);
  CHECK(Maps[1].L2Promotion == CU_TENSOR_MAP_L2_PROMOTION_NONE);

  CHECK(prepareTensorMaps(parseValid(baseMetadata()), Args, Maps).ok());
  CHECK(Maps.empty());
}

TEST_CASE("tensors that break TMA's rules are named", "[tensormap]") {
  KernelMetadata M = parseValid(tmaGemmMetadata());
  std::vector<TensorMapArgs> Maps;
  Status S = prepareTensorMaps(M, gemmArgs(300, 1001, 200), Maps);
  CHECK(S.code() == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK(S.message() ==
        "gemm_tma: tensor 'A' (index 0): the stride of dimension 0 is 2002 "
        "bytes, not a multiple of 16 as TMA requires (tensor map 'A_map')");
  S = prepareTensorMaps(M, gemmArgs(300, 520, 100), Maps);
  CHECK_THAT(S.message(),
             Catch::Contains("tensor 'B' (index 1): the stride of dimension 0 "
                             "is 200 bytes, not a multiple of 16") &&
                 Catch::EndsWith("(tensor map 'B_map')"));
  S = prepareTensorMaps(M, gemmArgs(0, 520, 200), Maps);
  CHECK(S.message() ==
        "gemm_tma: tensor 'A' (index 0): dimension 0 has extent 0, not in "
        "[1, 2^32] as TMA requires (tensor map 'A_map')");
  BoundArgs Misaligned = gemmArgs(300, 520, 200);
  Misaligned.Addresses[1] = 0x20008;
  S = prepareTensorMaps(M, Misaligned, Maps);
  CHECK(S.message() ==
        "gemm_tma: tensor 'B' (index 1): the address 0x20008 is not aligned "
        "to 16 bytes as TMA requires (tensor map 'B_map')");

  const int64_t Big = int64_t(1) << 32;
  CHECK_THAT(argsError(M, 0, 0x10000, {Big + 1, 8}, {8, 1}),
             Catch::Contains("dimension 0 has extent 4294967297, not in "
                             "[1, 2^32]"));
  CHECK_THAT(argsError(M, 0, 0x10000, {8, -1}, {8, 1}),
             Catch::Contains("dimension 1 has extent -1"));
  CHECK_THAT(argsError(M, 0, 0x10000, {8, 64}, {128, 2}),
             Catch::Contains("the innermost dimension (1) has stride 2 "
                             "elements, not 1 (contiguous) as TMA requires"));
  CHECK_THAT(argsError(M, 0, 0x10000, {8, 64}, {0, 1}),
             Catch::Contains("the stride of dimension 0 is 0 elements, not "
                             "positive"));
  CHECK_THAT(argsError(M, 0, 0x10000, {8, 64}, {-64, 1}),
             Catch::Contains("the stride of dimension 0 is -64 elements"));
  CHECK_THAT(argsError(M, 0, 0x10000, {8, 64}, {int64_t(1) << 39, 1}),
             Catch::Contains("the stride of dimension 0 is 549755813888 "
                             "elements of 2 bytes, not below 2^40 bytes"));
  CHECK_THAT(argsError(M, 0, 0x10000, {8, 64},
                       {std::numeric_limits<int64_t>::max(), 1}),
             Catch::Contains("not below 2^40 bytes"));
  CHECK_THAT(argsError(M, 0, 0x10000, {8, 64}, {100, 1}),
             Catch::Contains("the stride of dimension 0 is 200 bytes"));

  // The largest extent and stride TMA accepts.
  TensorMapArgs Edge =
      validArgs(M, 0, 0x10000, {Big, 64}, {(int64_t(1) << 39) - 8, 1});
  CHECK(Edge.GlobalDim[1] == cuuint64_t(Big));
  CHECK(Edge.GlobalStrides[0] == (cuuint64_t(1) << 40) - 16);
}

TEST_CASE("extent-1 dimensions get a stride TMA accepts", "[tensormap]") {
  KernelMetadata M = parseValid(tmaGemmMetadata());
  // A: f16[1, 7]: row stride 14 bytes, padded (only row 0 exists).
  std::vector<TensorMapArgs> Maps;
  Status S = prepareTensorMaps(M, gemmArgs(1, 7, 8), Maps);
  INFO(S.message());
  REQUIRE(S.ok());
  CHECK(Maps[0].GlobalDim == Dims{7, 1, 0, 0, 0});
  CHECK(Maps[0].GlobalStrides == Strides{16, 0, 0, 0});
  // The stride of an extent-1 innermost dimension is ignored.
  TensorMapArgs Column = validArgs(M, 0, 0x10000, {8, 1}, {8, 5});
  CHECK(Column.GlobalStrides == Strides{16, 0, 0, 0});
  // B: f16[7, 8] has a real 16-byte row stride; f16[8, 1] cannot be mapped.
  CHECK_THAT(argsError(M, 0, 0x10000, {8, 1}, {1, 1}),
             Catch::Contains("the stride of dimension 0 is 2 bytes"));
}

TEST_CASE("tensor map element types follow the dtype", "[tensormap]") {
  CHECK(tensorMapDataType(TILERT_DTYPE_F16) == CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  CHECK(tensorMapDataType(TILERT_DTYPE_BF16) ==
        CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  CHECK(tensorMapDataType(TILERT_DTYPE_F32) == CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  CHECK(tensorMapDataType(TILERT_DTYPE_F64) == CU_TENSOR_MAP_DATA_TYPE_FLOAT64);
  CHECK(tensorMapDataType(TILERT_DTYPE_I8) == CU_TENSOR_MAP_DATA_TYPE_UINT8);
  CHECK(tensorMapDataType(TILERT_DTYPE_U8) == CU_TENSOR_MAP_DATA_TYPE_UINT8);
  CHECK(tensorMapDataType(TILERT_DTYPE_BOOL) == CU_TENSOR_MAP_DATA_TYPE_UINT8);
  CHECK(tensorMapDataType(TILERT_DTYPE_I16) == CU_TENSOR_MAP_DATA_TYPE_UINT16);
  CHECK(tensorMapDataType(TILERT_DTYPE_I32) == CU_TENSOR_MAP_DATA_TYPE_INT32);
  CHECK(tensorMapDataType(TILERT_DTYPE_U32) == CU_TENSOR_MAP_DATA_TYPE_UINT32);
  CHECK(tensorMapDataType(TILERT_DTYPE_I64) == CU_TENSOR_MAP_DATA_TYPE_INT64);
}

TEST_CASE("tensor map arguments compare member by member", "[tensormap]") {
  KernelMetadata M = parseValid(tmaGemmMetadata());
  TensorMapArgs A = validArgs(M, 0, 0x10000, {300, 520}, {520, 1});
  CHECK(A == validArgs(M, 0, 0x10000, {300, 520}, {520, 1}));
  CHECK(A != validArgs(M, 0, 0x10100, {300, 520}, {520, 1}));
  CHECK(A != validArgs(M, 0, 0x10000, {301, 520}, {520, 1}));
  CHECK(A != validArgs(M, 0, 0x10000, {300, 520}, {528, 1}));
  // Same tensor, other box, swizzle and promotion.
  CHECK(A != validArgs(M, 1, 0x10000, {300, 520}, {520, 1}));
  TensorMapArgs Fill = A;
  Fill.OobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
  CHECK(A != Fill);
}

TEST_CASE("optional tensor maps of tensors that break TMA's rules are "
          "skipped, not errors",
          "[tensormap]") {
  json Document = tmaGemmMetadata();
  Document["schema"] = "tilec.kernel/1.2";
  Document["params"][6]["optional"] = true;
  KernelMetadata M = parseValid(Document);
  REQUIRE(M.TensorMaps[0].Optional);
  REQUIRE_FALSE(M.TensorMaps[1].Optional);

  // K = 517: A's rows (1034 bytes) are not a multiple of 16; B's rows
  // (N = 200: 400 bytes) are.
  std::vector<TensorMapArgs> Maps;
  Status S = prepareTensorMaps(M, gemmArgs(300, 517, 200), Maps);
  INFO(S.message());
  REQUIRE(S.ok());
  REQUIRE(Maps.size() == 2);
  CHECK(Maps[0].Skipped);
  CHECK_FALSE(Maps[1].Skipped);
  CHECK(Maps[1].GlobalStrides == Strides{400, 0, 0, 0});
  // A skipped map differs from any encoded one (the cache never confuses
  // them).
  CHECK_FALSE(Maps[0] == Maps[1]);

  // The same break in the required map B (N = 201) is still an error.
  S = prepareTensorMaps(M, gemmArgs(300, 512, 201), Maps);
  REQUIRE_FALSE(S.ok());
  CHECK(S.code() == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(S.message(), Catch::Contains("tensor map 'B_map'"));

  // A valid tensor is encoded even when its map is optional.
  S = prepareTensorMaps(M, gemmArgs(300, 512, 200), Maps);
  REQUIRE(S.ok());
  CHECK_FALSE(Maps[0].Skipped);
  CHECK(Maps[0].GlobalStrides == Strides{1024, 0, 0, 0});
}

TEST_CASE("a tensor map's optional flag must be a boolean", "[tensormap]") {
  json Document = tmaGemmMetadata();
  Document["params"][6]["optional"] = "yes";
  KernelMetadata M;
  Status S = parse(Document, M);
  REQUIRE_FALSE(S.ok());
  CHECK(S.code() == TILERT_ERROR_METADATA);
  CHECK_THAT(S.message(), Catch::Contains("params[6].optional"));
  CHECK_THAT(S.message(), Catch::Contains("expected a boolean"));
}
