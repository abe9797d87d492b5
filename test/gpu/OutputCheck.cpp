//===- OutputCheck.cpp - Checking what a launch wrote ---------------------===//

#include "OutputCheck.h"

#include "DType.h"
#include "HostRandom.h"
#include "HostValues.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>

namespace tilert::gputest {

namespace {

/// Statistics of a part of the output.
struct Stats {
  size_t Mismatches = 0;
  size_t Unwritten = 0;
  size_t FirstBad = std::numeric_limits<size_t>::max();
  double MaxAbsError = 0;
  double SumSquaredError = 0;
  double SumSquaredMagnitude = 0;

  void merge(const Stats &other) {
    Mismatches += other.Mismatches;
    Unwritten += other.Unwritten;
    FirstBad = std::min(FirstBad, other.FirstBad);
    if (!(other.MaxAbsError <= MaxAbsError))
      MaxAbsError = other.MaxAbsError;
    SumSquaredError += other.SumSquaredError;
    SumSquaredMagnitude += other.SumSquaredMagnitude;
  }
};

/// The coordinates of row-major element `flat` of `shape`.
void unflatten(size_t flat, const std::vector<int64_t> &shape,
               std::vector<int64_t> &coords) {
  coords.resize(shape.size());
  for (size_t Axis = shape.size(); Axis-- > 0;) {
    coords[Axis] = static_cast<int64_t>(flat % shape[Axis]);
    flat /= shape[Axis];
  }
}

/// `value` with every digit an f32 needs.
std::string formatValue(double value) {
  char Text[32];
  std::snprintf(Text, sizeof(Text), "%.9g", value);
  return Text;
}

std::string formatCoords(const std::vector<int64_t> &coords) {
  std::string Text = "[";
  for (size_t I = 0; I < coords.size(); ++I)
    Text += detail::strCat(I ? ", " : "", coords[I]);
  return Text + "]";
}

} // namespace

OutputCheck compareOutput(const KernelRef &ref, const RefInputs &inputs,
                          size_t tensor, tilertDType dtype,
                          const std::vector<int64_t> &shape,
                          const char *output) {
  size_t Count = 1;
  for (int64_t Extent : shape)
    Count *= static_cast<size_t>(Extent);
  size_t ElementSize = detail::dtypeSize(dtype);
  bool Exact = ref.Compare == Accuracy::Exact;
  Tolerance Tol = toleranceFor(dtype);
  Stats Total;
  std::mutex Merge;
  support::parallelChunks(Count, [&](size_t Begin, size_t End, size_t) {
    Stats Local;
    std::vector<int64_t> Coords;
    for (size_t I = Begin; I < End; ++I) {
      unflatten(I, shape, Coords);
      double Magnitude = 0;
      double Expected = ref.Compute(inputs, tensor, Coords.data(), Magnitude);
      const char *Element = output + I * ElementSize;
      double Got = decodeValue(dtype, Element);
      double Error = std::fabs(Got - Expected);
      bool Good =
          Exact ? Got == Expected : Error <= Tol.Atol + Tol.Rtol * Magnitude;
      if (!Good) {
        Local.Unwritten += isPoison(dtype, Element);
        if (Local.Mismatches++ == 0)
          Local.FirstBad = I;
      }
      if (!(Error <= Local.MaxAbsError))
        Local.MaxAbsError = Error;
      Local.SumSquaredError += Error * Error;
      Local.SumSquaredMagnitude += Magnitude * Magnitude;
    }
    std::lock_guard<std::mutex> Lock(Merge);
    Total.merge(Local);
  });

  OutputCheck Result;
  Result.Mismatches = Total.Mismatches;
  Result.Unwritten = Total.Unwritten;
  Result.MaxAbsError = Total.MaxAbsError;
  double MagnitudeNorm = std::sqrt(Total.SumSquaredMagnitude);
  double ErrorNorm = std::sqrt(Total.SumSquaredError);
  if (!Exact)
    Result.RelFrobenius =
        MagnitudeNorm > 0 ? ErrorNorm / MagnitudeNorm : ErrorNorm;
  bool NormOk = Exact || Result.RelFrobenius <= Tol.Frobenius;
  Result.Passed = Total.Mismatches == 0 && NormOk;
  const char *Name = ref.Tensors[tensor].Name;
  Result.Detail =
      Exact ? detail::strCat(Name, ": exact")
            : detail::strCat(Name, ": max abs error ", Result.MaxAbsError,
                             ", rel Frobenius ", Result.RelFrobenius);
  if (Total.Mismatches > 0) {
    std::vector<int64_t> Coords;
    unflatten(Total.FirstBad, shape, Coords);
    double Magnitude = 0;
    double Expected = ref.Compute(inputs, tensor, Coords.data(), Magnitude);
    Result.Detail = detail::strCat(
        Name, ": ", Total.Mismatches, " of ", Count, " elements wrong",
        Total.Unwritten ? detail::strCat(" (", Total.Unwritten,
                                         " never written: still the poison)")
                        : "",
        "; first at ", formatCoords(Coords), ": got ",
        formatValue(decodeValue(dtype, output + Total.FirstBad * ElementSize)),
        ", expected ", formatValue(Expected), "; max abs error ",
        Result.MaxAbsError);
  } else if (!NormOk) {
    Result.Detail += detail::strCat(" over the limit ", Tol.Frobenius);
  }
  return Result;
}

std::string checkGuard(const char *guard, size_t size) {
  size_t Modified = 0, First = 0;
  for (size_t I = 0; I < size; ++I)
    if (static_cast<unsigned char>(guard[I]) != GuardFill && Modified++ == 0)
      First = I;
  if (!Modified)
    return "";
  return detail::strCat(Modified, " of ", size, " bytes modified, first at +",
                        First);
}

} // namespace tilert::gputest
