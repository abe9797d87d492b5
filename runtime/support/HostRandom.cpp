//===- HostRandom.cpp - Fast host-side test data --------------------------===//

#include "HostRandom.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace tilert::support {

void parallelChunks(size_t count,
                    const std::function<void(size_t, size_t, size_t)> &body) {
  size_t Chunks = (count + ChunkSize - 1) / ChunkSize;
  size_t Threads = std::min<size_t>(
      Chunks, std::max(1u, std::thread::hardware_concurrency()));
  std::atomic<size_t> Next{0};
  auto Worker = [&] {
    for (size_t Chunk = Next++; Chunk < Chunks; Chunk = Next++)
      body(Chunk * ChunkSize, std::min(count, (Chunk + 1) * ChunkSize), Chunk);
  };
  std::vector<std::thread> Pool;
  for (size_t I = 1; I < Threads; ++I)
    Pool.emplace_back(Worker);
  Worker();
  for (std::thread &Thread : Pool)
    Thread.join();
}

} // namespace tilert::support
