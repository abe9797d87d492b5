//===- DeviceModule.h - A kernel loaded on one device -----------*- C++ -*-===//
//
// Loads a kernel on one CUDA device: checks the device against the binaries'
// architecture and the kernel's resource needs, picks the best binary, loads
// it with cuLibraryLoadData (PTX is JIT-compiled by the driver), resolves the
// entry in the device's primary context and sets the function attributes the
// launch needs.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_DEVICEMODULE_H
#define TILERT_LIB_DEVICEMODULE_H

#include "BinaryImages.h"
#include "Driver.h"
#include "Metadata.h"
#include "Status.h"

#include <array>
#include <memory>
#include <vector>

namespace tilert::detail {

/// A kernel's function, loaded in the primary context of one device.
class DeviceModule {
public:
  /// Loads `metadata`'s kernel (binaries `images`) on CUDA device ordinal
  /// `device`. Errors: TILERT_ERROR_INVALID_ARGUMENT (no such device),
  /// TILERT_ERROR_ARCH_MISMATCH, TILERT_ERROR_UNSUPPORTED (shared memory,
  /// block size, clusters), TILERT_ERROR_JIT (with the JIT log),
  /// TILERT_ERROR_METADATA (entry missing from the binary), TILERT_ERROR_CUDA.
  static Status load(const DriverApi &api, const KernelMetadata &metadata,
                     const std::vector<BinaryImage> &images, int32_t device,
                     std::unique_ptr<DeviceModule> &out);

  DeviceModule(const DeviceModule &) = delete;
  DeviceModule &operator=(const DeviceModule &) = delete;
  /// Unloads the library and releases the primary context.
  ~DeviceModule();

  /// The driver the module was loaded with.
  const DriverApi &api() const { return Api; }

  /// The device's primary context, where function() lives.
  CUcontext context() const { return Context; }

  /// The kernel's entry function.
  CUfunction function() const { return Function; }

  /// How many blocks of the kernel the device keeps resident at once (its
  /// multiprocessors times the blocks that fit on one), at least 1: the
  /// blocks a persistent launch starts.
  uint32_t residentBlocks() const { return ResidentBlocks; }

private:
  DeviceModule(const DriverApi &api, CUdevice device)
      : Api(api), Device(device) {}

  /// Loads `image` and resolves the entry. Sets `notForDevice` when the
  /// driver says the image has no code for this device.
  Status loadImage(const KernelMetadata &metadata, const BinaryImage &image,
                   const std::string &deviceName, bool &notForDevice);

  /// Sets the function attributes the launch configuration needs.
  Status setAttributes(const KernelMetadata &metadata);

  /// Bounds ResidentBlocks, for a kernel launched in clusters, by the
  /// clusters the device runs at once (cuOccupancyMaxActiveClusters).
  Status boundResidentClusters(const KernelMetadata &metadata);

  void unloadLibrary();

  const DriverApi &Api;
  CUdevice Device;
  CUcontext Context = nullptr;
  CUlibrary Library = nullptr;
  CUfunction Function = nullptr;
  uint32_t ResidentBlocks = 1;
  /// The JIT error log. It lives as long as the library because the driver
  /// may JIT-compile lazily, after cuLibraryLoadData returns.
  std::array<char, 16384> JitLog{};
};

} // namespace tilert::detail

#endif // TILERT_LIB_DEVICEMODULE_H
