//===- LaunchGridTest.cpp - Grid extents from dims ------------------------===//

#include "LaunchGrid.h"

#include "TestSupport.h"

#include <catch2/catch.hpp>

using namespace tilert::detail;
using namespace tilert::test;
using nlohmann::json;

namespace {

KernelMetadata withGrid(json grid, json cluster = {1, 1, 1}) {
  json Document = gemmLikeMetadata();
  Document["launch"]["grid"] = std::move(grid);
  Document["launch"]["cluster"] = std::move(cluster);
  return parseValid(Document);
}

std::string gridError(const KernelMetadata &metadata,
                      std::vector<int64_t> dims) {
  LaunchGrid Grid;
  Status S = computeGrid(metadata, dims, Grid);
  REQUIRE_FALSE(S.ok());
  CHECK(S.code() == TILERT_ERROR_INVALID_ARGUMENT);
  return S.message();
}

} // namespace

TEST_CASE("grid extents come from the dims", "[grid]") {
  KernelMetadata M = parseValid(baseMetadata());
  LaunchGrid Grid;
  REQUIRE(computeGrid(M, {1000}, Grid).ok());
  CHECK(Grid.Extent == std::array<uint32_t, 3>{1, 1, 1});
  CHECK_FALSE(Grid.empty());
  REQUIRE(computeGrid(M, {int64_t(1) << 28}, Grid).ok());
  CHECK(Grid.Extent[0] == 262144);
  REQUIRE(computeGrid(M, {(int64_t(1) << 20) + 3}, Grid).ok());
  CHECK(Grid.Extent[0] == 1025);
  KernelMetadata G = parseValid(gemmLikeMetadata());
  REQUIRE(computeGrid(G, {300, 64, 1000}, Grid).ok());
  CHECK(Grid.Extent == std::array<uint32_t, 3>{8, 3, 1});
}

TEST_CASE("a zero extent means an empty grid", "[grid]") {
  KernelMetadata M = parseValid(baseMetadata());
  LaunchGrid Grid;
  REQUIRE(computeGrid(M, {0}, Grid).ok());
  CHECK(Grid.empty());
}

TEST_CASE("extents outside CUDA's limits are errors", "[grid]") {
  KernelMetadata M = parseValid(baseMetadata());
  CHECK_THAT(gridError(M, {int64_t(1) << 42}),
             Catch::Contains("vector_add: grid x = 'ceildiv(N, 1024)' with "
                             "N=4398046511104 is 4294967296, above CUDA's "
                             "limit of 2147483647: the dims are too large"));
  LaunchGrid Grid;
  REQUIRE(computeGrid(M, {MaxGridX * 1024}, Grid).ok());
  CHECK(Grid.Extent[0] == MaxGridX);
  KernelMetadata Y = withGrid({"1", "M", "1"});
  REQUIRE(computeGrid(Y, {65535, 1, 1}, Grid).ok());
  CHECK_THAT(gridError(Y, {65536, 1, 1}),
             Catch::Contains("grid y = 'M' with M=65536 is 65536, above "
                             "CUDA's limit of 65535"));
  KernelMetadata Negative = withGrid({"N - 5", "1", "1"});
  CHECK_THAT(gridError(Negative, {1, 1, 2}),
             Catch::Contains("grid x = 'N - 5' with N=2 is -3; a grid extent "
                             "cannot be negative"));
}

TEST_CASE("evaluation errors name the expression and dims", "[grid]") {
  KernelMetadata M = withGrid({"1", "1", "M / K"});
  CHECK_THAT(gridError(M, {10, 0, 5}),
             Catch::Contains("gemm: grid z = 'M / K' with M=10, K=0: division "
                             "by zero"));
  KernelMetadata Big = withGrid({"M * N * K", "1", "1"});
  CHECK_THAT(gridError(Big, {int64_t(1) << 31, int64_t(1) << 31, 8}),
             Catch::Contains("integer overflow"));
}

TEST_CASE("the grid must be a multiple of the cluster", "[grid]") {
  KernelMetadata M = withGrid({"M", "N", "1"}, {2, 1, 1});
  LaunchGrid Grid;
  REQUIRE(computeGrid(M, {4, 1, 3}, Grid).ok());
  CHECK_THAT(gridError(M, {5, 1, 3}),
             Catch::Contains("grid x = 5 is not a multiple of the cluster's "
                             "x = 2"));
  REQUIRE(computeGrid(M, {0, 1, 3}, Grid).ok());
  CHECK(Grid.empty());

  // A persistent kernel's grid is its tiles': the runtime launches whole
  // clusters of blocks for them.
  M.Launch.Persistent = true;
  REQUIRE(computeGrid(M, {5, 1, 3}, Grid).ok());
  CHECK(Grid.Extent[0] == 5);
}
