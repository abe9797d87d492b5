//===- RunVectorAdd.cpp - vector_add from kernel files ----------*- C++ -*-===//
//
// run-vector-add JSON...: loads every kernel (metadata and binaries checked,
// no GPU needed), then, on device 0, launches each one that has code for the
// device on A + B -> C at an odd size and compares C with the sums computed
// here (an f32 addition rounds once, so they must be equal). At least one
// must run. Exit status 0 on success, 1 on a failure, 77 (skipped) without a
// GPU.
//
//===----------------------------------------------------------------------===//

#include "DeviceMemory.h"

#include <tilert/tilert.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

constexpr int SkipExitCode = 77;
constexpr int64_t Count = 1000003;

/// A compact 1-D f32 tensor of `Count` elements at `Data` on device 0.
DLTensor vectorTensor(CUdeviceptr Data, int64_t *Shape) {
  DLTensor Tensor{};
  Tensor.data = reinterpret_cast<void *>(Data);
  Tensor.device = {kDLCUDA, 0};
  Tensor.ndim = 1;
  Tensor.dtype = {kDLFloat, 32, 1};
  Tensor.shape = Shape;
  return Tensor;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    std::fprintf(stderr, "usage: %s KERNEL.json...\n", Argv[0]);
    return 1;
  }
  std::vector<tilert::Kernel> Kernels;
  try {
    for (int I = 1; I < Argc; ++I) {
      Kernels.emplace_back(Argv[I]);
      if (Kernels.back().name() != "vector_add") {
        std::fprintf(stderr, "FAILED: %s holds '%s', not vector_add\n", Argv[I],
                     Kernels.back().name().c_str());
        return 1;
      }
    }
  } catch (const tilert::Error &E) {
    std::fprintf(stderr, "FAILED: %s\n", E.what());
    return 1;
  }
  std::printf("loaded %d kernel(s) with libtilert %s\n", Argc - 1,
              tilertGetVersion());

  consumer::Device Device;
  std::string Reason;
  if (!Device.open(Reason)) {
    std::printf("SKIPPED: no CUDA GPU (%s)\n", Reason.c_str());
    return SkipExitCode;
  }
  std::vector<float> A(Count), B(Count), C(Count);
  for (int64_t I = 0; I < Count; ++I) {
    A[I] = static_cast<float>(I % 1009) * 0.25f;
    B[I] = 1.0f / static_cast<float>(1 + I % 97);
  }
  std::size_t Bytes = Count * sizeof(float);
  CUdeviceptr DA = Device.allocate(Bytes), DB = Device.allocate(Bytes),
              DC = Device.allocate(Bytes);
  if (!DA || !DB || !DC || !Device.copyToDevice(DA, A.data(), Bytes) ||
      !Device.copyToDevice(DB, B.data(), Bytes)) {
    std::fprintf(stderr, "FAILED: cannot set up the device buffers\n");
    return 1;
  }
  int64_t Shape[] = {Count};
  DLTensor TA = vectorTensor(DA, Shape), TB = vectorTensor(DB, Shape),
           TC = vectorTensor(DC, Shape);

  int Ran = 0;
  for (std::size_t K = 0; K < Kernels.size(); ++K) {
    const tilert::Kernel &Kernel = Kernels[K];
    try {
      Kernel.prepare(0);
    } catch (const tilert::Error &E) {
      if (E.status() != TILERT_ERROR_ARCH_MISMATCH) {
        std::fprintf(stderr, "FAILED: %s: %s\n", Argv[K + 1], E.what());
        return 1;
      }
      std::printf("%s: no code for this device (%s)\n", Argv[K + 1],
                  E.message().c_str());
      continue;
    }
    std::vector<float> Poison(Count, -1.0f);
    if (!Device.copyToDevice(DC, Poison.data(), Bytes)) {
      std::fprintf(stderr, "FAILED: cannot poison C\n");
      return 1;
    }
    try {
      Kernel.launch({&TA, &TB, &TC});
    } catch (const tilert::Error &E) {
      std::fprintf(stderr, "FAILED: %s: %s\n", Argv[K + 1], E.what());
      return 1;
    }
    if (!Device.synchronize() || !Device.copyToHost(C.data(), DC, Bytes)) {
      std::fprintf(stderr, "FAILED: %s: the launch failed\n", Argv[K + 1]);
      return 1;
    }
    for (int64_t I = 0; I < Count; ++I)
      if (C[I] != A[I] + B[I]) {
        std::fprintf(stderr, "FAILED: %s: C[%lld] = %g, expected %g\n",
                     Argv[K + 1], static_cast<long long>(I), C[I], A[I] + B[I]);
        return 1;
      }
    std::printf("%s: %lld sums correct\n", Argv[K + 1],
                static_cast<long long>(Count));
    ++Ran;
  }
  if (Ran == 0) {
    std::fprintf(stderr, "FAILED: none of the kernels runs on device 0\n");
    return 1;
  }
  return 0;
}
