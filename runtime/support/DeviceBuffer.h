//===- DeviceBuffer.h - Owned device memory for tools and tests -*- C++ -*-===//
//
// Support code for tile-bench and the GPU tests (not part of libtilert):
// device allocations through the runtime's driver table.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_SUPPORT_DEVICEBUFFER_H
#define TILERT_SUPPORT_DEVICEBUFFER_H

#include "Driver.h"

#include <cstddef>
#include <utility>

namespace tilert::support {

/// A device allocation in the current context, freed on destruction.
class DeviceBuffer {
public:
  /// An empty buffer.
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  /// Takes over `other`'s allocation.
  DeviceBuffer(DeviceBuffer &&other) noexcept
      : Api(other.Api), Pointer(std::exchange(other.Pointer, 0)) {}
  /// Frees the current allocation and takes over `other`'s.
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept {
    if (this != &other) {
      release();
      Api = other.Api;
      Pointer = std::exchange(other.Pointer, 0);
    }
    return *this;
  }
  ~DeviceBuffer() { release(); }

  /// Allocates `bytes` bytes (none for 0) in the current context; `what`
  /// names the buffer in the error message.
  static detail::Status allocate(const detail::DriverApi &api, size_t bytes,
                                 const std::string &what, DeviceBuffer &out);

  /// The device address (0 for an empty buffer).
  CUdeviceptr get() const { return Pointer; }

private:
  void release() {
    if (Pointer)
      Api->cuMemFree(Pointer);
    Pointer = 0;
  }

  const detail::DriverApi *Api = nullptr;
  CUdeviceptr Pointer = 0;
};

} // namespace tilert::support

#endif // TILERT_SUPPORT_DEVICEBUFFER_H
