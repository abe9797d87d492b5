//===- ModuleCache.cpp - Per-device lazy loading ----------------*- C++ -*-===//

#include "ModuleCache.h"

namespace tilert::detail {

Status ModuleCache::get(const DriverApi &api, const KernelMetadata &metadata,
                        const std::vector<BinaryImage> &images, int32_t device,
                        const DeviceModule *&out) {
  out = find(device);
  if (out)
    return Status::success();
  bool Fast = device >= 0 && device < FastDevices;
  std::lock_guard<std::mutex> Lock(Mutex);
  std::unique_ptr<DeviceModule> &Slot = Modules[device];
  if (!Slot) {
    Status Result = DeviceModule::load(api, metadata, images, device, Slot);
    if (!Result.ok()) {
      Modules.erase(device);
      return Result;
    }
  }
  out = Slot.get();
  if (Fast)
    Loaded[device].store(out, std::memory_order_release);
  return Status::success();
}

} // namespace tilert::detail
