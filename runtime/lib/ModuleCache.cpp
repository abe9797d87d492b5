//===- ModuleCache.cpp - Per-device lazy loading ----------------*- C++ -*-===//

#include "ModuleCache.h"

namespace tilert::detail {

Status ModuleCache::get(const DriverApi &api, const KernelMetadata &metadata,
                        const std::vector<BinaryImage> &images, int32_t device,
                        const DeviceModule *&out) {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::unique_ptr<DeviceModule> &Slot = Modules[device];
  if (!Slot) {
    Status Loaded = DeviceModule::load(api, metadata, images, device, Slot);
    if (!Loaded.ok()) {
      Modules.erase(device);
      return Loaded;
    }
  }
  out = Slot.get();
  return Status::success();
}

} // namespace tilert::detail
