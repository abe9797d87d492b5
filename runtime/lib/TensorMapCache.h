//===- TensorMapCache.h - Encoded tensor maps of a kernel -------*- C++ -*-===//
//
// Encoding a CUtensorMap is a driver call; a kernel launched again on the
// same tensors (the usual case: the same buffers every step) reuses the map
// encoded the first time. The cache is a small LRU table keyed by the device
// and every argument of the encoding, so a hit is exactly the map the driver
// would encode again. It allocates nothing after construction.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_TENSORMAPCACHE_H
#define TILERT_LIB_TENSORMAPCACHE_H

#include "TensorMap.h"

#include <cuda.h>

#include <array>
#include <cstdint>
#include <mutex>

namespace tilert::detail {

/// The encoded tensor maps of one kernel, least recently used evicted first.
/// Thread-safe.
class TensorMapCache {
public:
  /// The number of maps kept.
  static constexpr size_t Capacity = 16;

  /// Copies the map encoded for `args` on CUDA device `device` into `out`
  /// and marks it most recently used; returns false if it is not cached.
  bool lookup(int32_t device, const TensorMapArgs &args, CUtensorMap &out);

  /// Caches `map`, encoded for `args` on `device`, as the most recently used
  /// entry (replacing an equal key, else evicting the least recently used
  /// entry when full).
  void insert(int32_t device, const TensorMapArgs &args,
              const CUtensorMap &map);

  /// The number of maps cached.
  size_t size() const;

private:
  struct Entry {
    CUtensorMap Map;
    TensorMapArgs Args;
    int32_t Device = -1;
    /// The value of Clock at the entry's last use.
    uint64_t LastUse = 0;
  };

  /// The entry of (`device`, `args`), or nullptr.
  Entry *find(int32_t device, const TensorMapArgs &args);

  mutable std::mutex Mutex;
  std::array<Entry, Capacity> Entries{};
  size_t Used = 0;
  uint64_t Clock = 0;
};

} // namespace tilert::detail

#endif // TILERT_LIB_TENSORMAPCACHE_H
