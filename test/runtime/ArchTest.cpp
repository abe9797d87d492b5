//===- ArchTest.cpp - Architecture parsing and compatibility rules --------===//

#include "Arch.h"

#include <catch2/catch.hpp>

using namespace tilert::detail;

namespace {

Arch arch(const char *name) {
  Arch Result;
  INFO(name);
  REQUIRE(parseArch(name, Result));
  return Result;
}

} // namespace

TEST_CASE("architectures parse", "[arch]") {
  Arch A = arch("sm_90a");
  CHECK(A.Name == "sm_90a");
  CHECK(A.Major == 9);
  CHECK(A.Minor == 0);
  CHECK(A.Specific);
  A = arch("sm_86");
  CHECK((A.Major == 8 && A.Minor == 6 && !A.Specific));
  A = arch("sm_100a");
  CHECK((A.Major == 10 && A.Minor == 0 && A.Specific));
  A = arch("sm_120");
  CHECK((A.Major == 12 && A.Minor == 0 && !A.Specific));
  for (const char *Bad : {"", "sm_", "sm_9", "sm_1000", "compute_80", "sm_90b",
                          "SM_80", "sm_08", "sm_8x", "sm_90aa", "sm_a"}) {
    Arch Ignored;
    INFO(Bad);
    CHECK_FALSE(parseArch(Bad, Ignored));
  }
}

TEST_CASE("SASS runs on the same major with an equal or newer minor",
          "[arch]") {
  CHECK(sassRunsOn(arch("sm_80"), 8, 0));
  CHECK(sassRunsOn(arch("sm_80"), 8, 6));
  CHECK(sassRunsOn(arch("sm_80"), 8, 9));
  CHECK_FALSE(sassRunsOn(arch("sm_80"), 9, 0));
  CHECK_FALSE(sassRunsOn(arch("sm_80"), 7, 5));
  CHECK_FALSE(sassRunsOn(arch("sm_86"), 8, 0));
  CHECK(sassRunsOn(arch("sm_86"), 8, 9));
  CHECK(sassRunsOn(arch("sm_90"), 9, 0));
  CHECK_FALSE(sassRunsOn(arch("sm_90"), 10, 0));
}

TEST_CASE("sm_XYa SASS runs only on exactly X.Y", "[arch]") {
  CHECK(sassRunsOn(arch("sm_90a"), 9, 0));
  CHECK_FALSE(sassRunsOn(arch("sm_90a"), 9, 1));
  CHECK_FALSE(sassRunsOn(arch("sm_90a"), 10, 0));
  CHECK_FALSE(sassRunsOn(arch("sm_90a"), 8, 9));
}

TEST_CASE("PTX JIT-compiles for the same or a newer device", "[arch]") {
  CHECK(ptxRunsOn(arch("sm_80"), 8, 0));
  CHECK(ptxRunsOn(arch("sm_80"), 9, 0));
  CHECK(ptxRunsOn(arch("sm_80"), 12, 0));
  CHECK_FALSE(ptxRunsOn(arch("sm_80"), 7, 5));
  CHECK_FALSE(ptxRunsOn(arch("sm_86"), 8, 0));
  CHECK(ptxRunsOn(arch("sm_90a"), 9, 0));
  CHECK_FALSE(ptxRunsOn(arch("sm_90a"), 10, 0));
  CHECK_FALSE(ptxRunsOn(arch("sm_90a"), 8, 0));
}

TEST_CASE("binary selection prefers cubin, then fatbin, then PTX", "[arch]") {
  using K = BinaryKind;
  std::vector<size_t> Order;
  REQUIRE(selectBinaries(arch("sm_90a"), {K::Ptx, K::Cubin}, 9, 0, "dev", Order)
              .ok());
  CHECK(Order == std::vector<size_t>{1, 0});
  REQUIRE(selectBinaries(arch("sm_80"), {K::Cubin, K::Ptx}, 9, 0, "dev", Order)
              .ok());
  CHECK(Order == std::vector<size_t>{1});
  REQUIRE(selectBinaries(arch("sm_80"), {K::Ptx, K::Fatbin, K::Cubin}, 8, 6,
                         "dev", Order)
              .ok());
  CHECK(Order == std::vector<size_t>{2, 1, 0});
  REQUIRE(selectBinaries(arch("sm_90a"), {K::Fatbin}, 8, 0, "dev", Order).ok());
  CHECK(Order == std::vector<size_t>{0});
}

TEST_CASE("no compatible binary is an arch mismatch naming the rule",
          "[arch]") {
  using K = BinaryKind;
  std::vector<size_t> Order;
  Status S = selectBinaries(arch("sm_90a"), {K::Cubin, K::Ptx}, 8, 0,
                            "CUDA device 0 (A100)", Order);
  CHECK(S.code() == TILERT_ERROR_ARCH_MISMATCH);
  CHECK_THAT(S.message(),
             Catch::Contains("CUDA device 0 (A100)") &&
                 Catch::Contains("compute capability 8.0") &&
                 Catch::Contains("sm_90a SASS runs only on compute capability "
                                 "9.0") &&
                 Catch::Contains("sm_90a PTX can be JIT-compiled only for"));
  S = selectBinaries(arch("sm_80"), {K::Cubin}, 9, 0, "dev", Order);
  CHECK(S.code() == TILERT_ERROR_ARCH_MISMATCH);
  CHECK_THAT(S.message(), Catch::Contains("8.0 to 8.9") &&
                              Catch::Contains("no PTX is shipped"));
  S = selectBinaries(arch("sm_90"), {K::Ptx}, 8, 6, "dev", Order);
  CHECK(S.code() == TILERT_ERROR_ARCH_MISMATCH);
  CHECK_THAT(S.message(), Catch::Contains("needs compute capability 9.0 or "
                                          "newer"));
}
