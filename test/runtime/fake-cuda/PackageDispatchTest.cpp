//===- PackageDispatchTest.cpp - Package dispatch on the fake driver ------===//
//
// tilertPackageSelect and tilertPackageLaunch on the fake driver
// (FakeCuda.cpp: one device named "Fake CUDA device", compute capability
// from FAKE_CUDA_CC): the selection rule (exact and nearest tuned shapes,
// ties, other device names, architecture fallbacks), the selection cache,
// and launches of the selected variant.
//
//===----------------------------------------------------------------------===//

#include "FakeDriverControl.h"

#include "tilert/tilert.hpp"

#include "../TestSupport.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace tilert::test;
using nlohmann::json;

namespace {

/// The fake device's name (FakeCuda.cpp).
const char *const DeviceName = "Fake CUDA device";

/// Sets the fake device's compute capability for the scope's lifetime.
class ComputeCapability {
public:
  explicit ComputeCapability(const char *value) {
    ::setenv("FAKE_CUDA_CC", value, 1);
  }
  ComputeCapability(const ComputeCapability &) = delete;
  ComputeCapability &operator=(const ComputeCapability &) = delete;
  ~ComputeCapability() { ::unsetenv("FAKE_CUDA_CC"); }
};

/// gemmLikeMetadata() with grid x ceildiv(N, `blockN`), so that a launch
/// tells the variants apart.
json gemmVariant(int blockN) {
  json Document = gemmLikeMetadata();
  Document["launch"]["grid"] = {"ceildiv(N, " + std::to_string(blockN) + ")",
                                "ceildiv(M, 128)", "1"};
  return Document;
}

/// A package of variants "gemm" (block N 128) for sm_90a and sm_80,
/// "gemm-block_N_256" and "gemm-block_N_64" for sm_90a; default "gemm".
struct DispatchPackage {
  TempDir Dir;
  json Index;

  DispatchPackage() {
    Dir.writeVariant("gemm", "sm_90a", gemmVariant(128));
    Dir.writeVariant("gemm-block_N_256", "sm_90a", gemmVariant(256));
    Dir.writeVariant("gemm-block_N_64", "sm_90a", gemmVariant(64));
    Dir.writeVariant("gemm", "sm_80", gemmVariant(128));
    Index = packageIndex("gemm",
                         {packageVariant("gemm", "sm_90a"),
                          packageVariant("gemm-block_N_256", "sm_90a"),
                          packageVariant("gemm-block_N_64", "sm_90a"),
                          packageVariant("gemm", "sm_80")},
                         "gemm");
    Dir.write("index.json", Index.dump(2));
  }

  /// Writes tuning.json: on `device`, each of `shapes` ({M, K, N}) tuned
  /// with its best variant for `arch`.
  void
  tune(const std::string &device,
       const std::vector<std::pair<std::vector<int64_t>, std::string>> &shapes,
       const std::string &arch = "sm_90a") const {
    json Shapes = json::array();
    for (const auto &[Dims, Best] : shapes)
      Shapes.push_back(
          {{"dims", {{"M", Dims[0]}, {"K", Dims[1]}, {"N", Dims[2]}}},
           {"best", {{"variant", Best}, {"arch", arch}, {"median_ms", 0.1}}}});
    json Tuning = {{"schema", "tilec.tuning/1"},
                   {"kernel", "gemm"},
                   {"devices", {{{"device", device}, {"shapes", Shapes}}}}};
    Dir.write("tuning.json", Tuning.dump(2));
  }
};

/// The variant `package` selects on device 0 for {M, K, N} and its arch.
std::string selected(const tilert::Package &package,
                     std::vector<int64_t> dims) {
  tilert::Selection Chosen = package.select(0, dims);
  return Chosen.variant + " " + Chosen.kernel.arch();
}

} // namespace

TEST_CASE("without a tuning database the default variant runs",
          "[fake-driver][package]") {
  DispatchPackage Test;
  {
    ComputeCapability Hopper("9.0");
    tilert::Package Package(Test.Dir.path());
    CHECK(selected(Package, {4096, 4096, 4096}) == "gemm sm_90a");
  }
  {
    // sm_90a SASS does not run on 8.6: the sm_80 build of the default.
    ComputeCapability Ampere("8.6");
    tilert::Package Package(Test.Dir.path());
    CHECK(selected(Package, {4096, 4096, 4096}) == "gemm sm_80");
  }
}

TEST_CASE("the tuned best of the exact or nearest tuned shape runs",
          "[fake-driver][package]") {
  ComputeCapability Hopper("9.0");
  DispatchPackage Test;
  Test.tune(DeviceName, {{{4096, 4096, 4096}, "gemm-block_N_256"},
                         {{16, 8192, 8192}, "gemm-block_N_64"},
                         {{64, 8192, 8192}, "gemm"}});
  tilert::Package Package(Test.Dir.path());
  CHECK(Package.tuned());
  CHECK(selected(Package, {4096, 4096, 4096}) == "gemm-block_N_256 sm_90a");
  CHECK(selected(Package, {16, 8192, 8192}) == "gemm-block_N_64 sm_90a");
  // Nearest by the sum of |log2 d - log2 t|: 3000 is nearer 4096.
  CHECK(selected(Package, {3000, 4096, 5000}) == "gemm-block_N_256 sm_90a");
  CHECK(selected(Package, {8, 8192, 8192}) == "gemm-block_N_64 sm_90a");
  // M = 32 is 1 from both 16 and 64: the first in file order.
  CHECK(selected(Package, {32, 8192, 8192}) == "gemm-block_N_64 sm_90a");
  // Empty dims count as 1.
  CHECK(selected(Package, {0, 8192, 8192}) == "gemm-block_N_64 sm_90a");
}

TEST_CASE("another device name, or a tuned best that cannot run, gets the "
          "default",
          "[fake-driver][package]") {
  DispatchPackage Test;
  SECTION("another name") {
    ComputeCapability Hopper("9.0");
    Test.tune("NVIDIA H200", {{{4096, 4096, 4096}, "gemm-block_N_256"}});
    tilert::Package Package(Test.Dir.path());
    CHECK(selected(Package, {4096, 4096, 4096}) == "gemm sm_90a");
  }
  SECTION("a best for another architecture") {
    ComputeCapability Ampere("8.0");
    Test.tune(DeviceName, {{{4096, 4096, 4096}, "gemm-block_N_256"}});
    tilert::Package Package(Test.Dir.path());
    CHECK(selected(Package, {4096, 4096, 4096}) == "gemm sm_80");
  }
  SECTION("the tuned sm_80 build") {
    ComputeCapability Ampere("8.0");
    Test.tune(DeviceName, {{{4096, 4096, 4096}, "gemm"}}, "sm_80");
    tilert::Package Package(Test.Dir.path());
    CHECK(selected(Package, {4096, 4096, 4096}) == "gemm sm_80");
  }
}

TEST_CASE("no runnable variant is an architecture mismatch",
          "[fake-driver][package]") {
  ComputeCapability Turing("7.5");
  DispatchPackage Test;
  tilert::Package Package(Test.Dir.path());
  try {
    Package.select(0, {64, 64, 64});
    FAIL("a variant was selected");
  } catch (const tilert::Error &E) {
    CHECK(E.status() == TILERT_ERROR_ARCH_MISMATCH);
    CHECK_THAT(E.message(), Catch::Contains("package '" + Test.Dir.path() +
                                            "' (kernel gemm): no variant can "
                                            "run on CUDA device 0 (Fake CUDA "
                                            "device"));
    CHECK_THAT(E.message(),
               Catch::Contains("its default variant 'gemm' is built for "
                               "sm_90a, sm_80"));
  }
}

TEST_CASE("selections are checked and cached per device and dims",
          "[fake-driver][package]") {
  ComputeCapability Hopper("9.0");
  const FakeDriver &Driver = fakeDriver();
  DispatchPackage Test;
  Test.tune(DeviceName, {{{4096, 4096, 4096}, "gemm-block_N_256"}});
  tilert::Package Package(Test.Dir.path());
  tilertKernel First = nullptr, Second = nullptr;
  const char *Name = nullptr;
  int64_t Dims[] = {4096, 4096, 4096};
  Driver.reset();
  REQUIRE(tilertPackageSelect(Package.handle(), 0, Dims, 3, &First, &Name) ==
          TILERT_SUCCESS);
  CHECK(std::string(Name) == "gemm-block_N_256");
  uint64_t Calls = Driver.totalCalls();
  CHECK(Calls > 0);
  REQUIRE(tilertPackageSelect(Package.handle(), 0, Dims, 3, &Second, nullptr) ==
          TILERT_SUCCESS);
  CHECK(Second == First);
  CHECK(Driver.totalCalls() == Calls);
  // Another shape selects again, without querying the device again.
  int64_t Other[] = {64, 64, 64};
  REQUIRE(tilertPackageSelect(Package.handle(), 0, Other, 3, &Second, &Name) ==
          TILERT_SUCCESS);
  CHECK(Second == First);
  CHECK(Driver.totalCalls() == Calls);

  tilertKernel Kernel = nullptr;
  CHECK(tilertPackageSelect(Package.handle(), 0, Dims, 2, &Kernel, &Name) ==
        TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(tilertGetLastErrorMessage(),
             Catch::Contains("gemm has 3 dims (M, K, N) but 2 were given"));
  int64_t Negative[] = {64, -1, 64};
  CHECK(tilertPackageSelect(Package.handle(), 0, Negative, 3, &Kernel, &Name) ==
        TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(tilertGetLastErrorMessage(),
             Catch::Contains("gemm: dim 'K' is negative (-1)"));
  CHECK(tilertPackageSelect(Package.handle(), 3, Dims, 3, &Kernel, &Name) ==
        TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(tilertGetLastErrorMessage(),
             Catch::Contains("CUDA device 3 does not exist (1 device "
                             "present)"));
  CHECK(Kernel == nullptr);
}

TEST_CASE("a corrupt variant fails its first selection, naming it",
          "[fake-driver][package]") {
  ComputeCapability Hopper("9.0");
  DispatchPackage Test;
  Test.Dir.write("gemm-block_N_256.sm_90a.cubin", "tampered");
  Test.tune(DeviceName,
            {{{4096, 4096, 4096}, "gemm-block_N_256"}, {{64, 64, 64}, "gemm"}});
  tilert::Package Package(Test.Dir.path());
  // The other variants load.
  CHECK(selected(Package, {64, 64, 64}) == "gemm sm_90a");
  try {
    Package.select(0, {4096, 4096, 4096});
    FAIL("the tampered variant was selected");
  } catch (const tilert::Error &E) {
    CHECK(E.status() == TILERT_ERROR_CHECKSUM);
    CHECK_THAT(E.message(),
               Catch::Contains("variant 'gemm-block_N_256' (sm_90a): "));
  }
}

TEST_CASE("a package launch runs the selected variant",
          "[fake-driver][package]") {
  ComputeCapability Hopper("9.0");
  DispatchPackage Test;
  Test.tune(DeviceName, {{{64, 7, 1024}, "gemm-block_N_256"},
                         {{4096, 7, 4096}, "gemm-block_N_64"}});
  tilert::Package Package(Test.Dir.path());
  fakeDriver().setParamCount(8);
  auto Launch = [&](int64_t M, int64_t N) {
    FakeTensor A(TILERT_DTYPE_F32, {M, 7}), B(TILERT_DTYPE_F32, {7, N}),
        C(TILERT_DTYPE_F32, {M, 128});
    Package.launch({A.get(), B.get(), C.get()},
                   {tilert::Scalar::f32(0.5f), tilert::Scalar::boolean(true)});
    FakeCudaLaunch Launched = lastLaunch();
    CHECK(Launched.params[0] == reinterpret_cast<uintptr_t>(A->data));
    CHECK(Launched.params[3] == static_cast<uint64_t>(M));
    CHECK(Launched.params[5] == static_cast<uint64_t>(N));
    return Launched.grid[0];
  };
  CHECK(Launch(64, 1024) == 4);    // ceildiv(1024, 256)
  CHECK(Launch(4096, 4096) == 64); // ceildiv(4096, 64)
  CHECK(Launch(100, 1000) == 4);   // nearest: 64 x 1024
  CHECK(Launch(64, 1024) == 4);

  // The same arguments launched through the selected variant directly.
  FakeTensor A(TILERT_DTYPE_F32, {64, 7}), B(TILERT_DTYPE_F32, {7, 1024}),
      C(TILERT_DTYPE_F32, {64, 128});
  tilert::Selection Chosen = Package.select(0, {64, 7, 1024});
  Chosen.kernel.launch(
      {A.get(), B.get(), C.get()},
      {tilert::Scalar::f32(0.5f), tilert::Scalar::boolean(true)});
  FakeCudaLaunch Direct = lastLaunch();
  Package.launch({A.get(), B.get(), C.get()},
                 {tilert::Scalar::f32(0.5f), tilert::Scalar::boolean(true)});
  FakeCudaLaunch Dispatched = lastLaunch();
  CHECK(Dispatched.count == Direct.count + 1);
  for (int I = 0; I < 3; ++I)
    CHECK(Dispatched.grid[I] == Direct.grid[I]);
  for (int I = 0; I < 8; ++I)
    CHECK(Dispatched.params[I] == Direct.params[I]);
}

TEST_CASE("a package launch checks its arguments as a kernel launch does",
          "[fake-driver][package]") {
  ComputeCapability Hopper("9.0");
  DispatchPackage Test;
  tilert::Package Package(Test.Dir.path());
  tilert::KernelView Default = Package.select(0, {64, 7, 1024}).kernel;
  FakeTensor A(TILERT_DTYPE_F32, {64, 7}), B(TILERT_DTYPE_F32, {7, 1024}),
      C(TILERT_DTYPE_F32, {64, 128}), Wrong(TILERT_DTYPE_F32, {65, 128}),
      Half(TILERT_DTYPE_F16, {7, 1024});
  auto Messages = [&](auto launch) {
    std::string Text;
    try {
      launch();
      FAIL("the launch succeeded");
    } catch (const tilert::Error &E) {
      CHECK(E.status() == TILERT_ERROR_INVALID_ARGUMENT);
      Text = E.message();
    }
    return Text;
  };
  uint64_t Before = lastLaunch().count;
  tilert::Scalar Scalars[] = {tilert::Scalar::f32(1.0f),
                              tilert::Scalar::boolean(false)};
  const DLTensor *Inconsistent[] = {A.get(), B.get(), Wrong.get()};
  const DLTensor *WrongDType[] = {A.get(), Half.get(), C.get()};
  for (const DLTensor *const *Args : {Inconsistent, WrongDType}) {
    std::string Direct = Messages([&] {
      Default.launch({Args, 3}, {Scalars, 2});
    });
    std::string Dispatched = Messages([&] {
      Package.launch({Args, 3}, {Scalars, 2});
    });
    CHECK(Dispatched == Direct);
  }
  std::string Count = Messages([&] { Package.launch({A.get(), B.get()}); });
  CHECK_THAT(Count, Catch::Contains(
                        "gemm takes 3 tensors (A, B, C) but 2 were given"));
  CHECK(lastLaunch().count == Before);
  CHECK(tilertPackageLaunch(nullptr, nullptr, 0, nullptr, 0, nullptr) ==
        TILERT_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("a variant with a stricter alignment checks it at launch",
          "[fake-driver][package]") {
  ComputeCapability Hopper("9.0");
  DispatchPackage Test;
  json Strict = gemmVariant(256);
  Strict["params"][0]["alignment"] = 256;
  Test.Dir.writeVariant("gemm-block_N_256", "sm_90a", Strict);
  Test.tune(DeviceName,
            {{{64, 7, 1024}, "gemm-block_N_256"}, {{4096, 7, 4096}, "gemm"}});
  tilert::Package Package(Test.Dir.path());
  FakeTensor A(TILERT_DTYPE_F32, {64, 7}), B(TILERT_DTYPE_F32, {7, 1024}),
      C(TILERT_DTYPE_F32, {64, 128});
  A->byte_offset = 16;
  try {
    Package.launch({A.get(), B.get(), C.get()},
                   {tilert::Scalar::f32(1.0f), tilert::Scalar::boolean(false)});
    FAIL("the launch succeeded");
  } catch (const tilert::Error &E) {
    CHECK_THAT(E.message(), Catch::Contains("is not aligned to 256 bytes"));
  }
  FakeTensor BigA(TILERT_DTYPE_F32, {4096, 7}),
      BigB(TILERT_DTYPE_F32, {7, 4096}), BigC(TILERT_DTYPE_F32, {4096, 128});
  BigA->byte_offset = 16;
  Package.launch({BigA.get(), BigB.get(), BigC.get()},
                 {tilert::Scalar::f32(1.0f), tilert::Scalar::boolean(false)});
  CHECK(lastLaunch().grid[0] == 32); // ceildiv(4096, 128)
}

TEST_CASE("a repeated shape costs the package launch one cache lookup",
          "[fake-driver][package]") {
  // Prints the host time of a launch through the package and through its
  // variant on the fake driver; the difference is the dispatch.
  ComputeCapability Hopper("9.0");
  DispatchPackage Test;
  tilert::Package Package(Test.Dir.path());
  FakeTensor A(TILERT_DTYPE_F32, {64, 32}), B(TILERT_DTYPE_F32, {32, 48}),
      C(TILERT_DTYPE_F32, {64, 128});
  const DLTensor *Tensors[] = {A.get(), B.get(), C.get()};
  tilert::Scalar Scalars[] = {tilert::Scalar::f32(1.0f),
                              tilert::Scalar::boolean(false)};
  tilert::KernelView Variant = Package.select(0, {64, 32, 48}).kernel;
  auto Time = [&](auto launch) {
    constexpr int Launches = 200000;
    for (int I = 0; I < 1000; ++I)
      launch();
    auto Start = std::chrono::steady_clock::now();
    for (int I = 0; I < Launches; ++I)
      launch();
    std::chrono::duration<double, std::nano> Elapsed =
        std::chrono::steady_clock::now() - Start;
    return Elapsed.count() / Launches;
  };
  double Direct = Time([&] { Variant.launch({Tensors, 3}, {Scalars, 2}); });
  double Dispatched = Time([&] { Package.launch({Tensors, 3}, {Scalars, 2}); });
  std::printf("host time per launch on the fake driver: variant %.1f ns, "
              "package %.1f ns (dispatch %.1f ns)\n",
              Direct, Dispatched, Dispatched - Direct);
  CHECK(Dispatched > 0);
}

TEST_CASE("threads select and launch one package concurrently",
          "[fake-driver][package]") {
  ComputeCapability Hopper("9.0");
  DispatchPackage Test;
  Test.tune(DeviceName, {{{64, 7, 1024}, "gemm-block_N_256"},
                         {{4096, 7, 4096}, "gemm-block_N_64"}});
  tilert::Package Package(Test.Dir.path());
  std::atomic<int> Failures{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < 8; ++T)
    Threads.emplace_back([&, T] {
      for (int I = 0; I < 200; ++I) {
        int64_t M = (I + T) % 2 ? 64 : 4096, N = (I + T) % 2 ? 1024 : 4096;
        FakeTensor A(TILERT_DTYPE_F32, {M, 7}), B(TILERT_DTYPE_F32, {7, N}),
            C(TILERT_DTYPE_F32, {M, 128});
        const DLTensor *Tensors[] = {A.get(), B.get(), C.get()};
        tilertScalar Scalars[] = {tilert::Scalar::f32(1.0f).raw(),
                                  tilert::Scalar::boolean(false).raw()};
        tilertKernel Kernel = nullptr;
        const char *Name = nullptr;
        int64_t Dims[] = {M, 7, N};
        if (tilertPackageLaunch(Package.handle(), Tensors, 3, Scalars, 2,
                                nullptr) != TILERT_SUCCESS ||
            tilertPackageSelect(Package.handle(), 0, Dims, 3, &Kernel, &Name) !=
                TILERT_SUCCESS ||
            std::string(Name) !=
                (M == 64 ? "gemm-block_N_256" : "gemm-block_N_64"))
          ++Failures;
      }
    });
  for (std::thread &Thread : Threads)
    Thread.join();
  CHECK(Failures == 0);
}
