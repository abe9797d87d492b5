//===- SelectionCache.h - A package's selections per shape ------*- C++ -*-===//

#ifndef TILERT_LIB_SELECTIONCACHE_H
#define TILERT_LIB_SELECTIONCACHE_H

#include <cstddef>
#include <cstdint>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

namespace tilert::detail {

/// The variant a package selected for each (device, dims) seen so far.
/// Thread-safe. Entries are never removed, so a hit stays valid as long as
/// the cache. A lookup allocates nothing: each thread first checks the last
/// hit or insertion it had (on any cache: every cache has an identity of its
/// own that is never reused), which takes no lock, then the map under a shared
/// lock.
class SelectionCache {
public:
  SelectionCache();
  SelectionCache(const SelectionCache &) = delete;
  SelectionCache &operator=(const SelectionCache &) = delete;

  /// Sets `variant` to what was recorded for `device` and `dims` (`count`
  /// values) and returns true, or returns false if nothing was.
  bool find(int32_t device, const int64_t *dims, size_t count,
            size_t &variant) const;

  /// Records `variant` for `device` and `dims`; a second record of the same
  /// key keeps the first.
  void insert(int32_t device, const int64_t *dims, size_t count,
              size_t variant);

  /// The number of recorded keys.
  size_t size() const;

private:
  struct Entry {
    int32_t Device;
    std::vector<int64_t> Dims;
    size_t Variant;
  };

  /// Makes `variant` for `device` and `dims` the calling thread's last hit.
  void remember(int32_t device, const int64_t *dims, size_t count,
                size_t variant) const;

  static uint64_t hash(int32_t device, const int64_t *dims, size_t count);

  /// This cache's identity for the threads' last hits.
  const uint64_t Id;
  mutable std::shared_mutex Mutex;
  /// The entries by hash; guarded by Mutex.
  std::unordered_map<uint64_t, std::vector<Entry>> Buckets;
  size_t Count = 0;
};

} // namespace tilert::detail

#endif // TILERT_LIB_SELECTIONCACHE_H
