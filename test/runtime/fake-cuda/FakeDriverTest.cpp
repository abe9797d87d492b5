//===- FakeDriverTest.cpp - Whole launches on the fake driver -------------===//
//
// Runs libtilert's launch path to the end (module load, stream check,
// cuLaunchKernelEx) on the fake driver of FakeCuda.cpp, which CTest puts in
// LD_LIBRARY_PATH: the parameters that reach the driver, which driver calls a
// launch makes (only those CUDA graph capture allows), and that a warm launch
// allocates no host memory.
//
//===----------------------------------------------------------------------===//

#include "FakeDriverControl.h"

#include "tilert/tilert.hpp"

#include "../TestSupport.h"
#include "Driver.h"

#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

using namespace tilert::test;
using nlohmann::json;

namespace {

/// Counts operator new calls on this thread while Counting is set.
thread_local bool Counting = false;
thread_local size_t Allocations = 0;

CUstream streamValue(uint64_t value) {
  return reinterpret_cast<CUstream>(static_cast<uintptr_t>(value));
}

} // namespace

// Not inlined: GCC would see memory from malloc() reach operator delete, or
// free() on memory from operator new, and warn (-Wmismatched-new-delete).
[[gnu::noinline]] void *operator new(size_t size) {
  if (Counting)
    ++Allocations;
  if (void *Memory = std::malloc(size ? size : 1))
    return Memory;
  throw std::bad_alloc();
}

[[gnu::noinline]] void operator delete(void *memory) noexcept {
  std::free(memory);
}

[[gnu::noinline]] void operator delete(void *memory, size_t) noexcept {
  std::free(memory);
}

TEST_CASE("a launch reaches the driver with the ABI's parameters",
          "[fake-driver]") {
  const FakeDriver &Driver = fakeDriver();
  TempDir Dir;
  json Document = gemmLikeMetadata();
  Document["launch"]["grid"] = {"ceildiv(N, 128)", "ceildiv(M, 64)", "1"};
  tilert::Kernel Kernel(Dir.writeKernel(Document));
  FakeTensor A(TILERT_DTYPE_F32, {100, 7}), B(TILERT_DTYPE_F32, {7, 300}),
      C(TILERT_DTYPE_F32, {100, 128});
  Driver.reset();
  Driver.setParamCount(8);
  Kernel.launch({A.get(), B.get(), C.get()},
                {tilert::Scalar::f32(0.5f), tilert::Scalar::boolean(true)},
                streamValue(0x5000));
  FakeCudaLaunch Launch = lastLaunch();
  REQUIRE(Launch.count == 1);
  CHECK(Launch.grid[0] == 3);
  CHECK(Launch.grid[1] == 2);
  CHECK(Launch.grid[2] == 1);
  CHECK(Launch.block[0] == Kernel.info().block[0]);
  CHECK(Launch.stream == 0x5000);
  CHECK(Launch.num_attributes == 0);
  CHECK(Launch.params[0] == reinterpret_cast<uintptr_t>(A->data));
  CHECK(Launch.params[2] == reinterpret_cast<uintptr_t>(C->data));
  CHECK(Launch.params[3] == 100);
  CHECK(Launch.params[4] == 7);
  CHECK(Launch.params[5] == 300);
  float Alpha;
  std::memcpy(&Alpha, &Launch.params[6], sizeof(float));
  CHECK(Alpha == 0.5f);
  CHECK((Launch.params[7] & 0xff) == 1);
}

/// The metadata of a persistent GEMM-like kernel of 128 x 64 tiles with
/// 192 KiB of shared memory and 168 registers.
static json persistentMetadata() {
  json Document = gemmLikeMetadata();
  Document["schema"] = "tilec.kernel/1.2";
  Document["launch"]["grid"] = {"ceildiv(N, 128)", "ceildiv(M, 64)", "1"};
  Document["launch"]["persistent"] = true;
  Document["launch"]["dynamic_smem"] = 196608;
  Document["resources"]["registers"] = 168;
  return Document;
}

/// Launches the GEMM-like `kernel` on M x 7 and 7 x N operands and returns
/// what the driver was given.
static FakeCudaLaunch launchGemmLike(tilert::Kernel &kernel, int64_t M,
                                     int64_t N) {
  FakeTensor A(TILERT_DTYPE_F32, {M, 7}), B(TILERT_DTYPE_F32, {7, N}),
      C(TILERT_DTYPE_F32, {M, 128});
  kernel.launch({A.get(), B.get(), C.get()},
                {tilert::Scalar::f32(1.0f), tilert::Scalar::boolean(false)},
                streamValue(0x5000));
  return lastLaunch();
}

TEST_CASE("a persistent launch starts the blocks that stay resident, at "
          "most one a tile",
          "[fake-driver]") {
  TempDir Dir;
  json Document = persistentMetadata();
  tilert::Kernel Kernel(Dir.writeKernel(Document));
  auto LaunchGrid = [&](int64_t M, int64_t N) {
    FakeCudaLaunch Launch = launchGemmLike(Kernel, M, N);
    return std::array<uint32_t, 3>{Launch.grid[0], Launch.grid[1],
                                   Launch.grid[2]};
  };
  // 6 tiles: one block each.
  CHECK(LaunchGrid(100, 300) == std::array<uint32_t, 3>{6, 1, 1});
  // 32 x 64 tiles; 192 KiB of shared memory keep one block per
  // multiprocessor: 132 blocks.
  CHECK(LaunchGrid(4096, 4096) == std::array<uint32_t, 3>{132, 1, 1});

  // With 48 KiB, four blocks fit on a multiprocessor by shared memory, and
  // by registers too (128 threads x 96 registers).
  Document["launch"]["dynamic_smem"] = 49152;
  Document["resources"]["registers"] = 96;
  tilert::Kernel Small(Dir.writeKernel(Document));
  CHECK(launchGemmLike(Small, 4096, 4096).grid[0] == 4 * 132);
}

TEST_CASE("a persistent launch of clusters starts whole clusters, at most "
          "one a tile",
          "[fake-driver]") {
  TempDir Dir;
  json Document = persistentMetadata();
  Document["launch"]["cluster"] = {2, 1, 1};
  tilert::Kernel Kernel(Dir.writeKernel(Document));
  // 3 x 1 tiles (a grid of 3, not a multiple of the cluster): a cluster
  // for each, as the blocks of a cluster share a column of tiles.
  FakeCudaLaunch Few = launchGemmLike(Kernel, 10, 300);
  CHECK(Few.grid[0] == 6);
  CHECK(Few.grid[1] == 1);
  CHECK(Few.num_attributes == 1);
  // Many tiles: the 132 blocks that stay resident, 66 clusters.
  CHECK(launchGemmLike(Kernel, 4096, 4096).grid[0] == 132);

  // With 64 KiB, three blocks fit on a multiprocessor: 396 blocks, 384 in
  // whole clusters of 16; but the occupancy calculator runs only 7 clusters
  // of 16 at once (one a GPC on the fake device): 112 blocks.
  Document["launch"]["dynamic_smem"] = 65536;
  Document["resources"]["registers"] = 96;
  Document["launch"]["cluster"] = {16, 1, 1};
  tilert::Kernel Sixteen(Dir.writeKernel(Document));
  CHECK(launchGemmLike(Sixteen, 4096, 4096).grid[0] == 112);
  CHECK(fakeDriver().callCount("cuOccupancyMaxActiveClusters") >= 1);
}

TEST_CASE("launch.persistent must be a boolean", "[fake-driver]") {
  TempDir Dir;
  json Document = gemmLikeMetadata();
  Document["launch"]["persistent"] = 1;
  try {
    tilert::Kernel Kernel(Dir.writeKernel(Document));
    FAIL("the metadata was accepted");
  } catch (const tilert::Error &E) {
    CHECK(E.status() == TILERT_ERROR_METADATA);
    CHECK_THAT(E.message(), Catch::Contains("launch.persistent"));
    CHECK_THAT(E.message(), Catch::Contains("expected a boolean"));
  }
}

TEST_CASE("a warm launch makes only the driver calls graph capture allows",
          "[fake-driver]") {
  const FakeDriver &Driver = fakeDriver();
  TempDir Dir;
  tilert::Kernel Kernel(Dir.writeKernel(baseMetadata()));
  FakeTensor A(TILERT_DTYPE_F32, {4097}), B(TILERT_DTYPE_F32, {4097}),
      C(TILERT_DTYPE_F32, {4097});
  Kernel.launch({A.get(), B.get(), C.get()}, {}, streamValue(0x6000));
  Driver.reset();
  constexpr int Launches = 10;
  for (int I = 0; I < Launches; ++I)
    Kernel.launch({A.get(), B.get(), C.get()}, {}, streamValue(0x6000));
  // No allocation, copy, synchronization or module load: the context is
  // made current around the launch, the stream's context is checked.
  CHECK(Driver.callCount("cuCtxGetCurrent") == Launches);
  CHECK(Driver.callCount("cuCtxPushCurrent") == Launches);
  CHECK(Driver.callCount("cuStreamGetCtx") == Launches);
  CHECK(Driver.callCount("cuLaunchKernelEx") == Launches);
  CHECK(Driver.callCount("cuCtxPopCurrent") == Launches);
  CHECK(Driver.totalCalls() == 5 * Launches);
  CHECK(lastLaunch().grid[0] == 5);

  // A thread whose current context is the device's primary context (as in
  // PyTorch) keeps it: nothing is pushed or popped.
  const tilert::detail::DriverApi *Api = nullptr;
  REQUIRE(tilert::detail::getDriver(Api).ok());
  CUcontext Primary = nullptr;
  REQUIRE(Api->cuDevicePrimaryCtxRetain(&Primary, 0) == CUDA_SUCCESS);
  REQUIRE(Api->cuCtxSetCurrent(Primary) == CUDA_SUCCESS);
  Driver.reset();
  for (int I = 0; I < Launches; ++I)
    Kernel.launch({A.get(), B.get(), C.get()}, {}, streamValue(0x6000));
  CHECK(Driver.callCount("cuCtxGetCurrent") == Launches);
  CHECK(Driver.callCount("cuStreamGetCtx") == Launches);
  CHECK(Driver.callCount("cuLaunchKernelEx") == Launches);
  CHECK(Driver.totalCalls() == 3 * Launches);
  CUcontext Current = nullptr;
  REQUIRE(Api->cuCtxGetCurrent(&Current) == CUDA_SUCCESS);
  CHECK(Current == Primary);
  REQUIRE(Api->cuCtxSetCurrent(nullptr) == CUDA_SUCCESS);
  Api->cuDevicePrimaryCtxRelease(0);
}

TEST_CASE("a warm launch checks its arguments again", "[fake-driver]") {
  // Nothing one launch proved is assumed by the next: each of these follows
  // a valid launch of the same kernel on the same thread, and fails.
  const FakeDriver &Driver = fakeDriver();
  TempDir Dir;
  tilert::Kernel Kernel(Dir.writeKernel(baseMetadata()));
  FakeTensor A(TILERT_DTYPE_F32, {4097}), B(TILERT_DTYPE_F32, {4097}),
      C(TILERT_DTYPE_F32, {4097});
  Driver.setParamCount(4);
  auto Launch = [&](const DLTensor *b) {
    Kernel.launch({A.get(), b, C.get()}, {}, streamValue(0x6000));
  };
  auto Rejects = [&](const DLTensor *b, const char *message) {
    Launch(B.get());
    uint64_t Before = lastLaunch().count;
    try {
      Launch(b);
      FAIL("the launch succeeded");
    } catch (const tilert::Error &E) {
      CHECK(E.status() == TILERT_ERROR_INVALID_ARGUMENT);
      CHECK_THAT(E.message(), Catch::Contains(message));
    }
    CHECK(lastLaunch().count == Before);
  };
  FakeTensor Half(TILERT_DTYPE_F16, {4097});
  Rejects(Half.get(), "tensor 'B' (index 1) has dtype f16");
  FakeTensor Shorter(TILERT_DTYPE_F32, {4096});
  Rejects(Shorter.get(), "dim 'N' is inconsistent");
  FakeTensor Matrix(TILERT_DTYPE_F32, {1, 4097});
  Rejects(Matrix.get(), "has rank 2 but the kernel expects rank 1");
  FakeTensor Strided(TILERT_DTYPE_F32, {4097});
  Strided.withStrides({2});
  Rejects(Strided.get(), "is not contiguous");
  FakeTensor Misaligned(TILERT_DTYPE_F32, {4097});
  Misaligned->byte_offset = 4;
  Rejects(Misaligned.get(), "is not aligned to 16 bytes");
  FakeTensor Other(TILERT_DTYPE_F32, {4097});
  Other->device.device_id = 1;
  Rejects(Other.get(), "is on CUDA device 1");
  // The valid launch after them binds the new values.
  FakeTensor Longer(TILERT_DTYPE_F32, {9000}), LongA(TILERT_DTYPE_F32, {9000}),
      LongC(TILERT_DTYPE_F32, {9000});
  Kernel.launch({LongA.get(), Longer.get(), LongC.get()}, {},
                streamValue(0x6000));
  FakeCudaLaunch Last = lastLaunch();
  CHECK(Last.grid[0] == 9);
  CHECK(Last.params[1] == reinterpret_cast<uintptr_t>(Longer->data));
  CHECK(Last.params[3] == 9000);
}

TEST_CASE("launches of kernels with other parameter lists on one thread",
          "[fake-driver]") {
  // The thread's parameter array is reused while its layout fits: it must
  // follow each kernel's.
  TempDir Dir;
  tilert::Kernel Add(Dir.writeKernel(baseMetadata()));
  TempDir GemmDir;
  tilert::Kernel Gemm(GemmDir.writeKernel(gemmLikeMetadata()));
  FakeTensor A(TILERT_DTYPE_F32, {100}), B(TILERT_DTYPE_F32, {100}),
      C(TILERT_DTYPE_F32, {100});
  FakeTensor GA(TILERT_DTYPE_F32, {64, 32}), GB(TILERT_DTYPE_F32, {32, 48}),
      GC(TILERT_DTYPE_F32, {64, 128});
  fakeDriver().setParamCount(8);
  for (int Round = 0; Round < 2; ++Round) {
    Add.launch({A.get(), B.get(), C.get()}, {}, streamValue(0x6000));
    FakeCudaLaunch Launch = lastLaunch();
    CHECK(Launch.params[0] == reinterpret_cast<uintptr_t>(A->data));
    CHECK(Launch.params[2] == reinterpret_cast<uintptr_t>(C->data));
    CHECK(Launch.params[3] == 100);
    Gemm.launch({GA.get(), GB.get(), GC.get()},
                {tilert::Scalar::f32(2.0f), tilert::Scalar::boolean(true)},
                streamValue(0x6000));
    Launch = lastLaunch();
    CHECK(Launch.params[0] == reinterpret_cast<uintptr_t>(GA->data));
    CHECK(Launch.params[3] == 64);
    CHECK(Launch.params[4] == 32);
    CHECK(Launch.params[5] == 48);
    float Alpha;
    std::memcpy(&Alpha, &Launch.params[6], sizeof(float));
    CHECK(Alpha == 2.0f);
    CHECK((Launch.params[7] & 0xff) == 1);
  }
}

TEST_CASE("tilertKernelLaunchArgs launches as tilertKernelLaunch does",
          "[fake-driver]") {
  TempDir Dir;
  tilert::Kernel Kernel(Dir.writeKernel(baseMetadata()));
  FakeTensor A(TILERT_DTYPE_F32, {4097}), B(TILERT_DTYPE_F32, {4097}),
      C(TILERT_DTYPE_F32, {4097});
  const DLTensor *Tensors[] = {A.get(), B.get(), C.get()};
  tilertLaunchArgs Args = {};
  Args.kernel = Kernel.handle();
  Args.tensors = Tensors;
  Args.num_tensors = 3;
  Args.stream = streamValue(0x6100);
  fakeDriver().setParamCount(4);
  uint64_t Before = lastLaunch().count;
  REQUIRE(tilertKernelLaunchArgs(&Args) == TILERT_SUCCESS);
  FakeCudaLaunch Launch = lastLaunch();
  CHECK(Launch.count == Before + 1);
  CHECK(Launch.stream == 0x6100);
  CHECK(Launch.grid[0] == 5);
  CHECK(Launch.params[3] == 4097);

  Args.num_tensors = 2;
  CHECK(tilertKernelLaunchArgs(&Args) == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(tilertGetLastErrorMessage(),
             Catch::Contains("takes 3 tensors (A, B, C) but 2 were given"));
  Args.num_tensors = 3;
  Args.kernel = nullptr;
  CHECK(tilertKernelLaunchArgs(&Args) == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(tilertGetLastErrorMessage(),
             Catch::Contains("the kernel handle is NULL"));
  CHECK(tilertKernelLaunchArgs(nullptr) == TILERT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(tilertGetLastErrorMessage(),
             Catch::Contains("the launch arguments are NULL"));
  CHECK(lastLaunch().count == Before + 1);
}

TEST_CASE("a warm launch allocates no host memory", "[fake-driver]") {
  TempDir Dir;
  tilert::Kernel Kernel(Dir.writeKernel(gemmLikeMetadata()));
  FakeTensor A(TILERT_DTYPE_F32, {64, 32}), B(TILERT_DTYPE_F32, {32, 48}),
      C(TILERT_DTYPE_F32, {64, 128});
  const DLTensor *Tensors[] = {A.get(), B.get(), C.get()};
  tilert::Scalar Scalars[] = {tilert::Scalar::f32(1.0f),
                              tilert::Scalar::boolean(false)};
  auto Launch = [&] {
    Kernel.launch({Tensors, 3}, {Scalars, 2}, streamValue(0x7000));
  };
  Launch();
  Allocations = 0;
  Counting = true;
  for (int I = 0; I < 100; ++I)
    Launch();
  Counting = false;
  CHECK(Allocations == 0);

  // The counter works: a rejected launch builds its message.
  FakeTensor Wrong(TILERT_DTYPE_F16, {64, 32});
  Tensors[0] = Wrong.get();
  Counting = true;
  CHECK_THROWS_AS(Launch(), tilert::Error);
  Counting = false;
  CHECK(Allocations > 0);
}

TEST_CASE("a warm package launch allocates no host memory", "[fake-driver]") {
  TempDir Dir;
  Dir.writeVariant("gemm", "sm_90a", gemmLikeMetadata());
  Dir.write(
      "index.json",
      packageIndex("gemm", {packageVariant("gemm", "sm_90a")}, "gemm").dump());
  tilert::Package Package(Dir.path());
  FakeTensor A(TILERT_DTYPE_F32, {64, 32}), B(TILERT_DTYPE_F32, {32, 48}),
      C(TILERT_DTYPE_F32, {64, 128}), OtherA(TILERT_DTYPE_F32, {96, 32}),
      OtherC(TILERT_DTYPE_F32, {96, 128});
  const DLTensor *Tensors[] = {A.get(), B.get(), C.get()};
  const DLTensor *Others[] = {OtherA.get(), B.get(), OtherC.get()};
  tilert::Scalar Scalars[] = {tilert::Scalar::f32(1.0f),
                              tilert::Scalar::boolean(false)};
  Package.launch({Tensors, 3}, {Scalars, 2}, streamValue(0x7000));
  Package.launch({Others, 3}, {Scalars, 2}, streamValue(0x7000));
  Allocations = 0;
  Counting = true;
  // Alternating shapes: the thread's last hit, then the shared cache.
  for (int I = 0; I < 100; ++I)
    Package.launch({I % 2 ? Others : Tensors, 3}, {Scalars, 2},
                   streamValue(0x7000));
  Counting = false;
  CHECK(Allocations == 0);
}

TEST_CASE("a stream the driver rejects fails the launch", "[fake-driver]") {
  const FakeDriver &Driver = fakeDriver();
  TempDir Dir;
  tilert::Kernel Kernel(Dir.writeKernel(baseMetadata()));
  FakeTensor A(TILERT_DTYPE_F32, {10}), B(TILERT_DTYPE_F32, {10}),
      C(TILERT_DTYPE_F32, {10});
  Driver.reset();
  try {
    Kernel.launch({A.get(), B.get(), C.get()}, {},
                  streamValue(FAKE_CUDA_INVALID_STREAM));
    FAIL("the launch succeeded");
  } catch (const tilert::Error &E) {
    CHECK(E.status() == TILERT_ERROR_INVALID_ARGUMENT);
    CHECK_THAT(E.message(),
               Catch::Contains("the stream is not a valid CUDA stream"));
  }
  CHECK(Driver.callCount("cuLaunchKernelEx") == 0);
}
