//===- HostChecksTest.cpp - The GPU tests' host logic, without a GPU ------===//
//
// The references, the element conversions, the output comparison and the
// guard check the GPU tests rely on: a kernel that computes the reference
// exactly as the device rounds passes, anything else (a wrong element, an
// unwritten one, a touched guard byte) fails.
//
//===----------------------------------------------------------------------===//

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "DType.h"
#include "HostRandom.h"
#include "HostValues.h"
#include "KernelRef.h"
#include "OutputCheck.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace tilert;
using namespace tilert::gputest;

namespace {

/// The host side of a launch of a reference's kernel: random inputs and
/// scalars as the GPU tests draw them, and outputs filled by `fill`.
struct HostLaunch {
  std::vector<tilertDType> DTypes;
  std::vector<std::vector<int64_t>> Shapes;
  std::vector<std::vector<char>> Bytes;
  std::vector<const char *> Data;
  std::vector<double> Scalars;
  std::vector<int64_t> Dims;

  /// `ref` at `dims` with tensors of `dtypes`.
  HostLaunch(const KernelRef &ref, std::vector<tilertDType> dtypes,
             std::vector<int64_t> dims)
      : DTypes(std::move(dtypes)), Dims(std::move(dims)) {
    support::SplitMix64 Random(42);
    for (const RefScalar &Scalar : ref.Scalars) {
      double Value = Random.uniform(static_cast<float>(Scalar.Low),
                                    static_cast<float>(Scalar.High));
      Scalars.push_back(Scalar.DType == TILERT_DTYPE_I32 ? std::floor(Value)
                                                         : Value);
    }
    for (size_t I = 0; I < ref.Tensors.size(); ++I) {
      std::vector<int64_t> Shape;
      for (const char *Dim : ref.Tensors[I].Shape)
        for (size_t D = 0; D < ref.Dims.size(); ++D)
          if (std::strcmp(Dim, ref.Dims[D]) == 0)
            Shape.push_back(Dims[D]);
      size_t Count = 1;
      for (int64_t Extent : Shape)
        Count *= static_cast<size_t>(Extent);
      size_t Size = detail::dtypeSize(DTypes[I]);
      std::vector<char> Elements(Count * Size);
      for (size_t E = 0; E < Count; ++E) {
        double Value = Random.uniform(static_cast<float>(ref.InputLow),
                                      static_cast<float>(ref.InputHigh));
        if (DTypes[I] == TILERT_DTYPE_I32)
          Value = std::floor(Value);
        encodeValue(DTypes[I], Value, Elements.data() + E * Size);
      }
      Shapes.push_back(std::move(Shape));
      Bytes.push_back(std::move(Elements));
    }
    for (size_t I = 0; I < ref.Tensors.size(); ++I)
      Data.push_back(ref.Tensors[I].Output ? nullptr : Bytes[I].data());
  }

  RefInputs inputs() const {
    return RefInputs(DTypes, Shapes, Data, Scalars, Dims);
  }

  /// Stores the reference of every element of output `tensor` as a correct
  /// kernel would (rounded to the dtype).
  void computeOutput(const KernelRef &ref, size_t tensor) {
    RefInputs In = inputs();
    size_t Size = detail::dtypeSize(DTypes[tensor]);
    const std::vector<int64_t> &Shape = Shapes[tensor];
    std::vector<int64_t> Coords(Shape.size(), 0);
    for (size_t E = 0; E * Size < Bytes[tensor].size(); ++E) {
      double Magnitude = 0;
      double Value = ref.Compute(In, tensor, Coords.data(), Magnitude);
      encodeValue(DTypes[tensor], Value, Bytes[tensor].data() + E * Size);
      for (size_t Axis = Shape.size(); Axis-- > 0;) {
        if (++Coords[Axis] < Shape[Axis])
          break;
        Coords[Axis] = 0;
      }
    }
  }

  OutputCheck check(const KernelRef &ref, size_t tensor) const {
    return compareOutput(ref, inputs(), tensor, DTypes[tensor], Shapes[tensor],
                         Bytes[tensor].data());
  }
};

/// f32 for tensors whose dtype is a constant, else their fixed dtype.
std::vector<tilertDType> defaultDTypes(const KernelRef &ref) {
  std::vector<tilertDType> DTypes;
  for (const RefTensor &Tensor : ref.Tensors) {
    tilertDType Fixed = detail::parseDType(Tensor.DType);
    DTypes.push_back(Fixed == TILERT_DTYPE_INVALID ? TILERT_DTYPE_F32 : Fixed);
  }
  return DTypes;
}

size_t firstOutput(const KernelRef &ref) {
  for (size_t I = 0; I < ref.Tensors.size(); ++I)
    if (ref.Tensors[I].Output)
      return I;
  return ref.Tensors.size();
}

/// Metadata with `ref`'s signature, dtypes from `constants`.
detail::KernelMetadata metadataFor(const KernelRef &ref,
                                   nlohmann::json constants) {
  detail::KernelMetadata Metadata;
  Metadata.Name = ref.Name;
  Metadata.Constants = std::move(constants);
  for (const char *Dim : ref.Dims)
    Metadata.Dims.push_back(Dim);
  for (const RefTensor &Tensor : ref.Tensors) {
    detail::TensorParam Param;
    Param.Name = Tensor.Name;
    tilertDType DType = detail::parseDType(Tensor.DType);
    if (DType == TILERT_DTYPE_INVALID)
      DType = detail::parseDType(
          Metadata.Constants[Tensor.DType].get<std::string>());
    Param.DType = DType;
    for (const char *Dim : Tensor.Shape)
      for (size_t D = 0; D < ref.Dims.size(); ++D)
        if (std::strcmp(Dim, ref.Dims[D]) == 0)
          Param.Shape.push_back({static_cast<int32_t>(D), 0});
    Metadata.Tensors.push_back(Param);
  }
  for (const RefScalar &Scalar : ref.Scalars)
    Metadata.Scalars.push_back({Scalar.Name, Scalar.DType});
  return Metadata;
}

} // namespace

TEST_CASE("normal samples have the standard normal's moments", "[gpu-host]") {
  // tile-bench's inputs (tools/tile-bench/DeviceTensors.cpp).
  support::SplitMix64 Random(7);
  const int Count = 200000;
  double Sum = 0, Squares = 0, Fourth = 0, Largest = 0;
  int NonFinite = 0;
  for (int I = 0; I < Count; ++I) {
    double X = Random.normal();
    NonFinite += !std::isfinite(X);
    Sum += X;
    Squares += X * X;
    Fourth += X * X * X * X;
    Largest = std::max(Largest, std::abs(X));
  }
  CHECK(NonFinite == 0);
  CHECK(std::abs(Sum / Count) < 0.01);
  CHECK(std::abs(Squares / Count - 1) < 0.02);
  CHECK(std::abs(Fourth / Count - 3) < 0.1);
  CHECK(Largest > 3.5);
  CHECK(Largest < 7);
}

TEST_CASE("elements round like the device's conversions", "[gpu-host]") {
  CHECK(roundTo(TILERT_DTYPE_F16, 2049) == 2048); // Tie to even.
  CHECK(roundTo(TILERT_DTYPE_F16, 2051) == 2052); // Tie to even.
  CHECK(roundTo(TILERT_DTYPE_F16, 2050.5) == 2050);
  CHECK(roundTo(TILERT_DTYPE_F16, 70000) == INFINITY);
  CHECK(roundTo(TILERT_DTYPE_BF16, 1 + std::ldexp(1.0, -8)) == 1);
  CHECK(roundTo(TILERT_DTYPE_BF16, 3001) == 3008);
  CHECK(roundTo(TILERT_DTYPE_I32, -2.75) == -2); // fptosi truncates.
  CHECK(roundTo(TILERT_DTYPE_I32, 2.75) == 2);
  CHECK(roundTo(TILERT_DTYPE_F32, 0.1) == static_cast<float>(0.1));
  char Bytes[4];
  for (tilertDType DType : {TILERT_DTYPE_F32, TILERT_DTYPE_F16,
                            TILERT_DTYPE_BF16, TILERT_DTYPE_I32}) {
    encodeValue(DType, -123, Bytes);
    CHECK(decodeValue(DType, Bytes) == -123);
    CHECK_FALSE(isPoison(DType, Bytes));
  }
}

TEST_CASE("the poison is NaN for floats and never matches", "[gpu-host]") {
  for (tilertDType DType : {TILERT_DTYPE_F32, TILERT_DTYPE_F16,
                            TILERT_DTYPE_BF16, TILERT_DTYPE_I32}) {
    uint32_t Bits = poisonBits(DType);
    char Bytes[4];
    if (detail::dtypeSize(DType) == 4) {
      std::memcpy(Bytes, &Bits, 4);
    } else {
      uint16_t Half = static_cast<uint16_t>(Bits);
      std::memcpy(Bytes, &Half, 2);
    }
    CHECK(isPoison(DType, Bytes));
    double Value = decodeValue(DType, Bytes);
    if (DType == TILERT_DTYPE_I32)
      CHECK(Value == static_cast<int32_t>(0x8badf00du));
    else
      CHECK(std::isnan(Value));
  }
}

TEST_CASE("every reference is consistent", "[gpu-host]") {
  for (const KernelRef &Ref : allKernelRefs()) {
    INFO("kernel " << Ref.Name);
    REQUIRE(findKernelRef(Ref.Name) == &Ref);
    REQUIRE(Ref.Compute);
    REQUIRE(firstOutput(Ref) < Ref.Tensors.size());
    REQUIRE_FALSE(Ref.Shapes.empty());
    for (const RefTensor &Tensor : Ref.Tensors)
      for (const char *Dim : Tensor.Shape) {
        bool Declared = false;
        for (const char *Name : Ref.Dims)
          Declared = Declared || std::strcmp(Dim, Name) == 0;
        INFO("tensor " << Tensor.Name << " dim " << Dim);
        CHECK(Declared);
      }
    for (const std::vector<int64_t> &Dims : Ref.Shapes) {
      REQUIRE(Dims.size() == Ref.Dims.size());
      for (int64_t Dim : Dims)
        CHECK(Dim >= 1);
    }
    // The signature the reference describes is accepted.
    nlohmann::json Constants = {
        {"dtype", "f16"}, {"src", "f16"}, {"dst", "i32"}};
    std::vector<tilertDType> DTypes;
    CHECK(checkSignature(metadataFor(Ref, Constants), Ref, DTypes) == "");
    CHECK(DTypes.size() == Ref.Tensors.size());
  }
}

TEST_CASE("a kernel that computes the reference passes, at every small shape",
          "[gpu-host]") {
  for (const KernelRef &Ref : allKernelRefs()) {
    for (const std::vector<int64_t> &Dims : Ref.Shapes) {
      int64_t Points = 1;
      for (int64_t Dim : Dims)
        Points *= Dim;
      if (Points > 100000)
        continue;
      HostLaunch Launch(Ref, defaultDTypes(Ref), Dims);
      for (size_t I = 0; I < Ref.Tensors.size(); ++I) {
        if (!Ref.Tensors[I].Output)
          continue;
        INFO("kernel " << Ref.Name << ", output " << Ref.Tensors[I].Name << ", "
                       << Points << " points");
        Launch.computeOutput(Ref, I);
        OutputCheck Check = Launch.check(Ref, I);
        INFO(Check.Detail);
        CHECK(Check.Passed);
        CHECK(Check.Mismatches == 0);
      }
    }
  }
}

TEST_CASE("wrong and unwritten elements fail", "[gpu-host]") {
  const KernelRef *Copy = findKernelRef("copy2d");
  REQUIRE(Copy);
  HostLaunch Launch(*Copy, {TILERT_DTYPE_F16, TILERT_DTYPE_F16}, {7, 13});
  Launch.computeOutput(*Copy, 1);
  REQUIRE(Launch.check(*Copy, 1).Passed);

  // One f16 ulp off at [3, 5] (element 3 * 13 + 5).
  std::vector<char> &Y = Launch.Bytes[1];
  uint16_t Bits;
  std::memcpy(&Bits, Y.data() + 2 * 44, 2);
  Bits ^= 1;
  std::memcpy(Y.data() + 2 * 44, &Bits, 2);
  OutputCheck Off = Launch.check(*Copy, 1);
  CHECK_FALSE(Off.Passed);
  CHECK(Off.Mismatches == 1);
  CHECK(Off.Unwritten == 0);
  CHECK(Off.Detail.find("first at [3, 5]") != std::string::npos);

  // The last row never written.
  uint16_t Poison = static_cast<uint16_t>(poisonBits(TILERT_DTYPE_F16));
  for (int N = 0; N < 13; ++N)
    std::memcpy(Y.data() + 2 * (6 * 13 + N), &Poison, 2);
  OutputCheck Unwritten = Launch.check(*Copy, 1);
  CHECK_FALSE(Unwritten.Passed);
  CHECK(Unwritten.Mismatches == 14);
  CHECK(Unwritten.Unwritten == 13);
  CHECK(Unwritten.Detail.find("13 never written") != std::string::npos);
}

TEST_CASE("rounded outputs are held to the dtype's tolerance", "[gpu-host]") {
  const KernelRef *Gelu = findKernelRef("gelu_forward");
  REQUIRE(Gelu);
  HostLaunch Launch(*Gelu, {TILERT_DTYPE_F32, TILERT_DTYPE_F32}, {1000});
  Launch.computeOutput(*Gelu, 1);
  OutputCheck Good = Launch.check(*Gelu, 1);
  INFO(Good.Detail);
  CHECK(Good.Passed);
  CHECK(Good.RelFrobenius < 1e-7);

  // 1e-4 relative is far outside f32's tolerance.
  float Value;
  std::memcpy(&Value, Launch.Bytes[1].data() + 4 * 10, 4);
  Value = Value * 1.0001f + 1e-3f;
  std::memcpy(Launch.Bytes[1].data() + 4 * 10, &Value, 4);
  OutputCheck Bad = Launch.check(*Gelu, 1);
  CHECK_FALSE(Bad.Passed);
  CHECK(Bad.Mismatches == 1);
  CHECK(Bad.Detail.find("first at [10]") != std::string::npos);

  float NaN = std::nanf("");
  std::memcpy(Launch.Bytes[1].data(), &NaN, 4);
  CHECK(Launch.check(*Gelu, 1).Mismatches == 2);
}

TEST_CASE("references read the right elements", "[gpu-host]") {
  const KernelRef *Transpose = findKernelRef("transpose");
  REQUIRE(Transpose);
  HostLaunch T(*Transpose, {TILERT_DTYPE_F32, TILERT_DTYPE_F32}, {3, 5});
  double Magnitude = 0;
  int64_t YCoords[] = {4, 1}; // Y[4, 1] = X[1, 4].
  CHECK(Transpose->Compute(T.inputs(), 1, YCoords, Magnitude) ==
        T.inputs().at(0, {1, 4}));

  const KernelRef *Iota = findKernelRef("iota2d");
  REQUIRE(Iota);
  HostLaunch I(*Iota, {TILERT_DTYPE_I32}, {4097, 33});
  int64_t Last[] = {4096, 32};
  CHECK(Iota->Compute(I.inputs(), 0, Last, Magnitude) ==
        4097.0 * 33 - 1 + I.Scalars[0]);

  const KernelRef *Affine = findKernelRef("affine2d");
  REQUIRE(Affine);
  HostLaunch A(*Affine,
               {TILERT_DTYPE_F16, TILERT_DTYPE_F16, TILERT_DTYPE_F32,
                TILERT_DTYPE_F32, TILERT_DTYPE_F16},
               {7, 13});
  RefInputs In = A.inputs();
  int64_t At[] = {6, 12};
  double Expected = In.scalar(0) * In.at(0, {6, 12}) +
                    In.scalar(1) * In.at(1, {6, 12}) +
                    In.at(2, {12}) * In.at(3, {6});
  CHECK(Affine->Compute(In, 4, At, Magnitude) == Expected);

  const KernelRef *Horner = findKernelRef("horner");
  REQUIRE(Horner);
  HostLaunch H(*Horner, {TILERT_DTYPE_F32, TILERT_DTYPE_F32}, {2, 3});
  RefInputs HIn = H.inputs();
  double X = HIn.at(0, {1, 2});
  double Polynomial = HIn.scalar(0) + HIn.scalar(1) * X +
                      HIn.scalar(2) * X * X + HIn.scalar(3) * X * X * X;
  int64_t HAt[] = {1, 2};
  CHECK(Horner->Compute(HIn, 1, HAt, Magnitude) ==
        Approx(std::ldexp(Polynomial, -static_cast<int>(HIn.scalar(4))))
            .epsilon(1e-12));

  // Out of bounds reads are NaN, so a reference that reads them never passes.
  CHECK(std::isnan(In.at(0, {7, 0})));
  CHECK(std::isnan(In.at(0, {0})));
  CHECK(std::isnan(In.at(4, {0, 0})));
}

TEST_CASE("signature mismatches are reported", "[gpu-host]") {
  const KernelRef *Convert = findKernelRef("convert");
  REQUIRE(Convert);
  std::vector<tilertDType> DTypes;
  detail::KernelMetadata Good =
      metadataFor(*Convert, {{"src", "bf16"}, {"dst", "i32"}});
  REQUIRE(checkSignature(Good, *Convert, DTypes) == "");
  CHECK(DTypes ==
        std::vector<tilertDType>{TILERT_DTYPE_BF16, TILERT_DTYPE_I32});

  detail::KernelMetadata WrongDType = Good;
  WrongDType.Tensors[1].DType = TILERT_DTYPE_F32;
  CHECK(checkSignature(WrongDType, *Convert, DTypes) ==
        "tensor 1 is not 'Y: i32[M, N]'");

  detail::KernelMetadata Unsupported = Good;
  Unsupported.Constants["dst"] = "f64";
  CHECK(checkSignature(Unsupported, *Convert, DTypes)
            .find("is not one of f32, f16, bf16, i32") != std::string::npos);

  detail::KernelMetadata Swapped = Good;
  std::swap(Swapped.Tensors[0].Shape[0], Swapped.Tensors[0].Shape[1]);
  CHECK(checkSignature(Swapped, *Convert, DTypes) ==
        "tensor 0 is not 'X: bf16[M, N]'");

  detail::KernelMetadata ExtraScalar = Good;
  ExtraScalar.Scalars.push_back({"alpha", TILERT_DTYPE_F32});
  CHECK(checkSignature(ExtraScalar, *Convert, DTypes) ==
        "expected 0 scalars, found 1");

  CHECK(findKernelRef("no_such_kernel") == nullptr);
}

TEST_CASE("guard regions report modified bytes", "[gpu-host]") {
  std::vector<char> Guard(GuardBytes, static_cast<char>(GuardFill));
  CHECK(checkGuard(Guard.data(), Guard.size()) == "");
  Guard[17] = 0;
  Guard[4000] = 1;
  CHECK(checkGuard(Guard.data(), Guard.size()) ==
        "2 of 65536 bytes modified, first at +17");
}
