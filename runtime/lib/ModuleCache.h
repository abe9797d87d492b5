//===- ModuleCache.h - Per-device lazy loading ------------------*- C++ -*-===//

#ifndef TILERT_LIB_MODULECACHE_H
#define TILERT_LIB_MODULECACHE_H

#include "DeviceModule.h"

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>

namespace tilert::detail {

/// A kernel's DeviceModules, loaded on first use of each device. Thread-safe:
/// concurrent first uses of a device load it once; a failed load is retried
/// on the next use. Once a device ordinal below FastDevices has its module,
/// finding it takes one atomic load (no lock, no map lookup): launches look
/// it up every time.
class ModuleCache {
public:
  /// Device ordinals below this are found without locking.
  static constexpr int32_t FastDevices = 64;

  /// Returns in `out` the kernel loaded on CUDA device `device`, loading it
  /// now if this is the device's first use. `out` stays valid as long as the
  /// cache.
  Status get(const DriverApi &api, const KernelMetadata &metadata,
             const std::vector<BinaryImage> &images, int32_t device,
             const DeviceModule *&out);

  /// Returns the kernel loaded on `device` if it is loaded and `device` is
  /// below FastDevices (one atomic load), else nullptr (use get()).
  const DeviceModule *find(int32_t device) const {
    if (device < 0 || device >= FastDevices)
      return nullptr;
    return Loaded[device].load(std::memory_order_acquire);
  }

private:
  std::mutex Mutex;
  /// Owns every module; guarded by Mutex.
  std::map<int32_t, std::unique_ptr<DeviceModule>> Modules;
  /// The loaded modules of the first FastDevices ordinals (nullptr until
  /// loaded), published after the load completed.
  std::array<std::atomic<const DeviceModule *>, FastDevices> Loaded{};
};

} // namespace tilert::detail

#endif // TILERT_LIB_MODULECACHE_H
