//===- CApiTest.cpp - The C ABI and C++ API without a GPU -----------------===//
//
// Exercises libtilert through its public headers: everything up to the first
// driver call works on a machine without a GPU.
//
//===----------------------------------------------------------------------===//

#include "tilert/tilert.hpp"

#include "TestSupport.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <thread>

using namespace tilert::test;
using nlohmann::json;

TEST_CASE("status and dtype names", "[capi]") {
  CHECK(std::strcmp(tilertGetErrorName(TILERT_SUCCESS), "TILERT_SUCCESS") == 0);
  CHECK(std::strcmp(tilertGetErrorName(TILERT_ERROR_ARCH_MISMATCH),
                    "TILERT_ERROR_ARCH_MISMATCH") == 0);
  CHECK(std::strcmp(tilertGetErrorName(static_cast<tilertStatus>(1234)),
                    "TILERT_ERROR_UNKNOWN") == 0);
  CHECK(std::strcmp(tilertDTypeName(TILERT_DTYPE_BF16), "bf16") == 0);
  CHECK(tilertDTypeName(TILERT_DTYPE_INVALID) == nullptr);
  CHECK(tilertDTypeSize(TILERT_DTYPE_F64) == 8);
  CHECK(tilertDTypeSize(TILERT_DTYPE_BOOL) == 1);
  CHECK(tilertDTypeSize(static_cast<tilertDType>(77)) == 0);
  CHECK(std::strcmp(tilertGetVersion(), "0.1.0") == 0);
}

TEST_CASE("a kernel loads and describes its parameters", "[capi]") {
  TempDir Dir;
  std::string Path = Dir.writeKernel(gemmLikeMetadata());
  tilertKernel Kernel = nullptr;
  REQUIRE(tilertKernelLoad(Path.c_str(), &Kernel) == TILERT_SUCCESS);
  CHECK(std::string(tilertGetLastErrorMessage()).empty());

  tilertKernelInfo Info;
  REQUIRE(tilertKernelGetInfo(Kernel, &Info) == TILERT_SUCCESS);
  CHECK(std::string(Info.name) == "gemm");
  CHECK(std::string(Info.entry) == "gemm_kernel");
  CHECK(std::string(Info.arch) == "sm_90a");
  CHECK(std::string(Info.json_path) == Path);
  CHECK(std::string(Info.grid[1]) == "ceildiv(M, 128)");
  CHECK(Info.num_tensors == 3);
  CHECK(Info.num_dims == 3);
  CHECK(Info.num_scalars == 2);
  CHECK(Info.block[0] == 128);
  CHECK(Info.cluster[2] == 1);
  CHECK(Info.dynamic_smem == 65536);

  tilertTensorParam Tensor;
  REQUIRE(tilertKernelGetTensorParam(Kernel, 2, &Tensor) == TILERT_SUCCESS);
  CHECK(std::string(Tensor.name) == "C");
  CHECK(Tensor.dtype == TILERT_DTYPE_F32);
  REQUIRE(Tensor.rank == 2);
  CHECK(std::string(Tensor.dim_names[0]) == "M");
  CHECK(Tensor.dim_values[0] == -1);
  CHECK(Tensor.dim_names[1] == nullptr);
  CHECK(Tensor.dim_values[1] == 128);
  CHECK(Tensor.alignment == 16);

  const char *Dim = nullptr;
  REQUIRE(tilertKernelGetDimName(Kernel, 2, &Dim) == TILERT_SUCCESS);
  CHECK(std::string(Dim) == "N");
  tilertScalarParam Scalar;
  REQUIRE(tilertKernelGetScalarParam(Kernel, 1, &Scalar) == TILERT_SUCCESS);
  CHECK(std::string(Scalar.name) == "flag");
  CHECK(Scalar.dtype == TILERT_DTYPE_BOOL);

  CHECK(tilertKernelGetScalarParam(Kernel, 2, &Scalar) ==
        TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(tilertGetLastErrorMessage(),
             Catch::Contains("scalar index 2 is out of range [0, 2)"));
  CHECK(tilertKernelGetTensorParam(Kernel, -1, &Tensor) ==
        TILERT_ERROR_INVALID_ARGUMENT);
  CHECK(tilertKernelGetInfo(Kernel, nullptr) == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK(tilertKernelDestroy(Kernel) == TILERT_SUCCESS);
}

TEST_CASE("load errors are statuses with a message", "[capi]") {
  TempDir Dir;
  tilertKernel Kernel = reinterpret_cast<tilertKernel>(1);
  CHECK(tilertKernelLoad((Dir.path() + "/none.json").c_str(), &Kernel) ==
        TILERT_ERROR_IO);
  CHECK(Kernel == nullptr);
  CHECK_THAT(tilertGetLastErrorMessage(), Catch::Contains("none.json"));

  std::string Path = Dir.write("bad.json", "{\"schema\": \"tilec.kernel/1\"");
  CHECK(tilertKernelLoad(Path.c_str(), &Kernel) == TILERT_ERROR_METADATA);
  CHECK_THAT(tilertGetLastErrorMessage(), Catch::Contains("truncated JSON"));

  Path = Dir.writeKernel(baseMetadata());
  Dir.write("k.sm_90a.cubin", "tampered");
  CHECK(tilertKernelLoad(Path.c_str(), &Kernel) == TILERT_ERROR_CHECKSUM);

  CHECK(tilertKernelLoad(nullptr, &Kernel) == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK(tilertKernelLoad(Path.c_str(), nullptr) ==
        TILERT_ERROR_INVALID_ARGUMENT);
  CHECK(tilertKernelGetInfo(nullptr, nullptr) == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(tilertGetLastErrorMessage(),
             Catch::Contains("the kernel handle is NULL"));
  CHECK(tilertKernelDestroy(nullptr) == TILERT_SUCCESS);
  CHECK(std::string(tilertGetLastErrorMessage()).empty());
}

TEST_CASE("the last error message is per thread", "[capi]") {
  CHECK(tilertKernelLoad(nullptr, nullptr) == TILERT_ERROR_INVALID_ARGUMENT);
  std::string Other = "unset";
  std::thread([&] { Other = tilertGetLastErrorMessage(); }).join();
  CHECK(Other.empty());
  CHECK_THAT(tilertGetLastErrorMessage(), Catch::Contains("is NULL"));
}

TEST_CASE("invalid launches fail before reaching any device", "[capi]") {
  TempDir Dir;
  std::string Path = Dir.writeKernel(baseMetadata());
  tilertKernel Kernel = nullptr;
  REQUIRE(tilertKernelLoad(Path.c_str(), &Kernel) == TILERT_SUCCESS);
  FakeTensor A(TILERT_DTYPE_F32, {100}), B(TILERT_DTYPE_F16, {100}),
      C(TILERT_DTYPE_F32, {100});
  const DLTensor *Tensors[] = {A.get(), B.get(), C.get()};
  CHECK(tilertKernelLaunch(Kernel, Tensors, 3, nullptr, 0, nullptr) ==
        TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(tilertGetLastErrorMessage(),
             Catch::Contains("tensor 'B' (index 1) has dtype f16"));
  CHECK(tilertKernelLaunch(Kernel, Tensors, 2, nullptr, 0, nullptr) ==
        TILERT_ERROR_INVALID_ARGUMENT);
  CHECK(tilertKernelLaunch(nullptr, Tensors, 3, nullptr, 0, nullptr) ==
        TILERT_ERROR_INVALID_ARGUMENT);

  // Valid arguments get past validation to the driver, which here is absent
  // (CI) or rejects the fake cubin (a GPU machine).
  FakeTensor B32(TILERT_DTYPE_F32, {100});
  Tensors[1] = B32.get();
  tilertStatus Status =
      tilertKernelLaunch(Kernel, Tensors, 3, nullptr, 0, nullptr);
  INFO(tilertGetLastErrorMessage());
  CHECK((Status == TILERT_ERROR_NO_DEVICE || Status == TILERT_ERROR_CUDA ||
         Status == TILERT_ERROR_JIT || Status == TILERT_ERROR_ARCH_MISMATCH));
  CHECK(tilertKernelDestroy(Kernel) == TILERT_SUCCESS);
}

TEST_CASE("tensor maps are checked before reaching any device", "[capi]") {
  TempDir Dir;
  std::string Path = Dir.writeKernel(tmaGemmMetadata());
  tilert::Kernel Kernel(Path);
  // Tensor maps are derived from the tensors; the caller sees no new kind.
  CHECK(Kernel.info().num_tensors == 3);
  CHECK(Kernel.dims() == std::vector<std::string>{"M", "K", "N"});
  CHECK(Kernel.scalars().empty());

  FakeTensor A(TILERT_DTYPE_F16, {300, 1001}), B(TILERT_DTYPE_F16, {1001, 200}),
      C(TILERT_DTYPE_F32, {300, 200});
  const DLTensor *Tensors[] = {A.get(), B.get(), C.get()};
  CHECK(tilertKernelLaunch(Kernel.handle(), Tensors, 3, nullptr, 0, nullptr) ==
        TILERT_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(tilertGetLastErrorMessage()) ==
        "gemm_tma: tensor 'A' (index 0): the stride of dimension 0 is 2002 "
        "bytes, not a multiple of 16 as TMA requires (tensor map 'A_map')");

  // Valid tensors reach the driver.
  FakeTensor A2(TILERT_DTYPE_F16, {300, 1024}),
      B2(TILERT_DTYPE_F16, {1024, 200});
  Tensors[0] = A2.get();
  Tensors[1] = B2.get();
  tilertStatus Status =
      tilertKernelLaunch(Kernel.handle(), Tensors, 3, nullptr, 0, nullptr);
  INFO(tilertGetLastErrorMessage());
  CHECK((Status == TILERT_ERROR_NO_DEVICE || Status == TILERT_ERROR_CUDA ||
         Status == TILERT_ERROR_JIT || Status == TILERT_ERROR_ARCH_MISMATCH ||
         Status == TILERT_ERROR_UNSUPPORTED));

  // An empty grid launches nothing and needs no map: M = 0 passes the checks.
  FakeTensor A0(TILERT_DTYPE_F16, {0, 1001}), C0(TILERT_DTYPE_F32, {0, 200});
  Tensors[0] = A0.get();
  Tensors[1] = B.get();
  Tensors[2] = C0.get();
  Status = tilertKernelLaunch(Kernel.handle(), Tensors, 3, nullptr, 0, nullptr);
  INFO(tilertGetLastErrorMessage());
  CHECK(Status != TILERT_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("the C++ API wraps handles and throws tilert::Error", "[capi]") {
  TempDir Dir;
  std::string Path = Dir.writeKernel(gemmLikeMetadata());
  tilert::Kernel Kernel(Path);
  CHECK(Kernel.name() == "gemm");
  CHECK(Kernel.arch() == "sm_90a");
  std::vector<tilert::TensorParam> Tensors = Kernel.tensors();
  REQUIRE(Tensors.size() == 3);
  CHECK(Tensors[0].shape[1].dim == "K");
  CHECK(Tensors[2].shape[1].dim.empty());
  CHECK(Tensors[2].shape[1].value == 128);
  CHECK(Kernel.dims() == std::vector<std::string>{"M", "K", "N"});
  std::vector<tilert::ScalarParam> Scalars = Kernel.scalars();
  REQUIRE(Scalars.size() == 2);
  CHECK(Scalars[0].name == "alpha");
  CHECK(tilert::dtypeName(Scalars[0].dtype) == "f32");

  tilert::Kernel Moved = std::move(Kernel);
  CHECK(Moved.name() == "gemm");
  CHECK(Kernel.handle() == nullptr);

  FakeTensor A(TILERT_DTYPE_F32, {4, 8}), B(TILERT_DTYPE_F32, {8, 2}),
      C(TILERT_DTYPE_F32, {4, 128});
  try {
    Moved.launch({A.get(), B.get(), C.get()},
                 {tilert::Scalar::f64(1.0), tilert::Scalar::boolean(true)});
    FAIL("expected tilert::Error");
  } catch (const tilert::Error &Error) {
    CHECK(Error.status() == TILERT_ERROR_INVALID_ARGUMENT);
    CHECK_THAT(Error.message(), Catch::Contains("scalar 'alpha'"));
    CHECK_THAT(Error.what(),
               Catch::StartsWith("TILERT_ERROR_INVALID_ARGUMENT: gemm:"));
  }
  try {
    tilert::Kernel Missing(Dir.path() + "/missing.json");
    FAIL("expected tilert::Error");
  } catch (const tilert::Error &Error) {
    CHECK(Error.status() == TILERT_ERROR_IO);
  }
  CHECK(tilert::Scalar::f16(1.0f).raw().value.f16 == 0x3c00);
  CHECK(tilert::Scalar::bf16(1.0f).raw().value.bf16 == 0x3f80);
  CHECK(tilert::Scalar::i64(-5).raw().dtype == TILERT_DTYPE_I64);
}

TEST_CASE("a kernel loads from memory, its binaries verified",
          "[capi][memory]") {
  std::string Json = baseMetadata().dump();
  tilertBinary Binaries[] = {{CubinBytes.data(), CubinBytes.size()},
                             {PtxBytes.data(), PtxBytes.size()}};
  tilert::Kernel Kernel =
      tilert::Kernel::fromMemory(Json, "vector_add.sm_90a.json", Binaries);
  CHECK(Kernel.name() == "vector_add");
  CHECK(std::string(Kernel.info().json_path) == "vector_add.sm_90a.json");
  CHECK(Kernel.tensors().size() == 3);

  auto Expect = [&](tilertStatus Status, const std::string &Message,
                    const std::string &Text, const tilertBinary *Given,
                    int32_t Count) {
    tilertKernel Handle = reinterpret_cast<tilertKernel>(0x1);
    CHECK(tilertKernelLoadFromMemory(Text.data(), Text.size(), "k.json", Given,
                                     Count, &Handle) == Status);
    CHECK(Handle == nullptr);
    CHECK_THAT(tilertGetLastErrorMessage(), Catch::Contains(Message));
  };
  Expect(TILERT_ERROR_INVALID_ARGUMENT,
         "k.json: 1 binaries given but the metadata names 2", Json, Binaries,
         1);
  Expect(TILERT_ERROR_INVALID_ARGUMENT, "k.json: the binary array is NULL",
         Json, nullptr, 2);
  std::string Tampered = CubinBytes;
  Tampered[0] ^= 1;
  tilertBinary Bad[] = {{Tampered.data(), Tampered.size()}, Binaries[1]};
  Expect(TILERT_ERROR_CHECKSUM,
         "k.json: binaries[0]: sha256 of 'k.json:k.sm_90a.cubin' is", Json, Bad,
         2);
  Expect(TILERT_ERROR_METADATA, "k.json: truncated JSON",
         Json.substr(0, Json.size() / 2), Binaries, 2);
  tilertKernel Handle;
  CHECK(tilertKernelLoadFromMemory(nullptr, 0, "k.json", Binaries, 2,
                                   &Handle) == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(tilertGetLastErrorMessage(), Catch::Contains("the JSON is NULL"));
}
