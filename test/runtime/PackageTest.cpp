//===- PackageTest.cpp - Opening kernel packages without a GPU ------------===//
//
// tilertPackageOpen on packages the tests write: what it reads of
// index.json, every variant's metadata and tuning.json, and each check of
// them. Selection and launches need a driver: fake-cuda/PackageDispatchTest.
//
//===----------------------------------------------------------------------===//

#include "tilert/tilert.hpp"

#include "PackageIndex.h"
#include "Sha256.h"
#include "TestSupport.h"

#include <catch2/catch.hpp>

#include <functional>

using namespace tilert::test;
using nlohmann::json;

namespace {

/// A package of gemmLikeMetadata() variants: "gemm" and "gemm-block_N_256"
/// for sm_90a, "gemm" for sm_80 (default "gemm").
struct TestPackage {
  TempDir Dir;
  json Index;

  TestPackage() {
    json Wide = gemmLikeMetadata();
    Wide["launch"]["grid"] = {"ceildiv(N, 256)", "ceildiv(M, 128)", "1"};
    Dir.writeVariant("gemm", "sm_90a", gemmLikeMetadata());
    Dir.writeVariant("gemm-block_N_256", "sm_90a", Wide);
    Dir.writeVariant("gemm", "sm_80", gemmLikeMetadata());
    Index = packageIndex("gemm",
                         {packageVariant("gemm", "sm_90a"),
                          packageVariant("gemm-block_N_256", "sm_90a"),
                          packageVariant("gemm", "sm_80")},
                         "gemm");
  }

  /// Writes index.json (and tuning.json unless `tuning` is null).
  void write(const json &tuning = nullptr) const {
    Dir.write("index.json", Index.dump(2));
    if (!tuning.is_null())
      Dir.write("tuning.json", tuning.dump(2));
  }

  /// Writes the package and expects opening it to fail with `status` and
  /// each of `texts` in the message.
  void expectError(tilertStatus status, std::vector<std::string> texts,
                   const json &tuning = nullptr) const {
    write(tuning);
    try {
      tilert::Package Package(Dir.path());
      FAIL("the package opened");
    } catch (const tilert::Error &E) {
      CHECK(E.status() == status);
      for (const std::string &Text : texts)
        CHECK_THAT(E.message(), Catch::Contains(Text));
    }
  }

  /// The sha256 of the index.json write() writes.
  std::string indexSha256() const {
    return tilert::detail::sha256Hex(Index.dump(2));
  }
};

/// A valid tuning database for TestPackage.
json tuningDatabase() {
  return {{"schema", "tilec.tuning/1"},
          {"kernel", "gemm"},
          {"devices",
           {{{"device", "Fake CUDA device"},
             {"arch", "sm_90"},
             {"warmup", 10},
             {"reps", 50},
             {"shapes",
              {{{"dims", {{"M", 4096}, {"N", 4096}, {"K", 4096}}},
                {"best",
                 {{"variant", "gemm-block_N_256"},
                  {"arch", "sm_90a"},
                  {"median_ms", 0.196}}},
                {"runner_up", nullptr},
                {"default", nullptr},
                {"candidates", 2},
                {"measured", 2},
                {"excluded", json::array()}}}}}}}};
}

} // namespace

TEST_CASE("a package opens and describes itself", "[package]") {
  TestPackage Test;
  Test.write();
  tilert::Package Package(Test.Dir.path());
  tilertPackageInfo Info = Package.info();
  CHECK(std::string(Info.kernel) == "gemm");
  CHECK(std::string(Info.directory) == Test.Dir.path());
  CHECK(Package.defaultVariant() == "gemm");
  CHECK(Info.num_variants == 3);
  CHECK_FALSE(Package.tuned());
  CHECK(Info.num_tuned_shapes == 0);
  CHECK(Package.dims() == std::vector<std::string>{"M", "K", "N"});
  std::vector<tilert::TensorParam> Tensors = Package.tensors();
  REQUIRE(Tensors.size() == 3);
  CHECK(Tensors[2].name == "C");
  CHECK(Tensors[2].shape[1].value == 128);
  CHECK(Package.scalars()[1].name == "flag");

  tilert::Package Moved = std::move(Package);
  CHECK(Moved.kernelName() == "gemm");
  CHECK(Package.handle() == nullptr);

  CHECK(tilertPackageOpen(nullptr, nullptr) == TILERT_ERROR_INVALID_ARGUMENT);
  tilertPackage Raw = nullptr;
  CHECK(tilertPackageOpen(nullptr, &Raw) == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(tilertGetLastErrorMessage(),
             Catch::Contains("the package directory is NULL"));
  CHECK(tilertPackageGetInfo(nullptr, &Info) == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(tilertGetLastErrorMessage(),
             Catch::Contains("the package handle is NULL"));
  const char *Name = nullptr;
  CHECK(tilertPackageGetDimName(Moved.handle(), 3, &Name) ==
        TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(tilertGetLastErrorMessage(),
             Catch::Contains("dim index 3 is out of range [0, 3)"));
  CHECK(tilertPackageDestroy(nullptr) == TILERT_SUCCESS);
}

TEST_CASE("the signature's alignment is the smallest of the variants'",
          "[package]") {
  TestPackage Test;
  json Loose = gemmLikeMetadata();
  Loose["params"][0]["alignment"] = 4;
  Test.Dir.writeVariant("gemm-block_N_256", "sm_90a", Loose);
  Test.write();
  tilert::Package Package(Test.Dir.path());
  CHECK(Package.tensors()[0].alignment == 4);
  CHECK(Package.tensors()[1].alignment == 16);
}

TEST_CASE("index.json errors name the file and the field", "[package]") {
  TestPackage Test;
  std::string Index = Test.Dir.path() + "/index.json";
  SECTION("no index") {
    try {
      tilert::Package Package(Test.Dir.path());
      FAIL("the package opened");
    } catch (const tilert::Error &E) {
      CHECK(E.status() == TILERT_ERROR_IO);
      CHECK_THAT(E.message(), Catch::Contains(Index));
    }
  }
  SECTION("corrupt JSON") {
    Test.Dir.write("index.json", "{\"schema\": ");
    try {
      tilert::Package Package(Test.Dir.path());
      FAIL("the package opened");
    } catch (const tilert::Error &E) {
      CHECK(E.status() == TILERT_ERROR_METADATA);
      CHECK_THAT(E.message(), Catch::Contains(Index + ": truncated JSON"));
    }
  }
  struct Case {
    const char *Name;
    std::function<void(json &)> Edit;
    std::vector<std::string> Texts;
  };
  const Case Cases[] = {
      {"not an object",
       [](json &I) { I = json::array(); },
       {"the top level must be a JSON object, found an array"}},
      {"another schema",
       [](json &I) { I["schema"] = "tilec.kernel/1"; },
       {"field 'schema'", "is not a tilec package schema", "tilec.package/1"}},
      {"another major",
       [](json &I) { I["schema"] = "tilec.package/2.0"; },
       {"unsupported schema major version 2"}},
      {"no kernel",
       [](json &I) { I.erase("kernel"); },
       {"missing required field 'kernel'"}},
      {"no variants",
       [](json &I) { I["variants"] = json::array(); },
       {"field 'variants': the package has no variant"}},
      {"a variant without a name",
       [](json &I) { I["variants"][1].erase("name"); },
       {"missing required field 'variants[1].name'"}},
      {"a bad arch",
       [](json &I) { I["variants"][2]["arch"] = "sm80"; },
       {"field 'variants[2].arch': 'sm80' is not a target architecture"}},
      {"a repeated variant",
       [](json &I) { I["variants"][2]["arch"] = "sm_90a"; },
       {"field 'variants[2]': a second variant 'gemm' for sm_90a"}},
      {"no files",
       [](json &I) { I["variants"][0].erase("files"); },
       {"missing required field 'variants[0].files'"}},
      {"no cubin",
       [](json &I) { I["variants"][0]["files"].erase("cubin"); },
       {"missing required field 'variants[0].files.cubin'"}},
      {"an absolute path",
       [](json &I) { I["variants"][0]["files"]["metadata"] = "/k.json"; },
       {"field 'variants[0].files.metadata': '/k.json' must be relative"}},
      {"an unknown default",
       [](json &I) { I["default"] = "fast"; },
       {"field 'default': 'fast' is not the name of any variant"}},
      {"shapes not an array",
       [](json &I) { I["shapes"] = json::object(); },
       {"field 'shapes'", "array"}},
      {"a shape that is not an object",
       [](json &I) { I["shapes"] = {4096}; },
       {"field 'shapes[0]': expected an object of dim values, found an "
        "integer"}},
      {"an empty shape",
       [](json &I) { I["shapes"] = {json::object()}; },
       {"field 'shapes[0]': expected an object of dim values, found an "
        "empty object"}},
      {"a dim value below 1",
       [](json &I) {
         I["shapes"] = {{{"M", 16}, {"N", 0}}};
       },
       {"field 'shapes[0].N'"}},
      {"a dim value that is not an integer",
       [](json &I) {
         I["shapes"] = {{{"M", 1.5}}};
       },
       {"field 'shapes[0].M'"}},
  };
  for (const Case &Each : Cases) {
    DYNAMIC_SECTION(Each.Name) {
      Each.Edit(Test.Index);
      std::vector<std::string> Texts = Each.Texts;
      Texts.push_back(Index + ": ");
      Test.expectError(TILERT_ERROR_METADATA, Texts);
    }
  }
}

TEST_CASE("index.json's shapes are optional, and read when present",
          "[package]") {
  TestPackage Test;
  tilert::detail::PackageIndex Index;
  Test.Index["shapes"] = {{{"M", 16}, {"N", 8192}, {"K", 8192}},
                          {{"M", 4096}, {"N", 4096}, {"K", 512}}};
  REQUIRE(
      tilert::detail::parsePackageIndex(Test.Index.dump(), "index.json", Index)
          .ok());
  REQUIRE(Index.Shapes.size() == 2);
  CHECK(Index.Shapes[1] ==
        tilert::detail::PackageShape{{"K", 512}, {"M", 4096}, {"N", 4096}});
  Test.Index.erase("shapes");
  tilert::detail::PackageIndex Unshaped;
  REQUIRE(tilert::detail::parsePackageIndex(Test.Index.dump(), "index.json",
                                            Unshaped)
              .ok());
  CHECK(Unshaped.Shapes.empty());
}

TEST_CASE("a variant's metadata must be the variant the index names",
          "[package]") {
  TestPackage Test;
  std::string Variant = "variant 'gemm-block_N_256' (sm_90a): ";
  SECTION("missing") {
    Test.Index["variants"][1]["files"]["metadata"] = "missing.json";
    Test.expectError(TILERT_ERROR_IO, {Variant, "missing.json"});
  }
  SECTION("corrupt") {
    Test.Dir.write("gemm-block_N_256.sm_90a.json", "{");
    Test.expectError(TILERT_ERROR_METADATA,
                     {Variant, "gemm-block_N_256.sm_90a.json: truncated"});
  }
  SECTION("another kernel") {
    json Other = gemmLikeMetadata();
    Other["name"] = "gemv";
    Test.Dir.writeVariant("gemm-block_N_256", "sm_90a", Other);
    Test.expectError(TILERT_ERROR_METADATA,
                     {Variant, "is of kernel 'gemv', not the package's "
                               "kernel 'gemm'"});
  }
  SECTION("another arch") {
    Test.Index["variants"][1]["files"]["metadata"] = "gemm.sm_80.json";
    Test.expectError(TILERT_ERROR_METADATA,
                     {Variant, "is for sm_80, not sm_90a"});
  }
  SECTION("another cubin") {
    Test.Index["variants"][1]["files"]["cubin"] = "gemm.sm_90a.cubin";
    Test.expectError(TILERT_ERROR_METADATA,
                     {Variant, "its cubin", "gemm.sm_90a.cubin",
                      "is not the cubin its metadata names"});
  }
}

TEST_CASE("every variant must have the kernel's launch signature",
          "[package]") {
  TestPackage Test;
  std::string Variant = "variant 'gemm' (sm_80): ";
  std::string Rule = "every variant of a package must have the kernel's "
                     "launch signature";
  struct Case {
    const char *Name;
    std::function<void(json &)> Edit;
    std::string Text;
  };
  const Case Cases[] = {
      {"a dtype", [](json &M) { M["params"][1]["dtype"] = "f16"; },
       "tensor 'B' has dtype f16 but in variant 'gemm' (sm_90a) it has f32"},
      {"a tensor name", [](json &M) { M["params"][2]["name"] = "D"; },
       "has tensor 'D' at index 2 but variant 'gemm' (sm_90a) has tensor "
       "'C'"},
      {"a shape",
       [](json &M) {
         M["params"][2]["shape"] = {"M", 64};
       },
       "tensor 'C' has shape [M, 64] but in variant 'gemm' (sm_90a) it has "
       "[M, 128]"},
      {"a rank",
       [](json &M) {
         M["params"][2]["shape"] = {"M", 128, 1};
       },
       "tensor 'C' has shape [M, 128, 1]"},
      {"a scalar dtype", [](json &M) { M["params"][6]["dtype"] = "f64"; },
       "scalar 'alpha' has dtype f64 but in variant 'gemm' (sm_90a) it has "
       "f32"},
      {"a missing scalar", [](json &M) { M["params"].erase(7); },
       "has 1 scalars (alpha) but variant 'gemm' (sm_90a) has 2 (alpha, "
       "flag)"},
  };
  for (const Case &Each : Cases) {
    DYNAMIC_SECTION(Each.Name) {
      json Metadata = gemmLikeMetadata();
      Each.Edit(Metadata);
      Test.Dir.writeVariant("gemm", "sm_80", Metadata);
      Test.expectError(TILERT_ERROR_METADATA, {Variant, Each.Text, Rule});
    }
  }
  SECTION("the dims") {
    json Metadata = gemmLikeMetadata();
    Metadata["params"][0]["shape"] = {"M", "N"};
    Metadata["params"][1]["shape"] = {"N", "K"};
    Metadata["params"][4]["name"] = "N";
    Metadata["params"][5]["name"] = "K";
    Metadata["launch"]["grid"] = {"N", "M", "K"};
    Test.Dir.writeVariant("gemm", "sm_80", Metadata);
    Test.expectError(TILERT_ERROR_METADATA,
                     {Variant, "has the dims (M, N, K) but variant 'gemm' "
                               "(sm_90a) has (M, K, N)"});
  }
}

TEST_CASE("a tuning database opens with the package", "[package]") {
  TestPackage Test;
  json Tuning = tuningDatabase();
  Tuning["schema"] = "tilec.tuning/1.3";
  Tuning["package"] = {{"index_sha256", Test.indexSha256()}};
  Tuning["unknown"] = {{"anything", 1}};
  Tuning["devices"][0]["shapes"].push_back(Tuning["devices"][0]["shapes"][0]);
  Tuning["devices"].push_back(
      {{"device", "NVIDIA H200"}, {"shapes", Tuning["devices"][0]["shapes"]}});
  Test.write(Tuning);
  tilert::Package Package(Test.Dir.path());
  CHECK(Package.tuned());
  CHECK(Package.info().num_tuned_shapes == 4);
}

TEST_CASE("tuning.json errors name the file, the field and the problem",
          "[package]") {
  TestPackage Test;
  std::string File = Test.Dir.path() + "/tuning.json: ";
  struct Case {
    const char *Name;
    std::function<void(json &)> Edit;
    std::vector<std::string> Texts;
  };
  std::string Shape = "devices[0].shapes[0]";
  const Case Cases[] = {
      {"not an object",
       [](json &T) { T = "tuning"; },
       {"the top level must be a JSON object, found a string"}},
      {"another schema",
       [](json &T) { T["schema"] = "tilec.package/1"; },
       {"field 'schema'", "is not a tilec tuning schema",
        "this runtime reads tilec.tuning/1"}},
      {"another major",
       [](json &T) { T["schema"] = "tilec.tuning/2"; },
       {"unsupported schema major version 2"}},
      {"another kernel",
       [](json &T) { T["kernel"] = "gemv"; },
       {"field 'kernel': 'gemv' is not the package's kernel (index.json: "
        "'gemm')"}},
      {"no devices",
       [](json &T) { T.erase("devices"); },
       {"missing required field 'devices'"}},
      {"a device without a name",
       [](json &T) { T["devices"][0].erase("device"); },
       {"missing required field 'devices[0].device'"}},
      {"an unknown variant",
       [](json &T) {
         T["devices"][0]["shapes"][0]["best"]["variant"] = "gemm-fast";
       },
       {"field '" + Shape +
        ".best': variant 'gemm-fast' for sm_90a is not "
        "in the package's index.json"}},
      {"a variant for another arch",
       [](json &T) { T["devices"][0]["shapes"][0]["best"]["arch"] = "sm_80"; },
       {"variant 'gemm-block_N_256' for sm_80 is not in the package"}},
      {"an unknown dim",
       [](json &T) { T["devices"][0]["shapes"][0]["dims"]["B"] = 2; },
       {"field '" + Shape + ".dims.B': 'B' is not a dim of gemm (M, K, N)"}},
      {"a missing dim",
       [](json &T) { T["devices"][0]["shapes"][0]["dims"].erase("K"); },
       {"missing required field '" + Shape + ".dims.K'"}},
      {"a dim below 1",
       [](json &T) { T["devices"][0]["shapes"][0]["dims"]["N"] = 0; },
       {"field '" + Shape + ".dims.N': expected an integer in [1, "}},
      {"no best",
       [](json &T) { T["devices"][0]["shapes"][0].erase("best"); },
       {"missing required field '" + Shape + ".best'"}},
      {"a bad digest",
       [](json &T) {
         T["package"] = {{"index_sha256", "abc"}};
       },
       {"field 'package.index_sha256': 'abc' is not a sha256 digest"}},
  };
  for (const Case &Each : Cases) {
    DYNAMIC_SECTION(Each.Name) {
      json Tuning = tuningDatabase();
      Each.Edit(Tuning);
      std::vector<std::string> Texts = Each.Texts;
      Texts.push_back(File);
      Test.expectError(TILERT_ERROR_METADATA, Texts, Tuning);
    }
  }
  SECTION("a stale index digest") {
    json Tuning = tuningDatabase();
    Tuning["package"] = {{"index_sha256", std::string(64, 'c')}};
    Test.expectError(TILERT_ERROR_METADATA,
                     {File, "tuning.json was measured for another index.json",
                      std::string(64, 'c'), Test.indexSha256(),
                      "tune the package again"},
                     Tuning);
  }
}
