//===- MetadataTest.cpp - Metadata JSON parsing and validation ------------===//

#include "Metadata.h"

#include "TestSupport.h"

#include <catch2/catch.hpp>

using namespace tilert::detail;
using namespace tilert::test;
using nlohmann::json;

namespace {

/// Parses `document`, expects TILERT_ERROR_METADATA and returns the message.
std::string metadataError(const json &document) {
  KernelMetadata Ignored;
  Status S = parse(document, Ignored);
  INFO(document.dump());
  REQUIRE_FALSE(S.ok());
  CHECK(S.code() == TILERT_ERROR_METADATA);
  CHECK_THAT(S.message(), Catch::StartsWith("k.json: "));
  return S.message();
}

/// Parses raw `text` and returns the status.
Status parseText(const std::string &text) {
  KernelMetadata Ignored;
  return parseMetadata(text, "k.json", Ignored);
}

json with(json document, const std::string &pointer, json value) {
  document[json::json_pointer(pointer)] = std::move(value);
  return document;
}

json without(json document, const std::string &pointer) {
  json::json_pointer Pointer(pointer);
  document[Pointer.parent_pointer()].erase(Pointer.back());
  return document;
}

} // namespace

TEST_CASE("valid metadata parses into the launch model", "[metadata]") {
  KernelMetadata M = parseValid(baseMetadata());
  CHECK(M.Path == "k.json");
  CHECK(M.Name == "vector_add");
  CHECK(M.Entry == "vector_add");
  CHECK(M.Target.Name == "sm_90a");
  REQUIRE(M.Binaries.size() == 2);
  CHECK(M.Binaries[0].Kind == BinaryKind::Cubin);
  CHECK(M.Binaries[1].Kind == BinaryKind::Ptx);
  CHECK(M.Binaries[1].File == "k.sm_90a.ptx");
  REQUIRE(M.Tensors.size() == 3);
  CHECK(M.Tensors[2].Name == "C");
  CHECK(M.Tensors[2].DType == TILERT_DTYPE_F32);
  CHECK(M.Tensors[2].Alignment == 16);
  REQUIRE(M.Tensors[2].Shape.size() == 1);
  CHECK(M.Tensors[2].Shape[0].Dim == 0);
  CHECK(M.Dims == std::vector<std::string>{"N"});
  CHECK(M.Scalars.empty());
  CHECK(M.Launch.Grid[0].text() == "ceildiv(N, 1024)");
  CHECK(M.Launch.Block == std::array<uint32_t, 3>{256, 1, 1});
  CHECK(M.Launch.Cluster == std::array<uint32_t, 3>{1, 1, 1});
  CHECK(M.Constants["dtype"] == "f32");

  KernelMetadata G = parseValid(gemmLikeMetadata());
  CHECK(G.Dims == std::vector<std::string>{"M", "K", "N"});
  CHECK(G.Tensors[1].Shape[0].Dim == 1);
  CHECK(G.Tensors[1].Shape[1].Dim == 2);
  CHECK(G.Tensors[2].Shape[1].Dim == -1);
  CHECK(G.Tensors[2].Shape[1].Value == 128);
  REQUIRE(G.Scalars.size() == 2);
  CHECK(G.Scalars[1].DType == TILERT_DTYPE_BOOL);
  CHECK(G.Launch.DynamicSmem == 65536);
}

TEST_CASE("optional and forward-compatible content is accepted", "[metadata]") {
  parseValid(with(baseMetadata(), "/schema", "tilec.kernel/1.7"));
  parseValid(with(baseMetadata(), "/versions/ptxas", nullptr));
  parseValid(with(baseMetadata(), "/resources/source", "none"));
  parseValid(with(baseMetadata(), "/future_field", {{"anything", 1}}));
  parseValid(with(baseMetadata(), "/constants/eps", 1e-5));
  parseValid(with(baseMetadata(), "/constants/layout", "row_major"));
  parseValid(with(baseMetadata(), "/params/0/shape", json::array()));
  json Fatbin = baseMetadata();
  Fatbin["binaries"] = {{{"kind", "fatbin"},
                         {"file", "sub/k.fatbin"},
                         {"sha256", std::string(64, 'b')}}};
  parseValid(Fatbin);
}

TEST_CASE("every missing required field is named", "[metadata]") {
  const std::pair<const char *, const char *> Fields[] = {
      {"/schema", "schema"},
      {"/name", "name"},
      {"/entry", "entry"},
      {"/arch", "arch"},
      {"/binaries", "binaries"},
      {"/binaries/0/kind", "binaries[0].kind"},
      {"/binaries/1/file", "binaries[1].file"},
      {"/binaries/0/sha256", "binaries[0].sha256"},
      {"/versions", "versions"},
      {"/versions/tilec", "versions.tilec"},
      {"/versions/llvm", "versions.llvm"},
      {"/versions/ptxas", "versions.ptxas"},
      {"/source", "source"},
      {"/source/path", "source.path"},
      {"/source/sha256", "source.sha256"},
      {"/constants", "constants"},
      {"/params", "params"},
      {"/params/0/kind", "params[0].kind"},
      {"/params/1/name", "params[1].name"},
      {"/params/2/dtype", "params[2].dtype"},
      {"/params/2/shape", "params[2].shape"},
      {"/params/0/alignment", "params[0].alignment"},
      {"/params/3/dtype", "params[3].dtype"},
      {"/launch", "launch"},
      {"/launch/grid", "launch.grid"},
      {"/launch/block", "launch.block"},
      {"/launch/cluster", "launch.cluster"},
      {"/launch/dynamic_smem", "launch.dynamic_smem"},
      {"/resources", "resources"},
      {"/resources/registers", "resources.registers"},
      {"/resources/spill_stores", "resources.spill_stores"},
      {"/resources/spill_loads", "resources.spill_loads"},
      {"/resources/local_bytes", "resources.local_bytes"},
      {"/resources/static_smem", "resources.static_smem"},
      {"/resources/max_threads", "resources.max_threads"},
  };
  for (const auto &[Pointer, Field] : Fields) {
    INFO(Pointer);
    CHECK_THAT(
        metadataError(without(baseMetadata(), Pointer)),
        Catch::Contains(std::string("missing required field '") + Field + "'"));
  }
}

TEST_CASE("mistyped and invalid fields are named", "[metadata]") {
  struct Case {
    const char *Pointer;
    json Value;
    const char *Message;
  };
  const Case Cases[] = {
      {"/name", 5, "field 'name': expected a string, found an integer"},
      {"/entry", "", "field 'entry': must not be empty"},
      {"/arch", "sm90", "field 'arch': 'sm90' is not a target architecture"},
      {"/binaries", json::array(),
       "field 'binaries': the kernel has no binary"},
      {"/binaries", json::object(),
       "field 'binaries': expected an array, "
       "found an object"},
      {"/binaries/0", "k.cubin", "field 'binaries[0]': expected an object"},
      {"/binaries/0/kind", "elf", "unknown binary kind 'elf'"},
      {"/binaries/1/kind", "cubin", "field 'binaries[1].kind': a second cubin"},
      {"/binaries/0/file", "/abs/k.cubin", "must be relative"},
      {"/binaries/0/sha256", "ABC", "'ABC' is not a sha256 digest"},
      {"/binaries/0/sha256", std::string(64, 'A'), "is not a sha256 digest"},
      {"/versions", "0.1",
       "field 'versions': expected an object, found a "
       "string"},
      {"/versions/ptxas", 13, "field 'versions.ptxas': expected a string"},
      {"/source/sha256", std::string(63, 'a'), "field 'source.sha256'"},
      {"/constants", json::array(), "field 'constants': expected an object"},
      {"/constants/list", json::array(),
       "field 'constants.list': expected a number, a boolean or a string, "
       "found an array"},
      {"/constants/none", nullptr, "field 'constants.none'"},
      {"/params", json::object(), "field 'params': expected an array"},
      {"/params/1", 7, "field 'params[1]': expected an object"},
      {"/params/0/kind", "buffer", "unknown parameter kind 'buffer'"},
      {"/params/0/name", "1A",
       "field 'params[0].name': '1A' is not an "
       "identifier"},
      {"/params/1/name", "A", "duplicate parameter name 'A'"},
      {"/params/2/dtype", "f8",
       "field 'params[2].dtype': unknown dtype 'f8' "
       "(expected one of f16, bf16, f32, f64, i8, "
       "i16, i32, i64, u8, u32, bool)"},
      {"/params/2/dtype", 32, "field 'params[2].dtype': expected a string"},
      {"/params/0/shape", "N", "field 'params[0].shape': expected an array"},
      {"/params/0/shape/0", 1.5,
       "field 'params[0].shape[0]': expected a dim "
       "name or an integer"},
      {"/params/0/shape/0", -4,
       "field 'params[0].shape[0]': expected an "
       "integer in [0, "},
      {"/params/0/shape/0", "N+1", "'N+1' is not a dim name"},
      {"/params/1/shape/0", "M",
       "field 'params[1].shape[0]': 'M' is not a "
       "dim parameter"},
      {"/params/0/alignment", 12,
       "field 'params[0].alignment': 12 is not a "
       "power of two"},
      {"/params/0/alignment", 0,
       "field 'params[0].alignment': expected an "
       "integer in [1, "},
      {"/params/0/alignment", "16", "expected an integer, found a string"},
      {"/params/3/dtype", "i32",
       "field 'params[3].dtype': a dim parameter "
       "must be i64"},
      {"/launch", json::array(), "field 'launch': expected an object"},
      {"/launch/grid",
       {"1", "1"},
       "field 'launch.grid': expected 3 "
       "expressions"},
      {"/launch/grid/0", 4,
       "field 'launch.grid[0]': expected a string, found "
       "an integer"},
      {"/launch/grid/1", "ceildiv(N, ",
       "field 'launch.grid[1]': expected a "
       "number"},
      {"/launch/grid/2", "M",
       "field 'launch.grid[2]': unknown dimension 'M' "
       "(known: N) at column 1 in 'M'"},
      {"/launch/block", {256, 1}, "field 'launch.block': expected 3 entries"},
      {"/launch/block/0", 1.5,
       "field 'launch.block[0]': expected an integer, "
       "found a non-integer number"},
      {"/launch/block/0", 0,
       "field 'launch.block[0]': expected an integer in "
       "[1, 1024], found 0"},
      {"/launch/block/2", 65,
       "field 'launch.block[2]': expected an integer in "
       "[1, 64]"},
      {"/launch/block",
       {1024, 2, 1},
       "2048 threads per block exceed CUDA's "
       "limit of 1024"},
      {"/launch/block",
       {512, 1, 1},
       "512 threads per block exceed "
       "resources.max_threads (256)"},
      {"/launch/cluster", {4, 4, 2}, "32 blocks per cluster exceed"},
      {"/launch/cluster/1", 0, "field 'launch.cluster[1]'"},
      {"/launch/dynamic_smem", -1,
       "field 'launch.dynamic_smem': expected an "
       "integer in [0, 2147483647], found -1"},
      {"/launch/dynamic_smem", 18446744073709551615u,
       "found 18446744073709551615"},
      {"/resources/registers", "16", "field 'resources.registers'"},
      {"/resources/max_threads", 2048, "field 'resources.max_threads'"},
      {"/resources/source", 1, "field 'resources.source'"},
  };
  for (const Case &C : Cases) {
    INFO(C.Pointer << " = " << C.Value.dump());
    CHECK_THAT(metadataError(with(baseMetadata(), C.Pointer, C.Value)),
               Catch::Contains(C.Message));
  }
}

TEST_CASE("the schema version is checked first", "[metadata]") {
  json Future = baseMetadata();
  Future["schema"] = "tilec.kernel/2";
  Future["params"] = "a version-2 layout";
  CHECK_THAT(metadataError(Future),
             Catch::Contains("unsupported schema major version 2") &&
                 Catch::Contains("this runtime reads tilec.kernel/1"));
  CHECK_THAT(metadataError(with(baseMetadata(), "/schema", "tilec.kernel/x")),
             Catch::Contains("is not of the form tilec.kernel/MAJOR[.MINOR]"));
  CHECK_THAT(metadataError(with(baseMetadata(), "/schema", "tilec.kernel/1.")),
             Catch::Contains("is not of the form"));
  CHECK_THAT(metadataError(with(baseMetadata(), "/schema", "tilec.kernel/")),
             Catch::Contains("is not of the form"));
  CHECK_THAT(metadataError(with(baseMetadata(), "/schema", "onnx/1")),
             Catch::Contains("is not a tilec kernel schema"));
  CHECK_THAT(metadataError(with(baseMetadata(), "/schema", 1)),
             Catch::Contains("field 'schema': expected a string"));
}

TEST_CASE("parameters must follow the ABI order", "[metadata]") {
  json DimFirst = baseMetadata();
  std::swap(DimFirst["params"][2], DimFirst["params"][3]);
  CHECK_THAT(metadataError(DimFirst),
             Catch::Contains("field 'params[3]': a tensor parameter after dim "
                             "parameters"));

  json ScalarFirst = gemmLikeMetadata();
  std::swap(ScalarFirst["params"][5], ScalarFirst["params"][6]);
  CHECK_THAT(metadataError(ScalarFirst),
             Catch::Contains("a dim parameter after scalar parameters"));

  json Reordered = gemmLikeMetadata();
  std::swap(Reordered["params"][3], Reordered["params"][5]);
  CHECK_THAT(metadataError(Reordered),
             Catch::Contains("field 'params[3]': dim 'N' is out of order") &&
                 Catch::Contains("(M, K, N)"));

  json Unused = baseMetadata();
  Unused["params"].push_back(
      {{"kind", "dim"}, {"name", "K"}, {"dtype", "i64"}});
  CHECK_THAT(metadataError(Unused),
             Catch::Contains("field 'params[4]': dim 'K' does not appear in "
                             "any tensor shape"));
}

TEST_CASE("every proper prefix of valid metadata is truncated JSON",
          "[metadata]") {
  std::string Valid = baseMetadata().dump(2);
  for (size_t Length = 0; Length < Valid.size(); ++Length) {
    Status S = parseText(Valid.substr(0, Length));
    INFO("prefix of " << Length << " bytes: " << S.message());
    REQUIRE(S.code() == TILERT_ERROR_METADATA);
    REQUIRE_THAT(S.message(), Catch::StartsWith("k.json: truncated JSON"));
  }
}

TEST_CASE("corrupt and truncated JSON are specific errors", "[metadata]") {
  std::string Valid = baseMetadata().dump(2);
  Status S = parseText("");
  CHECK(S.code() == TILERT_ERROR_METADATA);
  CHECK_THAT(S.message(), Catch::Contains("truncated JSON: the file is empty"));

  S = parseText("{\n  \"schema\": tru,\n}");
  CHECK(S.code() == TILERT_ERROR_METADATA);
  CHECK_THAT(S.message(), Catch::StartsWith("k.json: corrupt JSON") &&
                              Catch::Contains("line 2"));

  S = parseText(Valid + "}");
  CHECK(S.code() == TILERT_ERROR_METADATA);
  CHECK_THAT(S.message(), Catch::StartsWith("k.json: corrupt JSON"));

  S = parseText("{\"schema\": \"tilec.kernel/1\" \"name\": 1}");
  CHECK_THAT(S.message(), Catch::StartsWith("k.json: corrupt JSON") &&
                              Catch::Contains("line 1, column 34"));

  S = parseText(std::string("\xff\xfe\x00\x01", 4));
  CHECK(S.code() == TILERT_ERROR_METADATA);
  CHECK_THAT(S.message(), Catch::Contains("corrupt JSON"));

  S = parseText("[1, 2]");
  CHECK(S.code() == TILERT_ERROR_METADATA);
  CHECK_THAT(S.message(), Catch::Contains("the top level must be a JSON "
                                          "object, found an array"));

  std::string Deep(200000, '[');
  S = parseText(Deep + std::string(200000, ']'));
  CHECK(S.code() == TILERT_ERROR_METADATA);
  S = parseText(Deep);
  CHECK(S.code() == TILERT_ERROR_METADATA);
}

TEST_CASE("metadata files are read with specific IO errors", "[metadata]") {
  TempDir Dir;
  KernelMetadata M;
  Status S = loadMetadata(Dir.path() + "/missing.json", M);
  CHECK(S.code() == TILERT_ERROR_IO);
  CHECK_THAT(S.message(), Catch::Contains("missing.json") &&
                              Catch::Contains("No such file"));
  S = loadMetadata(Dir.path(), M);
  CHECK(S.code() == TILERT_ERROR_IO);
  CHECK_THAT(S.message(), Catch::Contains("not a regular file"));
  std::string Path = Dir.writeKernel(baseMetadata());
  S = loadMetadata(Path, M);
  INFO(S.message());
  REQUIRE(S.ok());
  CHECK(M.Path == Path);
}

TEST_CASE("tensor_map parameters parse into the launch model", "[metadata]") {
  KernelMetadata M = parseValid(tmaGemmMetadata());
  CHECK(M.Tensors.size() == 3);
  CHECK(M.Dims == std::vector<std::string>{"M", "K", "N"});
  REQUIRE(M.TensorMaps.size() == 2);
  const TensorMapParam &A = M.TensorMaps[0];
  CHECK(A.Name == "A_map");
  CHECK(A.Tensor == 0);
  CHECK(A.Box == std::vector<uint32_t>{128, 64});
  CHECK(A.Swizzle == 128);
  CHECK(A.L2Promotion == 128);
  CHECK(A.Fill == OobFill::Zero);
  const TensorMapParam &B = M.TensorMaps[1];
  CHECK(B.Tensor == 1);
  CHECK(B.L2Promotion == 256);
  CHECK(B.Fill == OobFill::Nan);

  // Any minor version, no swizzle with any 16-byte multiple, ranks 1 and 5,
  // two maps of one tensor, a map after scalars.
  parseValid(with(tmaGemmMetadata(), "/schema", "tilec.kernel/1"));
  json Unswizzled = tmaGemmMetadata();
  Unswizzled["params"][6]["swizzle"] = 0;
  Unswizzled["params"][6]["box"] = {256, 256};
  Unswizzled["params"][6]["l2_promotion"] = 0;
  parseValid(Unswizzled);
  json Ranks = baseMetadata();
  Ranks["params"][0]["shape"] = {2, 3, 4, 5, "N"};
  Ranks["params"].push_back(
      {{"kind", "scalar"}, {"name", "s"}, {"dtype", "f32"}});
  Ranks["params"].push_back(
      tensorMapParam("A5", "A", {1, 2, 3, 4, 8}, 32, 64, "zero"));
  Ranks["params"].push_back(tensorMapParam("B1", "B", {4}, 0, 0, "nan"));
  Ranks["params"].push_back(
      tensorMapParam("B1_again", "B", {8}, 32, 0, "zero"));
  KernelMetadata R = parseValid(Ranks);
  REQUIRE(R.TensorMaps.size() == 3);
  CHECK(R.TensorMaps[0].Box == std::vector<uint32_t>{1, 2, 3, 4, 8});
  CHECK(R.TensorMaps[2].Tensor == 1);
}

TEST_CASE("invalid tensor_map parameters are named", "[metadata]") {
  struct Case {
    const char *Pointer;
    json Value;
    const char *Message;
  };
  const Case Cases[] = {
      {"/params/6/kind", "tensormap",
       "unknown parameter kind 'tensormap' (expected tensor, dim, scalar or "
       "tensor_map)"},
      {"/params/6/name", "A",
       "field 'params[6].name': duplicate parameter name 'A'"},
      {"/params/7/name", "A_map", "duplicate parameter name 'A_map'"},
      {"/params/6/tensor", "X",
       "field 'params[6].tensor': 'X' is not a tensor parameter (tensors: A, "
       "B, C)"},
      {"/params/6/tensor", "M", "'M' is not a tensor parameter"},
      {"/params/6/tensor", 0,
       "field 'params[6].tensor': expected a string, found an integer"},
      {"/params/6/box",
       {128},
       "field 'params[6].box': expected 2 extents (the rank of tensor 'A'), "
       "found 1"},
      {"/params/6/box",
       {1, 2, 64},
       "field 'params[6].box': expected 2 extents"},
      {"/params/6/box", "128x64", "field 'params[6].box': expected an array"},
      {"/params/6/box/0", 0,
       "field 'params[6].box[0]': expected an integer in [1, 256], found 0"},
      {"/params/6/box/0", 257,
       "field 'params[6].box[0]': expected an integer in [1, 256], found 257"},
      {"/params/6/box/1", 64.5,
       "field 'params[6].box[1]': expected an integer, found a non-integer"},
      {"/params/6/box/1", 12,
       "field 'params[6].box': the innermost box extent 12 x 2 bytes (f16) = "
       "24 bytes is not a multiple of 16 bytes as TMA requires"},
      {"/params/6/box/1", 128,
       "field 'params[6].box': the innermost box extent 128 x 2 bytes (f16) "
       "= 256 bytes exceeds the swizzle span of 128 bytes"},
      {"/params/6/swizzle", 16,
       "field 'params[6].swizzle': expected one of 0, 32, 64, 128 (swizzle "
       "bytes, 0 for none), found 16"},
      {"/params/6/swizzle", "128B",
       "field 'params[6].swizzle': expected an integer, found a string"},
      {"/params/6/swizzle", 32,
       "64 x 2 bytes (f16) = 128 bytes exceeds the swizzle span of 32 bytes"},
      {"/params/6/l2_promotion", 512,
       "field 'params[6].l2_promotion': expected one of 0, 64, 128, 256 (L2 "
       "promotion bytes, 0 for none), found 512"},
      {"/params/6/l2_promotion", true,
       "field 'params[6].l2_promotion': expected an integer, found a boolean"},
      {"/params/6/oob_fill", "ones",
       "field 'params[6].oob_fill': unknown fill 'ones' (expected zero or "
       "nan)"},
      {"/params/6/oob_fill", 0,
       "field 'params[6].oob_fill': expected a string"},
  };
  for (const Case &C : Cases) {
    INFO(C.Pointer << " = " << C.Value.dump());
    CHECK_THAT(metadataError(with(tmaGemmMetadata(), C.Pointer, C.Value)),
               Catch::Contains(C.Message));
  }

  for (const char *Field :
       {"tensor", "box", "swizzle", "l2_promotion", "oob_fill"}) {
    INFO(Field);
    CHECK_THAT(metadataError(without(tmaGemmMetadata(),
                                     std::string("/params/7/") + Field)),
               Catch::Contains(std::string("missing required field "
                                           "'params[7].") +
                               Field + "'"));
  }

  json IntNan = tmaGemmMetadata();
  IntNan["params"][0]["dtype"] = "i32";
  IntNan["params"][6]["box"] = {128, 16};
  IntNan["params"][6]["oob_fill"] = "nan";
  CHECK_THAT(metadataError(IntNan),
             Catch::Contains("field 'params[6].oob_fill': 'nan' needs a "
                             "floating-point tensor but tensor 'A' is i32"));

  json Scalar0 = tmaGemmMetadata();
  Scalar0["params"][0]["shape"] = json::array();
  CHECK_THAT(metadataError(Scalar0),
             Catch::Contains("field 'params[6].tensor': tensor 'A' has rank "
                             "0 but a tensor map needs rank 1 to 5"));
  json Rank6 = tmaGemmMetadata();
  Rank6["params"][0]["shape"] = {1, 1, 1, 1, "M", "K"};
  Rank6["params"][6]["box"] = {1, 1, 1, 1, 128, 64};
  CHECK_THAT(metadataError(Rank6),
             Catch::Contains("tensor 'A' has rank 6 but a tensor map needs "
                             "rank 1 to 5"));

  json MapFirst = tmaGemmMetadata();
  std::swap(MapFirst["params"][5], MapFirst["params"][6]);
  CHECK_THAT(metadataError(MapFirst),
             Catch::Contains("field 'params[6]': a dim parameter after "
                             "tensor_map parameters (the ABI order is "
                             "tensors, dims, scalars, tensor maps)"));
  json TensorLast = tmaGemmMetadata();
  TensorLast["params"].push_back(TensorLast["params"][0]);
  TensorLast["params"][8]["name"] = "D";
  CHECK_THAT(metadataError(TensorLast),
             Catch::Contains("field 'params[8]': a tensor parameter after "
                             "tensor_map parameters"));
  json ScalarLast = tmaGemmMetadata();
  ScalarLast["params"].push_back(
      {{"kind", "scalar"}, {"name", "alpha"}, {"dtype", "f32"}});
  CHECK_THAT(metadataError(ScalarLast),
             Catch::Contains("field 'params[8]': a scalar parameter after "
                             "tensor_map parameters"));
}
