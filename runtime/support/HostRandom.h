//===- HostRandom.h - Fast host-side test data ------------------*- C++ -*-===//
//
// Support code for tile-bench and the GPU tests (not part of libtilert):
// a small PRNG and a deterministic parallel loop to generate and check
// hundreds of millions of elements quickly.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_SUPPORT_HOSTRANDOM_H
#define TILERT_SUPPORT_HOSTRANDOM_H

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace tilert::support {

/// SplitMix64 (Steele, Lea, Flood 2014): fast, with good statistical quality
/// for test data; never for cryptography.
class SplitMix64 {
public:
  /// A generator seeded with `seed`.
  explicit SplitMix64(uint64_t seed) : State(seed) {}

  /// The next 64 random bits.
  uint64_t next() {
    uint64_t Z = (State += 0x9e3779b97f4a7c15ull);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
    return Z ^ (Z >> 31);
  }

  /// A float uniformly distributed in [low, high).
  float uniform(float low, float high) {
    float Unit = static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
    return low + (high - low) * Unit;
  }

  /// A sample of the standard normal distribution (Box-Muller), as
  /// torch.randn draws: what benchmarks time kernels on.
  double normal() {
    constexpr double Unit = 1.0 / 9007199254740992.0;           // 2^-53
    double U1 = static_cast<double>((next() >> 11) + 1) * Unit; // (0, 1]
    double U2 = static_cast<double>(next() >> 11) * Unit;
    return std::sqrt(-2.0 * std::log(U1)) * std::cos(6.283185307179586 * U2);
  }

private:
  uint64_t State;
};

/// Elements per chunk of parallelChunks.
inline constexpr size_t ChunkSize = size_t(1) << 20;

/// Calls `body(begin, end, chunk)` for every ChunkSize-element chunk of
/// [0, count) on all hardware threads. Chunk boundaries and indices do not
/// depend on the thread count, so per-chunk seeds give reproducible data.
void parallelChunks(size_t count,
                    const std::function<void(size_t, size_t, size_t)> &body);

} // namespace tilert::support

#endif // TILERT_SUPPORT_HOSTRANDOM_H
