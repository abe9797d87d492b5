//===- KernelRun.cpp - One checked launch of a test kernel ----------------===//

#include "KernelRun.h"

#include "DType.h"
#include "HostRandom.h"
#include "HostValues.h"
#include "OutputCheck.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace tilert::gputest {

namespace {

using detail::Status;
using support::SplitMix64;

/// Fills `count` elements at `address` with the poison of `dtype`.
Status poison(const GpuContext &gpu, tilertDType dtype, CUdeviceptr address,
              size_t count) {
  const detail::DriverApi &Api = *gpu.Api;
  uint32_t Bits = poisonBits(dtype);
  if (detail::dtypeSize(dtype) == 4)
    return detail::checkCu(Api, Api.cuMemsetD32(address, Bits, count),
                           "cuMemsetD32");
  return detail::checkCu(
      Api, Api.cuMemsetD16(address, static_cast<uint16_t>(Bits), count),
      "cuMemsetD16");
}

/// A random value in [low, high]: a float, or a whole number for integer
/// dtypes.
double draw(SplitMix64 &random, tilertDType dtype, double low, double high) {
  float Value = random.uniform(
      static_cast<float>(low),
      static_cast<float>(dtype == TILERT_DTYPE_I32 ? high + 1 : high));
  return dtype == TILERT_DTYPE_I32 ? std::min(high, std::floor(double(Value)))
                                   : Value;
}

} // namespace

KernelRun::KernelRun(const GpuContext &gpu, const KernelFile &kernel,
                     std::vector<int64_t> dims, uint64_t seed)
    : Gpu(gpu), Kernel(kernel), Dims(std::move(dims)), Seed(seed) {
  for (size_t I = 0; I < kernel.Metadata.Tensors.size(); ++I) {
    std::vector<int64_t> Shape;
    size_t Count = 1;
    for (const detail::ShapeEntry &Entry : kernel.Metadata.Tensors[I].Shape) {
      Shape.push_back(Entry.Dim >= 0 ? Dims[Entry.Dim] : Entry.Value);
      Count *= static_cast<size_t>(Shape.back());
    }
    Shapes.push_back(std::move(Shape));
    Bytes.push_back(Count * detail::dtypeSize(kernel.DTypes[I]));
  }
}

std::string formatDims(const detail::KernelMetadata &metadata,
                       const std::vector<int64_t> &dims) {
  std::string Text;
  for (size_t I = 0; I < dims.size(); ++I)
    Text += detail::strCat(I ? " " : "", metadata.Dims[I], "=", dims[I]);
  return Text;
}

Status KernelRun::prepare() {
  const KernelRef &Ref = *Kernel.Ref;
  SplitMix64 ScalarRandom(Seed ^ 0x5ca1a75ull);
  for (const RefScalar &Scalar : Ref.Scalars) {
    double Value = draw(ScalarRandom, Scalar.DType, Scalar.Low, Scalar.High);
    ScalarValues.push_back(Value);
    Scalars.push_back(Scalar.DType == TILERT_DTYPE_I32
                          ? tilert::Scalar::i32(static_cast<int32_t>(Value))
                          : tilert::Scalar::f32(static_cast<float>(Value)));
  }
  const detail::DriverApi &Api = *Gpu.Api;
  for (size_t Tensor = 0; Tensor < Ref.Tensors.size(); ++Tensor) {
    const RefTensor &Param = Ref.Tensors[Tensor];
    tilertDType DType = Kernel.DTypes[Tensor];
    size_t Size = Bytes[Tensor];
    support::DeviceBuffer Buffer;
    TILERT_TRY(support::DeviceBuffer::allocate(
        Api, GuardBytes + Size + GuardBytes,
        detail::strCat("tensor '", Param.Name, "'"), Buffer));
    TILERT_TRY(detail::checkCu(
        Api,
        Api.cuMemsetD8(Buffer.get(), GuardFill, GuardBytes + Size + GuardBytes),
        "cuMemsetD8"));
    CUdeviceptr Elements = Buffer.get() + GuardBytes;
    size_t ElementSize = detail::dtypeSize(DType);
    size_t Count = Size / ElementSize;
    std::vector<char> Host;
    if (Param.Output) {
      if (Count > 0)
        TILERT_TRY(poison(Gpu, DType, Elements, Count));
    } else {
      Host.resize(Size);
      uint64_t InputSeed = Seed + 0x1000193ull * (Tensor + 1);
      support::parallelChunks(Count, [&](size_t Begin, size_t End,
                                         size_t Chunk) {
        SplitMix64 Random(InputSeed ^ (Chunk * 0x9e3779b97f4a7c15ull));
        for (size_t I = Begin; I < End; ++I)
          encodeValue(DType, draw(Random, DType, Ref.InputLow, Ref.InputHigh),
                      Host.data() + I * ElementSize);
      });
      if (Size > 0)
        TILERT_TRY(
            detail::checkCu(Api, Api.cuMemcpyHtoD(Elements, Host.data(), Size),
                            "cuMemcpyHtoD"));
    }
    HostInputs.push_back(std::move(Host));
    Buffers.push_back(std::move(Buffer));
  }
  // The memsets and copies ran on the legacy default stream, which launches
  // on non-blocking streams do not wait for.
  return detail::checkCu(Api, Api.cuStreamSynchronize(nullptr),
                         "cuStreamSynchronize");
}

std::vector<DLTensor> KernelRun::tensors() const {
  std::vector<DLTensor> Result;
  for (size_t I = 0; I < Buffers.size(); ++I) {
    DLTensor Tensor = {};
    Tensor.data = reinterpret_cast<void *>(Buffers[I].get() + GuardBytes);
    Tensor.device = {kDLCUDA, Gpu.Device};
    Tensor.ndim = static_cast<int32_t>(Shapes[I].size());
    Tensor.dtype = detail::toDLDataType(Kernel.DTypes[I]);
    Tensor.shape = const_cast<int64_t *>(Shapes[I].data());
    Result.push_back(Tensor);
  }
  return Result;
}

Status KernelRun::download(size_t tensor, size_t offset, size_t bytes,
                           std::vector<char> &host) const {
  host.resize(bytes);
  if (bytes == 0)
    return Status::success();
  return detail::checkCu(
      *Gpu.Api,
      Gpu.Api->cuMemcpyDtoH(host.data(), Buffers[tensor].get() + offset, bytes),
      "cuMemcpyDtoH");
}

Status KernelRun::checkGuards(std::vector<std::string> &problems) const {
  std::vector<char> Guard;
  for (size_t I = 0; I < Buffers.size(); ++I) {
    const char *Name = Kernel.Ref->Tensors[I].Name;
    TILERT_TRY(download(I, 0, GuardBytes, Guard));
    std::string Before = checkGuard(Guard.data(), Guard.size());
    if (!Before.empty())
      problems.push_back(detail::strCat("tensor '", Name,
                                        "': guard region before it: ", Before));
    TILERT_TRY(download(I, GuardBytes + Bytes[I], GuardBytes, Guard));
    std::string After = checkGuard(Guard.data(), Guard.size());
    if (!After.empty())
      problems.push_back(detail::strCat("tensor '", Name,
                                        "': guard region after it: ", After));
  }
  return Status::success();
}

RunResult KernelRun::verify() const {
  RunResult Result;
  std::vector<std::string> Problems;
  Status Checked = checkGuards(Problems);
  if (!Checked.ok()) {
    Result.Detail = Checked.message();
    return Result;
  }
  std::vector<std::vector<char>> Outputs(Buffers.size());
  std::vector<const char *> Data;
  for (size_t I = 0; I < Buffers.size(); ++I) {
    std::vector<char> &Host = Outputs[I];
    Checked = download(I, GuardBytes, Bytes[I], Host);
    if (!Checked.ok()) {
      Result.Detail = Checked.message();
      return Result;
    }
    bool Output = Kernel.Ref->Tensors[I].Output;
    if (!Output && Host != HostInputs[I]) {
      size_t First = 0;
      while (Host[First] == HostInputs[I][First])
        ++First;
      Problems.push_back(detail::strCat("input '", Kernel.Ref->Tensors[I].Name,
                                        "' was modified (first at byte ", First,
                                        ")"));
    }
    Data.push_back(Output ? nullptr : HostInputs[I].data());
  }
  RefInputs Inputs(Kernel.DTypes, Shapes, Data, ScalarValues, Dims);
  std::vector<std::string> Stats;
  for (size_t I = 0; I < Buffers.size(); ++I) {
    if (!Kernel.Ref->Tensors[I].Output)
      continue;
    OutputCheck Check = compareOutput(*Kernel.Ref, Inputs, I, Kernel.DTypes[I],
                                      Shapes[I], Outputs[I].data());
    (Check.Passed ? Stats : Problems).push_back(Check.Detail);
    Result.Mismatches += Check.Mismatches;
    Result.MaxAbsError = std::max(Result.MaxAbsError, Check.MaxAbsError);
    Result.RelFrobenius = std::max(Result.RelFrobenius, Check.RelFrobenius);
  }
  Result.Passed = Problems.empty();
  for (const std::string &Text : Result.Passed ? Stats : Problems)
    Result.Detail += (Result.Detail.empty() ? "" : "; ") + Text;
  return Result;
}

Status KernelRun::untouched(bool &untouched, std::string &why) const {
  std::vector<std::string> Problems;
  TILERT_TRY(checkGuards(Problems));
  std::vector<char> Host;
  for (size_t I = 0; I < Buffers.size(); ++I) {
    if (!Kernel.Ref->Tensors[I].Output)
      continue;
    TILERT_TRY(download(I, GuardBytes, Bytes[I], Host));
    size_t ElementSize = detail::dtypeSize(Kernel.DTypes[I]);
    for (size_t Offset = 0; Offset < Host.size(); Offset += ElementSize)
      if (!isPoison(Kernel.DTypes[I], Host.data() + Offset)) {
        Problems.push_back(detail::strCat(
            "output '", Kernel.Ref->Tensors[I].Name, "' was written"));
        break;
      }
  }
  untouched = Problems.empty();
  why.clear();
  for (const std::string &Text : Problems)
    why += (why.empty() ? "" : "; ") + Text;
  return Status::success();
}

namespace {

/// Runs `file`'s kernel with `dims` through KernelRun, launched by `launch`
/// on `gpu.Stream`, and checks the result.
RunResult runLaunch(
    const GpuContext &gpu, const KernelFile &file,
    const std::vector<int64_t> &dims, uint64_t seed,
    const std::function<void(const std::vector<const DLTensor *> &,
                             const std::vector<tilert::Scalar> &)> &launch) {
  RunResult Failed;
  KernelRun Run(gpu, file, dims, seed);
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
    launch(Arguments, Run.scalars());
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

} // namespace

RunResult runKernel(const GpuContext &gpu, const tilert::KernelView &kernel,
                    const KernelFile &file, const std::vector<int64_t> &dims,
                    uint64_t seed) {
  return runLaunch(gpu, file, dims, seed,
                   [&](const std::vector<const DLTensor *> &tensors,
                       const std::vector<tilert::Scalar> &scalars) {
                     kernel.launch(tensors, scalars, gpu.Stream);
                   });
}

RunResult runPackage(const GpuContext &gpu, const tilert::Package &package,
                     const KernelFile &file, const std::vector<int64_t> &dims,
                     uint64_t seed) {
  return runLaunch(gpu, file, dims, seed,
                   [&](const std::vector<const DLTensor *> &tensors,
                       const std::vector<tilert::Scalar> &scalars) {
                     package.launch(tensors, scalars, gpu.Stream);
                   });
}

} // namespace tilert::gputest
