//===- HostValues.h - Tensor elements on the host ---------------*- C++ -*-===//
//
// Reading, writing and rounding the elements of the dtypes the GPU tests
// cover (f32, f16, bf16, i32), and the poison an output holds before a
// launch.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_TEST_GPU_HOSTVALUES_H
#define TILERT_TEST_GPU_HOSTVALUES_H

#include "tilert/tilert.h"

#include <cstdint>

namespace tilert::gputest {

/// Whether the tests can generate, read and check `dtype` elements.
bool isHostSupported(tilertDType dtype);

/// Stores `value` as a `dtype` element at `out`. Floating-point types round
/// to nearest even through f32 (exact when `value` is an f32 value), i32
/// truncates toward zero (`value` must fit).
void encodeValue(tilertDType dtype, double value, char *out);

/// Reads the `dtype` element at `in`.
double decodeValue(tilertDType dtype, const char *in);

/// The value `value` takes when stored as `dtype` (encodeValue, then
/// decodeValue): what `cast<dtype>` gives on the device for a value that is
/// exact in f32.
double roundTo(tilertDType dtype, double value);

/// The bit pattern an output element of `dtype` (2 or 4 bytes) is filled with
/// before a launch: a quiet NaN for floating-point types, 0x8badf00d for i32
/// (a value no test kernel computes).
uint32_t poisonBits(tilertDType dtype);

/// Whether the element at `in` still holds poisonBits(dtype).
bool isPoison(tilertDType dtype, const char *in);

} // namespace tilert::gputest

#endif // TILERT_TEST_GPU_HOSTVALUES_H
