//===- DeviceContext.h - tile-bench's CUDA context and stream ---*- C++ -*-===//

#ifndef TILEBENCH_DEVICECONTEXT_H
#define TILEBENCH_DEVICECONTEXT_H

#include "Driver.h"

#include <string>

namespace tilebench {

/// The number of CUDA devices. Throws BenchError on a driver error.
int deviceCount(const tilert::detail::DriverApi &api);

/// A device's primary context, current on the constructing thread while
/// alive.
class PrimaryContext {
public:
  /// Retains device `ordinal`'s primary context and makes it current. Throws
  /// BenchError for an ordinal out of range or a driver error.
  PrimaryContext(const tilert::detail::DriverApi &api, int ordinal);
  PrimaryContext(const PrimaryContext &) = delete;
  PrimaryContext &operator=(const PrimaryContext &) = delete;
  ~PrimaryContext();

  /// The device's name, e.g. "NVIDIA H200".
  const std::string &name() const { return Name; }
  /// The device's compute capability as an architecture name, "sm_90".
  const std::string &arch() const { return Arch; }

private:
  const tilert::detail::DriverApi &Api;
  CUdevice Device = 0;
  CUcontext Context = nullptr;
  std::string Name;
  std::string Arch;
};

/// A non-blocking stream, destroyed with the object.
class Stream {
public:
  /// Creates a stream in the current context. Throws BenchError on failure.
  explicit Stream(const tilert::detail::DriverApi &api);
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();

  /// The stream's handle.
  CUstream get() const { return Handle; }

private:
  const tilert::detail::DriverApi &Api;
  CUstream Handle = nullptr;
};

} // namespace tilebench

#endif // TILEBENCH_DEVICECONTEXT_H
