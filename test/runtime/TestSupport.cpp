//===- TestSupport.cpp - Fixtures for the runtime unit tests ----*- C++ -*-===//

#include "TestSupport.h"

#include "DType.h"
#include "Sha256.h"

#include <catch2/catch.hpp>

namespace tilert::test {

using nlohmann::json;

namespace {

json tensor(const char *name, const char *dtype, json shape) {
  return {{"kind", "tensor"},
          {"name", name},
          {"dtype", dtype},
          {"shape", std::move(shape)},
          {"alignment", 16}};
}

json common() {
  return {
      {"schema", "tilec.kernel/1"},
      {"arch", "sm_90a"},
      {"binaries",
       {{{"kind", "cubin"},
         {"file", "k.sm_90a.cubin"},
         {"sha256", detail::sha256Hex(CubinBytes)}},
        {{"kind", "ptx"},
         {"file", "k.sm_90a.ptx"},
         {"sha256", detail::sha256Hex(PtxBytes)}}}},
      {"versions",
       {{"tilec", "0.1.0"}, {"llvm", "22.1.8"}, {"ptxas", "13.0.88"}}},
      {"source", {{"path", "specs/k.tile"}, {"sha256", std::string(64, 'a')}}},
      {"resources",
       {{"registers", 16},
        {"spill_stores", 0},
        {"spill_loads", 0},
        {"local_bytes", 0},
        {"static_smem", 0},
        {"max_threads", 256}}},
  };
}

} // namespace

json baseMetadata() {
  json Document = common();
  Document["name"] = "vector_add";
  Document["entry"] = "vector_add";
  Document["constants"] = {{"dtype", "f32"}, {"block", 1024}, {"threads", 256}};
  Document["params"] = {tensor("A", "f32", {"N"}),
                        tensor("B", "f32", {"N"}),
                        tensor("C", "f32", {"N"}),
                        {{"kind", "dim"}, {"name", "N"}, {"dtype", "i64"}}};
  Document["launch"] = {{"grid", {"ceildiv(N, 1024)", "1", "1"}},
                        {"block", {256, 1, 1}},
                        {"cluster", {1, 1, 1}},
                        {"dynamic_smem", 0}};
  return Document;
}

json gemmLikeMetadata() {
  json Document = common();
  Document["name"] = "gemm";
  Document["entry"] = "gemm_kernel";
  Document["constants"] = {
      {"dtype", "f32"}, {"block_N", 128}, {"swizzle", true}};
  Document["params"] = {
      tensor("A", "f32", {"M", "K"}),
      tensor("B", "f32", {"K", "N"}),
      tensor("C", "f32", {"M", 128}),
      {{"kind", "dim"}, {"name", "M"}, {"dtype", "i64"}},
      {{"kind", "dim"}, {"name", "K"}, {"dtype", "i64"}},
      {{"kind", "dim"}, {"name", "N"}, {"dtype", "i64"}},
      {{"kind", "scalar"}, {"name", "alpha"}, {"dtype", "f32"}},
      {{"kind", "scalar"}, {"name", "flag"}, {"dtype", "bool"}}};
  Document["launch"] = {{"grid", {"ceildiv(N, 128)", "ceildiv(M, 128)", "1"}},
                        {"block", {128, 1, 1}},
                        {"cluster", {1, 1, 1}},
                        {"dynamic_smem", 65536}};
  return Document;
}

json tensorMapParam(const std::string &name, const std::string &tensor,
                    std::vector<int> box, int swizzle, int l2Promotion,
                    const std::string &oobFill) {
  return {{"kind", "tensor_map"}, {"name", name},
          {"tensor", tensor},     {"box", box},
          {"swizzle", swizzle},   {"l2_promotion", l2Promotion},
          {"oob_fill", oobFill}};
}

json tmaGemmMetadata() {
  json Document = common();
  Document["schema"] = "tilec.kernel/1.1";
  Document["name"] = "gemm_tma";
  Document["entry"] = "gemm_tma";
  Document["constants"] = {{"dtype", "f16"}};
  Document["params"] = {
      tensor("A", "f16", {"M", "K"}),
      tensor("B", "f16", {"K", "N"}),
      tensor("C", "f32", {"M", "N"}),
      {{"kind", "dim"}, {"name", "M"}, {"dtype", "i64"}},
      {{"kind", "dim"}, {"name", "K"}, {"dtype", "i64"}},
      {{"kind", "dim"}, {"name", "N"}, {"dtype", "i64"}},
      tensorMapParam("A_map", "A", {128, 64}, 128, 128, "zero"),
      tensorMapParam("B_map", "B", {64, 64}, 128, 256, "nan")};
  Document["launch"] = {{"grid", {"ceildiv(N, 128)", "ceildiv(M, 128)", "1"}},
                        {"block", {128, 1, 1}},
                        {"cluster", {1, 1, 1}},
                        {"dynamic_smem", 98304}};
  return Document;
}

json packageVariant(const std::string &name, const std::string &arch) {
  std::string Stem = name + "." + arch;
  return {{"name", name},
          {"arch", arch},
          {"defines", json::object()},
          {"files", {{"metadata", Stem + ".json"}, {"cubin", Stem + ".cubin"}}},
          {"registers", 16},
          {"spills", {{"stores", 0}, {"loads", 0}}},
          {"smem", 0},
          {"threads", 128}};
}

json packageIndex(const std::string &kernel, const std::vector<json> &variants,
                  const std::string &defaultName) {
  return {
      {"schema", "tilec.package/1"},
      {"kernel", kernel},
      {"source", {{"path", "specs/k.tile"}, {"sha256", std::string(64, 'a')}}},
      {"space",
       {{"path", "specs/k.tune.yaml"}, {"sha256", std::string(64, 'b')}}},
      {"archs", {"sm_90a"}},
      {"shapes", json::array()},
      {"default", defaultName},
      {"variants", variants}};
}

detail::Status parse(const json &document, detail::KernelMetadata &out) {
  return detail::parseMetadata(document.dump(), "k.json", out);
}

detail::KernelMetadata parseValid(const json &document) {
  detail::KernelMetadata Metadata;
  detail::Status Parsed = parse(document, Metadata);
  INFO(Parsed.message());
  REQUIRE(Parsed.ok());
  return Metadata;
}

TempDir::TempDir() {
  detail::Status Created = Dir.create();
  INFO(Created.message());
  REQUIRE(Created.ok());
}

std::string TempDir::write(const std::string &name,
                           const std::string &bytes) const {
  std::string File;
  detail::Status Written = Dir.write(name, bytes, File);
  INFO(Written.message());
  REQUIRE(Written.ok());
  return File;
}

std::string TempDir::writeKernel(const json &document) const {
  write("k.sm_90a.cubin", CubinBytes);
  write("k.sm_90a.ptx", PtxBytes);
  return write("k.json", document.dump(2));
}

void TempDir::writeVariant(const std::string &name, const std::string &arch,
                           json document, const std::string &cubin) const {
  std::string Stem = name + "." + arch;
  document["arch"] = arch;
  document["binaries"] = {{{"kind", "cubin"},
                           {"file", Stem + ".cubin"},
                           {"sha256", detail::sha256Hex(cubin)}}};
  write(Stem + ".cubin", cubin);
  write(Stem + ".json", document.dump(2));
}

FakeTensor::FakeTensor(tilertDType dtype, std::vector<int64_t> shape)
    : Shape(std::move(shape)), Tensor{} {
  Tensor.data = reinterpret_cast<void *>(uintptr_t(0x7f0000000000));
  Tensor.device = {kDLCUDA, 0};
  Tensor.ndim = static_cast<int>(Shape.size());
  Tensor.dtype = detail::toDLDataType(dtype);
  Tensor.shape = Shape.data();
  Tensor.strides = nullptr;
  Tensor.byte_offset = 0;
}

FakeTensor &FakeTensor::withStrides(std::vector<int64_t> strides) {
  Strides = std::move(strides);
  Tensor.strides = Strides.data();
  return *this;
}

} // namespace tilert::test
