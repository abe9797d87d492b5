//===- SelectionCache.cpp - A package's selections per shape ----*- C++ -*-===//

#include "SelectionCache.h"

#include <algorithm>
#include <atomic>
#include <mutex>

namespace tilert::detail {

namespace {

/// The last hit of the calling thread.
struct LastHit {
  /// The cache it was on (0: none yet).
  uint64_t Cache = 0;
  int32_t Device = 0;
  std::vector<int64_t> Dims;
  size_t Variant = 0;
};

/// The calling thread's last hit. Out of line, so a lookup computes the
/// thread-local address once.
[[gnu::noinline]] LastHit &threadLastHit() {
  thread_local LastHit Hit;
  return Hit;
}

uint64_t nextCacheId() {
  static std::atomic<uint64_t> Next{1};
  return Next.fetch_add(1, std::memory_order_relaxed);
}

bool sameKey(int32_t device, const std::vector<int64_t> &dims,
             int32_t otherDevice, const int64_t *otherDims, size_t count) {
  return device == otherDevice && dims.size() == count &&
         std::equal(dims.begin(), dims.end(), otherDims);
}

} // namespace

SelectionCache::SelectionCache() : Id(nextCacheId()) {}

uint64_t SelectionCache::hash(int32_t device, const int64_t *dims,
                              size_t count) {
  // FNV-1a over the 64-bit words, then a final mix.
  uint64_t Hash = 0xcbf29ce484222325ull ^ static_cast<uint32_t>(device);
  for (size_t I = 0; I < count; ++I)
    Hash = (Hash ^ static_cast<uint64_t>(dims[I])) * 0x100000001b3ull;
  Hash ^= Hash >> 29;
  return Hash;
}

void SelectionCache::remember(int32_t device, const int64_t *dims, size_t count,
                              size_t variant) const {
  LastHit &Last = threadLastHit();
  Last.Cache = Id;
  Last.Device = device;
  Last.Dims.assign(dims, dims + count);
  Last.Variant = variant;
}

bool SelectionCache::find(int32_t device, const int64_t *dims, size_t count,
                          size_t &variant) const {
  LastHit &Last = threadLastHit();
  if (Last.Cache == Id &&
      sameKey(Last.Device, Last.Dims, device, dims, count)) {
    variant = Last.Variant;
    return true;
  }
  std::shared_lock<std::shared_mutex> Lock(Mutex);
  auto Bucket = Buckets.find(hash(device, dims, count));
  if (Bucket == Buckets.end())
    return false;
  for (const Entry &Each : Bucket->second)
    if (sameKey(Each.Device, Each.Dims, device, dims, count)) {
      variant = Each.Variant;
      remember(device, dims, count, variant);
      return true;
    }
  return false;
}

void SelectionCache::insert(int32_t device, const int64_t *dims, size_t count,
                            size_t variant) {
  remember(device, dims, count, variant);
  std::unique_lock<std::shared_mutex> Lock(Mutex);
  std::vector<Entry> &Bucket = Buckets[hash(device, dims, count)];
  for (const Entry &Each : Bucket)
    if (sameKey(Each.Device, Each.Dims, device, dims, count))
      return;
  Bucket.push_back({device, std::vector<int64_t>(dims, dims + count), variant});
  ++Count;
}

size_t SelectionCache::size() const {
  std::shared_lock<std::shared_mutex> Lock(Mutex);
  return Count;
}

} // namespace tilert::detail
