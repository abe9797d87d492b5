//===- ElementwiseRun.cpp - One checked elementwise launch ----------------===//

#include "ElementwiseRun.h"

#include "DType.h"
#include "HostRandom.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>

namespace tilert::gputest {

namespace {

using detail::Status;
using support::SplitMix64;

void encode(tilertDType dtype, float value, char *out) {
  if (dtype == TILERT_DTYPE_F32) {
    std::memcpy(out, &value, sizeof(value));
    return;
  }
  uint16_t Bits = dtype == TILERT_DTYPE_F16 ? halfFromFloat(value)
                                            : bfloat16FromFloat(value);
  std::memcpy(out, &Bits, sizeof(Bits));
}

double decode(tilertDType dtype, const char *in) {
  if (dtype == TILERT_DTYPE_F32) {
    float Value;
    std::memcpy(&Value, in, sizeof(Value));
    return Value;
  }
  uint16_t Bits;
  std::memcpy(&Bits, in, sizeof(Bits));
  return dtype == TILERT_DTYPE_F16 ? floatFromHalf(Bits)
                                   : floatFromBfloat16(Bits);
}

/// Fills the output with a quiet NaN of its dtype.
Status poison(const GpuContext &gpu, tilertDType dtype, CUdeviceptr output,
              size_t count) {
  const detail::DriverApi &Api = *gpu.Api;
  if (dtype == TILERT_DTYPE_F32)
    return detail::checkCu(Api, Api.cuMemsetD32(output, 0x7fc00000u, count),
                           "cuMemsetD32");
  uint16_t NaN = dtype == TILERT_DTYPE_F16 ? 0x7e00 : 0x7fc0;
  return detail::checkCu(Api, Api.cuMemsetD16(output, NaN, count),
                         "cuMemsetD16");
}

/// Per-chunk statistics of a comparison.
struct Stats {
  size_t Mismatches = 0;
  size_t FirstBad = std::numeric_limits<size_t>::max();
  double MaxAbsError = 0;
  double SumSquaredError = 0;
  double SumSquaredMagnitude = 0;
  bool SawNaN = false;
};

} // namespace

ElementwiseRun::ElementwiseRun(const GpuContext &gpu, const ElementwiseRef &ref,
                               tilertDType dtype, int64_t n, uint64_t seed)
    : Gpu(gpu), Ref(ref), DType(dtype), Count(n), Seed(seed),
      ElementSize(detail::dtypeSize(dtype)), Shape{n} {}

Status ElementwiseRun::prepare() {
  SplitMix64 ScalarRandom(Seed ^ 0x5ca1a75ull);
  for (size_t I = 0; I < Ref.Scalars.size(); ++I) {
    float Value = ScalarRandom.uniform(Ref.ScalarLow, Ref.ScalarHigh);
    ScalarValues.push_back(Value);
    Scalars.push_back(tilert::Scalar::f32(Value));
  }
  size_t Elements = static_cast<size_t>(Count);
  size_t Bytes = Elements * ElementSize;
  for (size_t Input = 0; Input <= Ref.NumInputs; ++Input) {
    bool IsOutput = Input == Ref.NumInputs;
    support::DeviceBuffer Buffer;
    TILERT_TRY(support::DeviceBuffer::allocate(
        *Gpu.Api, Bytes, IsOutput ? "the output" : "an input", Buffer));
    if (IsOutput) {
      if (Elements > 0)
        TILERT_TRY(poison(Gpu, DType, Buffer.get(), Elements));
    } else {
      std::vector<char> Host(Bytes);
      uint64_t InputSeed = Seed + 0x1000193ull * (Input + 1);
      support::parallelChunks(
          Elements, [&](size_t Begin, size_t End, size_t Chunk) {
            SplitMix64 Random(InputSeed ^ (Chunk * 0x9e3779b97f4a7c15ull));
            for (size_t I = Begin; I < End; ++I)
              encode(DType, Random.uniform(Ref.InputLow, Ref.InputHigh),
                     Host.data() + I * ElementSize);
          });
      if (Bytes > 0)
        TILERT_TRY(detail::checkCu(
            *Gpu.Api, Gpu.Api->cuMemcpyHtoD(Buffer.get(), Host.data(), Bytes),
            "cuMemcpyHtoD"));
      HostInputs.push_back(std::move(Host));
    }
    Buffers.push_back(std::move(Buffer));
  }
  // The memset and copies ran on the legacy default stream, which launches on
  // non-blocking streams do not wait for.
  return detail::checkCu(*Gpu.Api, Gpu.Api->cuStreamSynchronize(nullptr),
                         "cuStreamSynchronize");
}

std::vector<DLTensor> ElementwiseRun::tensors() const {
  std::vector<DLTensor> Result;
  for (const support::DeviceBuffer &Buffer : Buffers) {
    DLTensor Tensor = {};
    Tensor.data = reinterpret_cast<void *>(Buffer.get());
    Tensor.device = {kDLCUDA, Gpu.Device};
    Tensor.ndim = 1;
    Tensor.dtype = detail::toDLDataType(DType);
    Tensor.shape = const_cast<int64_t *>(Shape.data());
    Result.push_back(Tensor);
  }
  return Result;
}

Status ElementwiseRun::download(std::vector<char> &host) const {
  host.resize(static_cast<size_t>(Count) * ElementSize);
  if (host.empty())
    return Status::success();
  return detail::checkCu(
      *Gpu.Api,
      Gpu.Api->cuMemcpyDtoH(host.data(), Buffers.back().get(), host.size()),
      "cuMemcpyDtoH");
}

Status ElementwiseRun::outputPoisoned(bool &poisoned) const {
  std::vector<char> Host;
  TILERT_TRY(download(Host));
  poisoned = true;
  for (size_t I = 0; I < static_cast<size_t>(Count) && poisoned; ++I)
    poisoned = std::isnan(decode(DType, Host.data() + I * ElementSize));
  return Status::success();
}

ElementwiseResult ElementwiseRun::verify() const {
  ElementwiseResult Result;
  std::vector<char> Output;
  Status Downloaded = download(Output);
  if (!Downloaded.ok()) {
    Result.Detail = Downloaded.message();
    return Result;
  }
  Tolerance Tol = toleranceFor(DType);
  Stats Total;
  std::mutex Merge;
  support::parallelChunks(
      static_cast<size_t>(Count), [&](size_t Begin, size_t End, size_t) {
        Stats Local;
        std::vector<double> Inputs(Ref.NumInputs);
        for (size_t I = Begin; I < End; ++I) {
          for (size_t K = 0; K < Ref.NumInputs; ++K)
            Inputs[K] = decode(DType, HostInputs[K].data() + I * ElementSize);
          double Magnitude = 0;
          double Expected =
              Ref.Compute(Inputs.data(), ScalarValues.data(), Magnitude);
          double Got = decode(DType, Output.data() + I * ElementSize);
          double Error = std::fabs(Got - Expected);
          Local.SumSquaredError += Error * Error;
          Local.SumSquaredMagnitude += Magnitude * Magnitude;
          if (!(Error <= Tol.Atol + Tol.Rtol * Magnitude)) {
            Local.SawNaN |= std::isnan(Got);
            if (Local.Mismatches++ == 0)
              Local.FirstBad = I;
          }
          if (!(Error <= Local.MaxAbsError))
            Local.MaxAbsError = Error;
        }
        std::lock_guard<std::mutex> Lock(Merge);
        Total.Mismatches += Local.Mismatches;
        Total.FirstBad = std::min(Total.FirstBad, Local.FirstBad);
        if (!(Local.MaxAbsError <= Total.MaxAbsError))
          Total.MaxAbsError = Local.MaxAbsError;
        Total.SumSquaredError += Local.SumSquaredError;
        Total.SumSquaredMagnitude += Local.SumSquaredMagnitude;
        Total.SawNaN |= Local.SawNaN;
      });
  double MagnitudeNorm = std::sqrt(Total.SumSquaredMagnitude);
  double ErrorNorm = std::sqrt(Total.SumSquaredError);
  Result.Mismatches = Total.Mismatches;
  Result.MaxAbsError = Total.MaxAbsError;
  Result.RelFrobenius =
      MagnitudeNorm > 0 ? ErrorNorm / MagnitudeNorm : ErrorNorm;
  Result.Passed = Total.Mismatches == 0 && Result.RelFrobenius <= Tol.Frobenius;
  Result.Detail = detail::strCat("max abs error ", Result.MaxAbsError,
                                 ", rel Frobenius ", Result.RelFrobenius);
  if (Total.Mismatches > 0) {
    size_t I = Total.FirstBad;
    std::vector<double> Row(Ref.NumInputs);
    std::string Inputs;
    for (size_t K = 0; K < Ref.NumInputs; ++K) {
      Row[K] = decode(DType, HostInputs[K].data() + I * ElementSize);
      Inputs += detail::strCat(K ? ", " : "", Row[K]);
    }
    double Magnitude = 0;
    double Expected = Ref.Compute(Row.data(), ScalarValues.data(), Magnitude);
    Result.Detail =
        detail::strCat(Total.Mismatches, " of ", Count, " elements wrong",
                       Total.SawNaN ? " (some never written: still NaN)" : "",
                       "; first at index ", I, ": inputs (", Inputs, ") gave ",
                       decode(DType, Output.data() + I * ElementSize),
                       ", expected ", Expected, "; ", Result.Detail);
  }
  return Result;
}

ElementwiseResult runElementwise(const GpuContext &gpu,
                                 const tilert::Kernel &kernel,
                                 const ElementwiseRef &ref, tilertDType dtype,
                                 int64_t n, uint64_t seed) {
  ElementwiseResult Failed;
  ElementwiseRun Run(gpu, ref, dtype, n, seed);
  Status Prepared = Run.prepare();
  if (!Prepared.ok()) {
    Failed.Detail = Prepared.message();
    return Failed;
  }
  std::vector<DLTensor> Tensors = Run.tensors();
  std::vector<const DLTensor *> Arguments;
  for (const DLTensor &Tensor : Tensors)
    Arguments.push_back(&Tensor);
  try {
    kernel.launch(Arguments, Run.scalars(), gpu.Stream);
  } catch (const tilert::Error &Error) {
    Failed.Detail = Error.what();
    return Failed;
  }
  Status Synced =
      detail::checkCu(*gpu.Api, gpu.Api->cuStreamSynchronize(gpu.Stream),
                      "cuStreamSynchronize");
  if (!Synced.ok()) {
    Failed.Detail = Synced.message();
    return Failed;
  }
  return Run.verify();
}

} // namespace tilert::gputest
