//===- ArgBindingTest.cpp - Launch argument validation --------------------===//

#include "ArgBinding.h"

#include "TestSupport.h"

#include <catch2/catch.hpp>

using namespace tilert::detail;
using namespace tilert::test;

namespace {

Status bind(const KernelMetadata &metadata, std::vector<DLTensor *> tensors,
            std::vector<tilertScalar> scalars, BoundArgs &out) {
  std::vector<const DLTensor *> Pointers(tensors.begin(), tensors.end());
  return bindArguments(metadata, Pointers.data(),
                       static_cast<int32_t>(Pointers.size()), scalars.data(),
                       static_cast<int32_t>(scalars.size()), out);
}

/// Binds `tensors` to vector_add, expects INVALID_ARGUMENT, returns the
/// message.
std::string vectorAddError(std::vector<DLTensor *> tensors) {
  BoundArgs Args;
  Status S = bind(parseValid(baseMetadata()), std::move(tensors), {}, Args);
  REQUIRE_FALSE(S.ok());
  CHECK(S.code() == TILERT_ERROR_INVALID_ARGUMENT);
  return S.message();
}

tilertScalar f32(float value) {
  tilertScalar S{};
  S.dtype = TILERT_DTYPE_F32;
  S.value.f32 = value;
  return S;
}

tilertScalar boolean(uint8_t value) {
  tilertScalar S{};
  S.dtype = TILERT_DTYPE_BOOL;
  S.value.boolean = value;
  return S;
}

} // namespace

TEST_CASE("valid tensors bind their dims and addresses", "[args]") {
  FakeTensor A(TILERT_DTYPE_F32, {1000}), B(TILERT_DTYPE_F32, {1000}),
      C(TILERT_DTYPE_F32, {1000});
  C->byte_offset = 64;
  BoundArgs Args;
  Status S =
      bind(parseValid(baseMetadata()), {A.get(), B.get(), C.get()}, {}, Args);
  INFO(S.message());
  REQUIRE(S.ok());
  CHECK(Args.Device == 0);
  CHECK(Args.Dims == std::vector<int64_t>{1000});
  REQUIRE(Args.Addresses.size() == 3);
  CHECK(Args.Addresses[0] == 0x7f0000000000);
  CHECK(Args.Addresses[2] == 0x7f0000000000 + 64);
}

TEST_CASE("the argument counts must match", "[args]") {
  FakeTensor A(TILERT_DTYPE_F32, {8}), B(TILERT_DTYPE_F32, {8});
  CHECK_THAT(vectorAddError({A.get(), B.get()}),
             Catch::Contains("vector_add takes 3 tensors (A, B, C) but 2 were "
                             "given"));
  FakeTensor C(TILERT_DTYPE_F32, {8});
  BoundArgs Args;
  Status S = bind(parseValid(baseMetadata()), {A.get(), B.get(), C.get()},
                  {f32(1)}, Args);
  CHECK(S.code() == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(S.message(),
             Catch::Contains("takes 0 scalars () but 1 were given"));
  S = bindArguments(parseValid(baseMetadata()), nullptr, 3, nullptr, 0, Args);
  CHECK_THAT(S.message(), Catch::Contains("the tensor array is NULL"));
}

TEST_CASE("dtype, rank and device are checked per tensor", "[args]") {
  FakeTensor A(TILERT_DTYPE_F32, {8}), C(TILERT_DTYPE_F32, {8});
  FakeTensor Half(TILERT_DTYPE_F16, {8});
  CHECK_THAT(vectorAddError({A.get(), Half.get(), C.get()}),
             Catch::Contains("vector_add: tensor 'B' (index 1) has dtype f16 "
                             "but the kernel expects f32"));
  FakeTensor Vector(TILERT_DTYPE_F32, {8});
  Vector->dtype.lanes = 4;
  CHECK_THAT(vectorAddError({A.get(), Vector.get(), C.get()}),
             Catch::Contains("DLDataType(code=2, bits=32, lanes=4)"));
  FakeTensor Matrix(TILERT_DTYPE_F32, {2, 4});
  CHECK_THAT(vectorAddError({Matrix.get(), A.get(), C.get()}),
             Catch::Contains("tensor 'A' (index 0) has rank 2 but the kernel "
                             "expects rank 1 [N]"));
  FakeTensor Host(TILERT_DTYPE_F32, {8});
  Host->device.device_type = kDLCPU;
  CHECK_THAT(vectorAddError({A.get(), Host.get(), C.get()}),
             Catch::Contains("tensor 'B' (index 1) is on DLPack device type 1, "
                             "not kDLCUDA"));
  FakeTensor Other(TILERT_DTYPE_F32, {8});
  Other->device.device_id = 1;
  CHECK_THAT(vectorAddError({A.get(), A.get(), Other.get()}),
             Catch::Contains("tensor 'C' (index 2) is on CUDA device 1 but "
                             "tensor 'A' is on device 0"));
  CHECK_THAT(vectorAddError({A.get(), nullptr, C.get()}),
             Catch::Contains("tensor 'B' (index 1) is NULL"));
}

TEST_CASE("a symbolic dim must agree across tensors", "[args]") {
  FakeTensor A(TILERT_DTYPE_F32, {1000}), B(TILERT_DTYPE_F32, {999}),
      C(TILERT_DTYPE_F32, {1000});
  CHECK_THAT(vectorAddError({A.get(), B.get(), C.get()}),
             Catch::Contains("vector_add: dim 'N' is inconsistent: tensor 'A' "
                             "dim 0 has 1000 but tensor 'B' dim 0 has 999"));
  KernelMetadata Gemm = parseValid(gemmLikeMetadata());
  FakeTensor GA(TILERT_DTYPE_F32, {64, 32}), GB(TILERT_DTYPE_F32, {16, 48}),
      GC(TILERT_DTYPE_F32, {64, 128});
  BoundArgs Args;
  Status S =
      bind(Gemm, {GA.get(), GB.get(), GC.get()}, {f32(1), boolean(0)}, Args);
  CHECK_THAT(S.message(), Catch::Contains("dim 'K' is inconsistent: tensor 'A' "
                                          "dim 1 has 32 but tensor 'B' dim 0 "
                                          "has 16"));
}

TEST_CASE("a constant dim must equal its compile-time value", "[args]") {
  KernelMetadata Gemm = parseValid(gemmLikeMetadata());
  FakeTensor A(TILERT_DTYPE_F32, {64, 32}), B(TILERT_DTYPE_F32, {32, 48});
  FakeTensor C(TILERT_DTYPE_F32, {64, 64});
  BoundArgs Args;
  Status S =
      bind(Gemm, {A.get(), B.get(), C.get()}, {f32(1), boolean(1)}, Args);
  CHECK(S.code() == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(S.message(), Catch::Contains("gemm: tensor 'C' (index 2) dim 1 "
                                          "is 64 but the kernel was compiled "
                                          "for 128"));
  FakeTensor Good(TILERT_DTYPE_F32, {64, 128});
  S = bind(Gemm, {A.get(), B.get(), Good.get()}, {f32(1), boolean(1)}, Args);
  INFO(S.message());
  REQUIRE(S.ok());
  CHECK(Args.Dims == std::vector<int64_t>{64, 32, 48});
}

TEST_CASE("tensors must be contiguous row-major", "[args]") {
  FakeTensor A(TILERT_DTYPE_F32, {8}), C(TILERT_DTYPE_F32, {8});
  FakeTensor Strided(TILERT_DTYPE_F32, {8});
  Strided.withStrides({2});
  CHECK_THAT(
      vectorAddError({A.get(), Strided.get(), C.get()}),
      Catch::Contains("tensor 'B' (index 1) is not contiguous: dim 0 has "
                      "stride 2 but a row-major compact layout has 1"));
  KernelMetadata Gemm = parseValid(gemmLikeMetadata());
  FakeTensor GA(TILERT_DTYPE_F32, {4, 8}), GB(TILERT_DTYPE_F32, {8, 1}),
      GC(TILERT_DTYPE_F32, {4, 128});
  GA.withStrides({8, 1});
  GB.withStrides({1, 99}); // An extent-1 dim's stride is irrelevant.
  BoundArgs Args;
  Status S =
      bind(Gemm, {GA.get(), GB.get(), GC.get()}, {f32(1), boolean(0)}, Args);
  INFO(S.message());
  CHECK(S.ok());
  GA.withStrides({1, 4}); // Column-major.
  S = bind(Gemm, {GA.get(), GB.get(), GC.get()}, {f32(1), boolean(0)}, Args);
  CHECK_THAT(S.message(), Catch::Contains("tensor 'A' (index 0) is not "
                                          "contiguous: dim 1 has stride 4"));
}

TEST_CASE("addresses must be non-NULL and aligned", "[args]") {
  FakeTensor A(TILERT_DTYPE_F32, {8}), C(TILERT_DTYPE_F32, {8});
  FakeTensor B(TILERT_DTYPE_F32, {8});
  B->data = static_cast<char *>(B->data) + 2;
  CHECK_THAT(vectorAddError({A.get(), B.get(), C.get()}),
             Catch::Contains("tensor 'B' (index 1) address 0x7f0000000002 "
                             "(data + byte_offset 0) is not aligned to 16 "
                             "bytes"));
  FakeTensor Offset(TILERT_DTYPE_F32, {8});
  Offset->byte_offset = 4;
  CHECK_THAT(vectorAddError({A.get(), Offset.get(), C.get()}),
             Catch::Contains("(data + byte_offset 4) is not aligned to 16"));
  FakeTensor Null(TILERT_DTYPE_F32, {8});
  Null->data = nullptr;
  CHECK_THAT(vectorAddError({Null.get(), A.get(), C.get()}),
             Catch::Contains("tensor 'A' (index 0) has a NULL data pointer"));
  // Empty tensors have nothing to address.
  FakeTensor E1(TILERT_DTYPE_F32, {0}), E2(TILERT_DTYPE_F32, {0}),
      E3(TILERT_DTYPE_F32, {0});
  E1->data = nullptr;
  E2->byte_offset = 3;
  BoundArgs Args;
  Status S = bind(parseValid(baseMetadata()), {E1.get(), E2.get(), E3.get()},
                  {}, Args);
  INFO(S.message());
  CHECK(S.ok());
}

TEST_CASE("shapes must be non-negative and fit in 64 bits", "[args]") {
  FakeTensor A(TILERT_DTYPE_F32, {-1}), C(TILERT_DTYPE_F32, {8});
  CHECK_THAT(vectorAddError({A.get(), A.get(), C.get()}),
             Catch::Contains("tensor 'A' (index 0) dim 0 is negative (-1)"));
  KernelMetadata Gemm = parseValid(gemmLikeMetadata());
  int64_t Huge = int64_t(1) << 40;
  FakeTensor GA(TILERT_DTYPE_F32, {Huge, Huge}),
      GB(TILERT_DTYPE_F32, {Huge, 1}), GC(TILERT_DTYPE_F32, {Huge, 128});
  BoundArgs Args;
  Status S =
      bind(Gemm, {GA.get(), GB.get(), GC.get()}, {f32(1), boolean(0)}, Args);
  CHECK_THAT(S.message(), Catch::Contains("tensor 'A' (index 0) has more "
                                          "elements than fit in 64 bits"));
  FakeTensor BA(TILERT_DTYPE_F32, {int64_t(1) << 31, int64_t(1) << 31});
  FakeTensor BB(TILERT_DTYPE_F32, {int64_t(1) << 31, 1});
  FakeTensor BC(TILERT_DTYPE_F32, {int64_t(1) << 31, 128});
  S = bind(Gemm, {BA.get(), BB.get(), BC.get()}, {f32(1), boolean(0)}, Args);
  CHECK_THAT(S.message(), Catch::Contains("tensor 'A' (index 0) has more bytes "
                                          "than fit in 64 bits"));
}

TEST_CASE("scalars must have the kernel's dtype", "[args]") {
  KernelMetadata Gemm = parseValid(gemmLikeMetadata());
  FakeTensor A(TILERT_DTYPE_F32, {4, 8}), B(TILERT_DTYPE_F32, {8, 2}),
      C(TILERT_DTYPE_F32, {4, 128});
  BoundArgs Args;
  tilertScalar Double{};
  Double.dtype = TILERT_DTYPE_F64;
  Double.value.f64 = 1.0;
  Status S =
      bind(Gemm, {A.get(), B.get(), C.get()}, {Double, boolean(0)}, Args);
  CHECK(S.code() == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(S.message(), Catch::Contains("gemm: scalar 'alpha' (index 0) has "
                                          "dtype f64 but the kernel expects "
                                          "f32"));
  tilertScalar Garbage{};
  Garbage.dtype = static_cast<tilertDType>(99);
  S = bind(Gemm, {A.get(), B.get(), C.get()}, {f32(1), Garbage}, Args);
  CHECK_THAT(S.message(), Catch::Contains("scalar 'flag' (index 1) has an "
                                          "invalid dtype value 99"));
  S = bind(Gemm, {A.get(), B.get(), C.get()}, {f32(1), boolean(2)}, Args);
  CHECK_THAT(S.message(), Catch::Contains("is a bool but holds 2"));
  S = bind(Gemm, {A.get(), B.get(), C.get()}, {f32(1)}, Args);
  CHECK_THAT(S.message(), Catch::Contains("gemm takes 2 scalars (alpha, flag) "
                                          "but 1 were given"));
}
