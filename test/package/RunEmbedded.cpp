//===- RunEmbedded.cpp - vector_add compiled into the program -------------===//
//
// run-embedded: vector_add through the functions the EMBED library `kemb`
// generated (kemb.h), which carry the kernel's metadata and binaries, so no
// kernel file is read. Without a GPU it checks that the embedded variants
// load and that the launch stops at the missing device, then skips (77). On
// a GPU: A + B -> C through the DLTensor form and through the pointer form
// at an odd size, compared with the sums computed here, and a launch with
// inconsistent sizes, which the runtime refuses.
//
//===----------------------------------------------------------------------===//

#include "DeviceMemory.h"

#include "kemb.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int SkipExitCode = 77;
constexpr int64_t Count = 1000003;

/// Whether C holds A + B on the device; prints the first difference.
bool sumsCorrect(consumer::Device &Device, CUdeviceptr DC,
                 const std::vector<float> &A, const std::vector<float> &B,
                 const char *Form) {
  std::vector<float> C(A.size());
  if (!Device.synchronize() ||
      !Device.copyToHost(C.data(), DC, C.size() * sizeof(float))) {
    std::fprintf(stderr, "FAILED: %s: the launch failed\n", Form);
    return false;
  }
  for (std::size_t I = 0; I < C.size(); ++I)
    if (C[I] != A[I] + B[I]) {
      std::fprintf(stderr, "FAILED: %s: C[%zu] = %g, expected %g\n", Form, I,
                   C[I], A[I] + B[I]);
      return false;
    }
  std::printf("%s: %zu sums correct\n", Form, C.size());
  return true;
}

} // namespace

int main() {
  consumer::Device Device;
  std::string Reason;
  if (!Device.open(Reason)) {
    // The variants load from memory (metadata and checksums checked); the
    // first thing that needs a GPU fails.
    try {
      kemb::vector_add_kernel().forDevice(0);
      std::fprintf(stderr, "FAILED: a launch without a GPU succeeded\n");
      return 1;
    } catch (const tilert::Error &E) {
      if (E.status() != TILERT_ERROR_NO_DEVICE) {
        std::fprintf(stderr, "FAILED: %s\n", E.what());
        return 1;
      }
    }
    std::printf("the embedded vector_add loads; SKIPPED: no CUDA GPU (%s)\n",
                Reason.c_str());
    return SkipExitCode;
  }

  std::vector<float> A(Count), B(Count), Poison(Count, -1.0f);
  for (int64_t I = 0; I < Count; ++I) {
    A[I] = static_cast<float>(I % 1013) * 0.5f;
    B[I] = 1.0f / static_cast<float>(1 + I % 89);
  }
  std::size_t Bytes = Count * sizeof(float);
  CUdeviceptr DA = Device.allocate(Bytes), DB = Device.allocate(Bytes),
              DC = Device.allocate(Bytes);
  if (!DA || !DB || !DC || !Device.copyToDevice(DA, A.data(), Bytes) ||
      !Device.copyToDevice(DB, B.data(), Bytes) ||
      !Device.copyToDevice(DC, Poison.data(), Bytes)) {
    std::fprintf(stderr, "FAILED: cannot set up the device buffers\n");
    return 1;
  }
  auto *PA = reinterpret_cast<float *>(DA);
  auto *PB = reinterpret_cast<float *>(DB);
  auto *PC = reinterpret_cast<float *>(DC);
  int64_t Shape[] = {Count}, Shorter[] = {Count - 1};
  DLTensor TA = tilert::deviceTensor(PA, 0, kDLFloat, 32, Shape, 1);
  DLTensor TB = tilert::deviceTensor(PB, 0, kDLFloat, 32, Shape, 1);
  DLTensor TC = tilert::deviceTensor(PC, 0, kDLFloat, 32, Shape, 1);
  try {
    kemb::vector_add(TA, TB, TC);
    if (!sumsCorrect(Device, DC, A, B, "DLTensor form"))
      return 1;
    if (!Device.copyToDevice(DC, Poison.data(), Bytes)) {
      std::fprintf(stderr, "FAILED: cannot poison C\n");
      return 1;
    }
    kemb::vector_add(PA, PB, PC, Count);
    if (!sumsCorrect(Device, DC, A, B, "pointer form"))
      return 1;
  } catch (const tilert::Error &E) {
    std::fprintf(stderr, "FAILED: %s\n", E.what());
    return 1;
  }
  DLTensor Short = tilert::deviceTensor(PC, 0, kDLFloat, 32, Shorter, 1);
  try {
    kemb::vector_add(TA, TB, Short);
    std::fprintf(stderr, "FAILED: inconsistent sizes were launched\n");
    return 1;
  } catch (const tilert::Error &E) {
    if (E.status() != TILERT_ERROR_INVALID_ARGUMENT ||
        E.message().find("dim 'N' is inconsistent") == std::string::npos) {
      std::fprintf(stderr, "FAILED: unexpected error: %s\n", E.what());
      return 1;
    }
    std::printf("inconsistent sizes refused: %s\n", E.message().c_str());
  }
  return 0;
}
