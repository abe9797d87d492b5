//===- TensorMapCacheTest.cpp - Encoded tensor maps of a kernel -----------===//

#include "TensorMapCache.h"

#include <catch2/catch.hpp>

#include <thread>
#include <vector>

using namespace tilert::detail;

namespace {

/// Distinct arguments per `address`.
TensorMapArgs argsAt(uint64_t address) {
  TensorMapArgs Args;
  Args.DataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  Args.Rank = 2;
  Args.Address = address;
  Args.GlobalDim = {64, 32, 0, 0, 0};
  Args.GlobalStrides = {128, 0, 0, 0};
  Args.BoxDim = {64, 32, 0, 0, 0};
  Args.ElementStrides = {1, 1, 0, 0, 0};
  return Args;
}

/// A stand-in for an encoded map, recognizable by `tag`.
CUtensorMap fakeMap(uint64_t tag) {
  CUtensorMap Map{};
  Map.opaque[0] = tag;
  Map.opaque[15] = ~tag;
  return Map;
}

/// The tag of the map cached for (`device`, `address`), or 0 on a miss.
uint64_t cachedTag(TensorMapCache &cache, int32_t device, uint64_t address) {
  CUtensorMap Map{};
  if (!cache.lookup(device, argsAt(address), Map))
    return 0;
  CHECK(Map.opaque[15] == ~Map.opaque[0]);
  return Map.opaque[0];
}

} // namespace

TEST_CASE("the tensor map cache is keyed by device and arguments",
          "[tensormap]") {
  TensorMapCache Cache;
  CHECK(Cache.size() == 0);
  CHECK(cachedTag(Cache, 0, 0x1000) == 0);
  Cache.insert(0, argsAt(0x1000), fakeMap(7));
  CHECK(Cache.size() == 1);
  CHECK(cachedTag(Cache, 0, 0x1000) == 7);
  CHECK(cachedTag(Cache, 1, 0x1000) == 0);
  CHECK(cachedTag(Cache, 0, 0x1010) == 0);
  TensorMapArgs OtherBox = argsAt(0x1000);
  OtherBox.BoxDim[1] = 16;
  CUtensorMap Ignored;
  CHECK_FALSE(Cache.lookup(0, OtherBox, Ignored));

  // Inserting an equal key replaces its map.
  Cache.insert(0, argsAt(0x1000), fakeMap(8));
  CHECK(Cache.size() == 1);
  CHECK(cachedTag(Cache, 0, 0x1000) == 8);
  Cache.insert(1, argsAt(0x1000), fakeMap(9));
  CHECK(Cache.size() == 2);
  CHECK(cachedTag(Cache, 1, 0x1000) == 9);
  CHECK(cachedTag(Cache, 0, 0x1000) == 8);
}

TEST_CASE("the tensor map cache evicts the least recently used map",
          "[tensormap]") {
  TensorMapCache Cache;
  const uint64_t N = TensorMapCache::Capacity;
  for (uint64_t I = 1; I <= N; ++I)
    Cache.insert(0, argsAt(I * 0x100), fakeMap(I));
  CHECK(Cache.size() == N);
  // Using the oldest entry makes the second one the least recently used.
  CHECK(cachedTag(Cache, 0, 0x100) == 1);
  Cache.insert(0, argsAt(0x10000), fakeMap(100));
  CHECK(Cache.size() == N);
  CHECK(cachedTag(Cache, 0, 0x200) == 0);
  CHECK(cachedTag(Cache, 0, 0x100) == 1);
  CHECK(cachedTag(Cache, 0, 0x10000) == 100);
  for (uint64_t I = 3; I <= N; ++I)
    CHECK(cachedTag(Cache, 0, I * 0x100) == I);
  // Now 0x100 is the least recently used.
  Cache.insert(0, argsAt(0x20000), fakeMap(200));
  CHECK(cachedTag(Cache, 0, 0x100) == 0);
  CHECK(cachedTag(Cache, 0, 0x20000) == 200);
}

TEST_CASE("the tensor map cache is thread-safe", "[tensormap]") {
  TensorMapCache Cache;
  std::vector<std::thread> Threads;
  std::vector<int> Mismatches(4, 0);
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&, T] {
      for (uint64_t I = 1; I <= 2000; ++I) {
        uint64_t Address = (I % 40 + 1) * 0x100;
        CUtensorMap Map{};
        if (Cache.lookup(T % 2, argsAt(Address), Map)) {
          if (Map.opaque[0] != Address + T % 2 ||
              Map.opaque[15] != ~Map.opaque[0])
            ++Mismatches[T];
        } else {
          Cache.insert(T % 2, argsAt(Address), fakeMap(Address + T % 2));
        }
      }
    });
  for (std::thread &Thread : Threads)
    Thread.join();
  CHECK(Mismatches == std::vector<int>(4, 0));
  CHECK(Cache.size() == TensorMapCache::Capacity);
}
