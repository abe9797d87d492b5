//===- DeviceTensors.h - tile-bench's device tensors ------------*- C++ -*-===//

#ifndef TILEBENCH_DEVICETENSORS_H
#define TILEBENCH_DEVICETENSORS_H

#include "DeviceBuffer.h"
#include "Workload.h"

#include <vector>

namespace tilebench {

/// One device buffer per tensor parameter, filled with random values of the
/// tensor's dtype (floats from the standard normal distribution, as
/// torch.randn draws them: a GEMM's power draw, and so its clock, depends on
/// the data; small integers; 0/1 booleans).
class DeviceTensors {
public:
  /// Allocates and fills the tensors `workload` describes on the current
  /// context's device `device`. Throws BenchError on failure.
  DeviceTensors(const tilert::detail::DriverApi &api,
                const std::vector<tilert::TensorParam> &params,
                const Workload &workload, int device, uint64_t seed);

  /// The DLTensors to launch with (valid while this object lives).
  std::vector<const DLTensor *> arguments() const;

  /// The number of tensors, one per tensor parameter.
  size_t size() const { return Buffers.size(); }
  /// Tensor `index`'s device address.
  CUdeviceptr address(size_t index) const { return Buffers[index].get(); }
  /// Tensor `index`'s size in bytes.
  size_t bytes(size_t index) const { return Bytes[index]; }

private:
  std::vector<tilert::support::DeviceBuffer> Buffers;
  std::vector<size_t> Bytes;
  std::vector<std::vector<int64_t>> Shapes;
  std::vector<DLTensor> Tensors;
};

} // namespace tilebench

#endif // TILEBENCH_DEVICETENSORS_H
