//===- DeviceTensors.cpp - tile-bench's device tensors --------------------===//

#include "DeviceTensors.h"

#include "DType.h"
#include "HostRandom.h"

#include <cstring>

namespace tilebench {

namespace {

using tilert::support::SplitMix64;

/// Writes `count` random elements of `dtype` to `host`.
void fillRandom(tilertDType dtype, char *host, size_t count, uint64_t seed) {
  size_t Size = tilert::dtypeSize(dtype);
  tilert::support::parallelChunks(
      count, [&](size_t Begin, size_t End, size_t Chunk) {
        SplitMix64 Random(seed ^ (Chunk * 0x9e3779b97f4a7c15ull));
        for (size_t I = Begin; I < End; ++I) {
          char *Element = host + I * Size;
          switch (dtype) {
          case TILERT_DTYPE_F16: {
            uint16_t Bits = tilert::halfFromFloat(float(Random.normal()));
            std::memcpy(Element, &Bits, Size);
            break;
          }
          case TILERT_DTYPE_BF16: {
            uint16_t Bits = tilert::bfloat16FromFloat(float(Random.normal()));
            std::memcpy(Element, &Bits, Size);
            break;
          }
          case TILERT_DTYPE_F32: {
            float Value = float(Random.normal());
            std::memcpy(Element, &Value, Size);
            break;
          }
          case TILERT_DTYPE_F64: {
            double Value = Random.normal();
            std::memcpy(Element, &Value, Size);
            break;
          }
          case TILERT_DTYPE_BOOL: {
            *Element = static_cast<char>(Random.next() & 1);
            break;
          }
          default: { // Integers: small values, the same in every width.
            uint64_t Value = Random.next() % 16;
            std::memcpy(Element, &Value, Size);
            break;
          }
          }
        }
      });
}

} // namespace

DeviceTensors::DeviceTensors(const tilert::detail::DriverApi &api,
                             const std::vector<tilert::TensorParam> &params,
                             const Workload &workload, int device,
                             uint64_t seed)
    : Shapes(workload.Shapes) {
  std::vector<char> Host;
  for (size_t T = 0; T < params.size(); ++T) {
    size_t Count = 1;
    for (int64_t Extent : Shapes[T])
      Count *= static_cast<size_t>(Extent);
    size_t Bytes = Count * tilert::dtypeSize(params[T].dtype);
    tilert::support::DeviceBuffer Buffer;
    check(tilert::support::DeviceBuffer::allocate(
        api, Bytes, "tensor '" + params[T].name + "'", Buffer));
    Host.resize(Bytes);
    fillRandom(params[T].dtype, Host.data(), Count, seed + T);
    if (Bytes > 0)
      check(tilert::detail::checkCu(
          api, api.cuMemcpyHtoD(Buffer.get(), Host.data(), Bytes),
          "cuMemcpyHtoD"));
    Buffers.push_back(std::move(Buffer));
    this->Bytes.push_back(Bytes);
  }
  // Pageable copies may still be in flight on the legacy default stream,
  // which the benchmark's non-blocking stream does not wait for.
  check(tilert::detail::checkCu(api, api.cuStreamSynchronize(nullptr),
                                "cuStreamSynchronize"));
  // Shapes no longer changes, so pointers into it stay valid.
  for (size_t T = 0; T < params.size(); ++T) {
    DLTensor Tensor = {};
    Tensor.data = reinterpret_cast<void *>(Buffers[T].get());
    Tensor.device = {kDLCUDA, device};
    Tensor.ndim = static_cast<int>(Shapes[T].size());
    Tensor.dtype = tilert::detail::toDLDataType(params[T].dtype);
    Tensor.shape = Shapes[T].data();
    Tensors.push_back(Tensor);
  }
}

std::vector<const DLTensor *> DeviceTensors::arguments() const {
  std::vector<const DLTensor *> Result;
  for (const DLTensor &Tensor : Tensors)
    Result.push_back(&Tensor);
  return Result;
}

} // namespace tilebench
