//===- TensorMapCache.cpp - Encoded tensor maps of a kernel -----*- C++ -*-===//

#include "TensorMapCache.h"

#include <algorithm>

namespace tilert::detail {

TensorMapCache::Entry *TensorMapCache::find(int32_t device,
                                            const TensorMapArgs &args) {
  for (size_t I = 0; I < Used; ++I)
    if (Entries[I].Device == device && Entries[I].Args == args)
      return &Entries[I];
  return nullptr;
}

bool TensorMapCache::lookup(int32_t device, const TensorMapArgs &args,
                            CUtensorMap &out) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Entry *Found = find(device, args);
  if (!Found)
    return false;
  Found->LastUse = ++Clock;
  out = Found->Map;
  return true;
}

void TensorMapCache::insert(int32_t device, const TensorMapArgs &args,
                            const CUtensorMap &map) {
  std::lock_guard<std::mutex> Lock(Mutex);
  // Two threads may have encoded the same map at once.
  Entry *Slot = find(device, args);
  if (!Slot && Used < Capacity)
    Slot = &Entries[Used++];
  if (!Slot)
    Slot = &*std::min_element(
        Entries.begin(), Entries.end(),
        [](const Entry &A, const Entry &B) { return A.LastUse < B.LastUse; });
  Slot->Map = map;
  Slot->Args = args;
  Slot->Device = device;
  Slot->LastUse = ++Clock;
}

size_t TensorMapCache::size() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Used;
}

} // namespace tilert::detail
