//===- BinaryImagesTest.cpp - Reading and verifying binaries --------------===//

#include "BinaryImages.h"

#include "TestSupport.h"

#include <catch2/catch.hpp>

#include <cstdio>

using namespace tilert::detail;
using namespace tilert::test;

namespace {

KernelMetadata loadFrom(const TempDir &dir) {
  KernelMetadata M;
  std::string Path = dir.writeKernel(baseMetadata());
  Status S = loadMetadata(Path, M);
  INFO(S.message());
  REQUIRE(S.ok());
  return M;
}

} // namespace

TEST_CASE("binaries are read next to the JSON", "[binaries]") {
  TempDir Dir;
  KernelMetadata M = loadFrom(Dir);
  std::vector<BinaryImage> Images;
  Status S = loadBinaryImages(M, Images);
  INFO(S.message());
  REQUIRE(S.ok());
  REQUIRE(Images.size() == 2);
  CHECK(Images[0].Kind == BinaryKind::Cubin);
  CHECK(Images[0].Bytes == CubinBytes);
  CHECK(Images[0].Path == Dir.path() + "/k.sm_90a.cubin");
  CHECK(Images[1].Bytes == PtxBytes);
  CHECK(std::string(Images[1].Bytes.c_str()) == PtxBytes);
}

TEST_CASE("a missing binary is an IO error naming the file", "[binaries]") {
  TempDir Dir;
  KernelMetadata M = loadFrom(Dir);
  REQUIRE(std::remove((Dir.path() + "/k.sm_90a.cubin").c_str()) == 0);
  std::vector<BinaryImage> Images;
  Status S = loadBinaryImages(M, Images);
  CHECK(S.code() == TILERT_ERROR_IO);
  CHECK_THAT(S.message(), Catch::Contains("binaries[0] (cubin)") &&
                              Catch::Contains("k.sm_90a.cubin") &&
                              Catch::Contains("No such file or directory"));
}

TEST_CASE("a binary whose sha256 differs is a checksum error", "[binaries]") {
  TempDir Dir;
  KernelMetadata M = loadFrom(Dir);
  Dir.write("k.sm_90a.ptx", PtxBytes + " ");
  std::vector<BinaryImage> Images;
  Status S = loadBinaryImages(M, Images);
  CHECK(S.code() == TILERT_ERROR_CHECKSUM);
  CHECK_THAT(S.message(), Catch::Contains("binaries[1]") &&
                              Catch::Contains("k.sm_90a.ptx") &&
                              Catch::Contains(M.Binaries[1].Sha256));
  CHECK(Images.empty());
}
