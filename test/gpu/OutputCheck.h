//===- OutputCheck.h - Checking what a launch wrote -------------*- C++ -*-===//
//
// Host-side checks of a launch's effects, independent of the device: every
// output element against the reference, and the guard regions around every
// tensor.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_TEST_GPU_OUTPUTCHECK_H
#define TILERT_TEST_GPU_OUTPUTCHECK_H

#include "KernelRef.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tilert::gputest {

/// Bytes of the guard regions before and after every tensor.
inline constexpr size_t GuardBytes = 64 * 1024;
/// The byte guard regions are filled with.
inline constexpr unsigned char GuardFill = 0xa5;

/// The comparison of one output tensor with its reference.
struct OutputCheck {
  bool Passed = false;
  /// Elements outside the tolerance (Rounded) or not equal (Exact).
  size_t Mismatches = 0;
  /// Elements that still hold the poison.
  size_t Unwritten = 0;
  double MaxAbsError = 0;
  /// ||out - ref|| / ||magnitude|| (Rounded; 0 for Exact).
  double RelFrobenius = 0;
  /// Statistics, and the first wrong element.
  std::string Detail;
};

/// Compares output tensor `tensor` of `ref`, of `dtype` and `shape`, whose
/// elements are at `output`, with the reference evaluated on `inputs`.
OutputCheck compareOutput(const KernelRef &ref, const RefInputs &inputs,
                          size_t tensor, tilertDType dtype,
                          const std::vector<int64_t> &shape,
                          const char *output);

/// Checks that all `size` bytes at `guard` still hold GuardFill. Returns ""
/// or how many were modified and the offset of the first.
std::string checkGuard(const char *guard, size_t size);

} // namespace tilert::gputest

#endif // TILERT_TEST_GPU_OUTPUTCHECK_H
