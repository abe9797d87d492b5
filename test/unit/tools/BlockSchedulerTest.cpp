//===- BlockSchedulerTest.cpp - A block's threads as fibers ---------------===//

#include "BlockScheduler.h"

#include "AccessChecker.h"
#include "HostTensorMap.h"

#include "llvm/ADT/APFloat.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <string>
#include <vector>

using namespace tilehost;

namespace {

/// A scheduler and the special registers it sets.
struct Block {
  std::array<uint32_t, kNumSpecialRegisters> registers{};
  BlockScheduler scheduler{registers};

  /// The thread the scheduler runs now.
  uint32_t thread() const { return registers[kTidX]; }
};

std::string errorText(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : std::string();
}

} // namespace

TEST_CASE("a barrier orders shared memory between threads") {
  Block block;
  constexpr uint32_t kThreads = 96;
  std::vector<uint32_t> read(kThreads);
  auto *shared =
      reinterpret_cast<uint32_t *>(block.scheduler.getSharedMemory());
  llvm::Error error = block.scheduler.runBlock(kThreads, [&] {
    uint32_t thread = block.thread();
    shared[thread] = thread * 7;
    block.scheduler.barrier(0, 0, /*wait=*/true);
    // Another thread's value, written before the barrier.
    read[thread] = shared[(thread + 1) % kThreads];
  });
  REQUIRE(errorText(std::move(error)).empty());
  for (uint32_t thread = 0; thread < kThreads; ++thread)
    CHECK(read[thread] == (thread + 1) % kThreads * 7);
}

TEST_CASE("shared memory starts each block as 0xff bytes") {
  Block block;
  std::vector<uint32_t> seen;
  for (int run = 0; run < 2; ++run) {
    llvm::Error error = block.scheduler.runBlock(1, [&] {
      auto *shared =
          reinterpret_cast<uint32_t *>(block.scheduler.getSharedMemory());
      seen.push_back(shared[5]);
      shared[5] = 1;
    });
    REQUIRE(errorText(std::move(error)).empty());
  }
  CHECK(seen == std::vector<uint32_t>{0xffffffffu, 0xffffffffu});
}

TEST_CASE("shfl.sync follows PTX in every mode") {
  Block block;
  // lane -> (value read, in range), per mode and operands.
  struct Case {
    ShuffleMode mode;
    uint32_t b, c;
  };
  const Case cases[] = {
      {ShuffleMode::Butterfly, 16, 31},
      {ShuffleMode::Butterfly, 1, 31},
      {ShuffleMode::Down, 3, 31},
      {ShuffleMode::Up, 5, 0},
      {ShuffleMode::Index, 9, 31},
      // Segments of 8 lanes (segmask 0x18): an index within each segment.
      {ShuffleMode::Index, 2, 0x1807},
      {ShuffleMode::Down, 2, 0x1807},
  };
  for (const Case &shuffle : cases) {
    std::vector<uint64_t> result(64);
    llvm::Error error = block.scheduler.runBlock(64, [&] {
      uint32_t thread = block.thread();
      result[thread] = block.scheduler.shuffle(shuffle.mode, ~0u, 1000 + thread,
                                               shuffle.b, shuffle.c);
    });
    REQUIRE(errorText(std::move(error)).empty());
    for (uint32_t thread = 0; thread < 64; ++thread) {
      int lane = int(thread % 32), warp = int(thread / 32);
      int segmask = int(shuffle.c >> 8 & 31), cval = int(shuffle.c & 31);
      int maxLane = (lane & segmask) | (cval & ~segmask);
      int source = 0;
      bool inRange = false;
      switch (shuffle.mode) {
      case ShuffleMode::Butterfly:
        source = lane ^ int(shuffle.b);
        inRange = source <= maxLane;
        break;
      case ShuffleMode::Down:
        source = lane + int(shuffle.b);
        inRange = source <= maxLane;
        break;
      case ShuffleMode::Up:
        source = lane - int(shuffle.b);
        inRange = source >= maxLane;
        break;
      case ShuffleMode::Index:
        source = (lane & segmask) | (int(shuffle.b) & ~segmask);
        inRange = source <= maxLane;
        break;
      }
      if (!inRange)
        source = lane;
      INFO("mode " << int(shuffle.mode) << " b " << shuffle.b << " c "
                   << shuffle.c << " thread " << thread);
      CHECK(result[thread] ==
            (uint64_t(1000 + warp * 32 + source) | uint64_t(inRange) << 32));
    }
  }
}

TEST_CASE("a butterfly sum over a partial warp") {
  // 48 threads: the second warp has 16 lanes; a full mask means those.
  Block block;
  std::vector<uint32_t> sums(48);
  llvm::Error error = block.scheduler.runBlock(48, [&] {
    uint32_t thread = block.thread();
    uint32_t value = thread;
    for (uint32_t offset = 8; offset; offset /= 2)
      value += uint32_t(block.scheduler.shuffle(ShuffleMode::Butterfly, ~0u,
                                                value, offset, 31));
    sums[thread] = value;
  });
  REQUIRE(errorText(std::move(error)).empty());
  for (uint32_t thread = 0; thread < 48; ++thread) {
    uint32_t first = thread / 16 * 16, expected = 0;
    for (uint32_t k = first; k < first + 16; ++k)
      expected += k;
    CHECK(sums[thread] == expected);
  }
}

TEST_CASE("vote.sync") {
  Block block;
  std::vector<uint32_t> ballot(32), all(32), any(32), uniform(32);
  llvm::Error error = block.scheduler.runBlock(32, [&] {
    uint32_t thread = block.thread();
    bool odd = thread % 2;
    ballot[thread] = block.scheduler.vote(VoteMode::Ballot, ~0u, odd);
    all[thread] = block.scheduler.vote(VoteMode::All, ~0u, odd);
    any[thread] = block.scheduler.vote(VoteMode::Any, ~0u, odd);
    uniform[thread] = block.scheduler.vote(VoteMode::Uniform, ~0u, true);
  });
  REQUIRE(errorText(std::move(error)).empty());
  CHECK(ballot == std::vector<uint32_t>(32, 0xaaaaaaaau));
  CHECK(all == std::vector<uint32_t>(32, 0));
  CHECK(any == std::vector<uint32_t>(32, 1));
  CHECK(uniform == std::vector<uint32_t>(32, 1));
}

TEST_CASE("threads that have finished count at a barrier of every thread") {
  Block block;
  int passed = 0;
  llvm::Error error = block.scheduler.runBlock(64, [&] {
    if (block.thread() >= 32)
      return;
    block.scheduler.barrier(0, 0, /*wait=*/true);
    ++passed;
  });
  REQUIRE(errorText(std::move(error)).empty());
  CHECK(passed == 32);
}

TEST_CASE("a named barrier of a thread count, with arrivals") {
  // Warps 0-1 arrive at barrier 1, warps 2-3 wait there: a producer and a
  // consumer.
  Block block;
  std::vector<uint32_t> read(64);
  auto *shared =
      reinterpret_cast<uint32_t *>(block.scheduler.getSharedMemory());
  llvm::Error error = block.scheduler.runBlock(128, [&] {
    uint32_t thread = block.thread();
    if (thread < 64) {
      shared[thread] = thread + 5;
      block.scheduler.barrier(1, 128, /*wait=*/false);
      return;
    }
    block.scheduler.barrier(1, 128, /*wait=*/true);
    read[thread - 64] = shared[thread - 64];
  });
  REQUIRE(errorText(std::move(error)).empty());
  for (uint32_t k = 0; k < 64; ++k)
    CHECK(read[k] == k + 5);
}

TEST_CASE("a deadlock names the waiting threads") {
  Block block;
  // A barrier of 64 threads in a block of 32.
  std::string error = errorText(block.scheduler.runBlock(
      32, [&] { block.scheduler.barrier(2, 64, /*wait=*/true); }));
  CHECK(error == "block (0, 0, 0) deadlocked: 32 threads (first 0) wait at "
                 "barrier 2 (64 threads)");

  // A shuffle that lane 31 never reaches.
  error = errorText(block.scheduler.runBlock(32, [&] {
    if (block.thread() != 31)
      block.scheduler.shuffle(ShuffleMode::Butterfly, ~0u, 1, 1, 31);
  }));
  CHECK(error == "block (0, 0, 0) deadlocked: 31 threads (first 0) wait at "
                 "shfl.sync of warp 0; 1 finished");

  // The scheduler runs the next block normally.
  int ran = 0;
  CHECK(errorText(block.scheduler.runBlock(32, [&] { ++ran; })).empty());
  CHECK(ran == 32);
}

TEST_CASE("misused barriers and warp operations are errors") {
  Block block;
  std::string error = errorText(block.scheduler.runBlock(64, [&] {
    block.scheduler.barrier(3, block.thread() < 32 ? 64 : 96, true);
  }));
  CHECK(error == "thread 32 of block (0, 0, 0): barrier 3 is reached with 96 "
                 "expected threads while 32 arrived expecting 64 (0: every "
                 "thread)");

  error = errorText(block.scheduler.runBlock(
      32, [&] { block.scheduler.barrier(16, 0, true); }));
  CHECK(error ==
        "thread 0 of block (0, 0, 0): barrier 16 does not exist (0 to 15)");

  error = errorText(block.scheduler.runBlock(32, [&] {
    block.scheduler.shuffle(ShuffleMode::Index, 0xffff, 0, 0, 31);
  }));
  CHECK(error == "thread 16 of block (0, 0, 0): shfl.sync with a mask "
                 "(65535) that leaves out the calling lane 16");

  error = errorText(block.scheduler.runBlock(32, [&] {
    block.scheduler.shuffle(ShuffleMode::Index, 0xffff, 0, 20, 31);
  }));
  // The last lane to arrive goes on first.
  CHECK(error == "thread 15 of block (0, 0, 0): shfl.sync reads lane 20, "
                 "which is not in its mask 65535");
}

namespace {
/// The f16 bits of small integers and halves (exact in f16).
uint16_t half(float value) {
  llvm::APFloat converted(value);
  bool losesInfo;
  converted.convert(llvm::APFloat::IEEEhalf(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return uint16_t(converted.bitcastToAPInt().getZExtValue());
}
} // namespace

TEST_CASE("ldmatrix gives each lane its pairs, transposed with .trans") {
  Block block;
  // Four 8 x 8 b16 matrices, rows 32 bytes apart: element (m, r, c) is
  // 1000 m + 10 r + c. Shared memory starts each block anew: thread 0
  // writes them.
  auto fill = [&] {
    auto *shared =
        reinterpret_cast<uint16_t *>(block.scheduler.getSharedMemory());
    for (uint32_t m = 0; m < 4; ++m)
      for (uint32_t r = 0; r < 8; ++r)
        for (uint32_t c = 0; c < 8; ++c)
          shared[(m * 8 + r) * 16 + c] = uint16_t(1000 * m + 10 * r + c);
  };
  for (bool transpose : {false, true}) {
    for (uint32_t count : {1u, 2u, 4u}) {
      std::vector<std::array<uint32_t, 4>> registers(32);
      llvm::Error error = block.scheduler.runBlock(32, [&] {
        uint32_t lane = block.thread();
        if (lane == 0)
          fill();
        block.scheduler.barrier(0, 0, /*wait=*/true);
        const char *row =
            block.scheduler.getSharedMemory() + (lane / 8 * 8 + lane % 8) * 32;
        block.scheduler.loadMatrices(count, transpose, row,
                                     registers[lane].data());
      });
      REQUIRE(errorText(std::move(error)).empty());
      for (uint32_t lane = 0; lane < 32; ++lane) {
        for (uint32_t m = 0; m < count; ++m) {
          uint32_t r = lane / 4, c = 2 * (lane % 4);
          uint32_t low =
              transpose ? 1000 * m + 10 * c + r : 1000 * m + 10 * r + c;
          uint32_t high = transpose ? low + 10 : low + 1;
          INFO("lane " << lane << " matrix " << m << " trans " << transpose);
          CHECK(registers[lane][m] == (low | high << 16));
        }
      }
    }
  }
}

TEST_CASE("mma.sync m16n8k16: the identity times B plus C") {
  // A = I (16 x 16), B (16 x 8) with B[k][n] = k + n / 2, C = 0.5: D = B
  // + C, each element where PTX's layouts put it.
  Block block;
  for (MmaKind kind : {MmaKind::F16F32, MmaKind::F16F16}) {
    std::vector<std::array<uint32_t, kMmaCWords>> results(32);
    llvm::Error error = block.scheduler.runBlock(32, [&] {
      uint32_t lane = block.thread();
      uint32_t group = lane / 4, pair = 2 * (lane % 4);
      auto a = [&](uint32_t row, uint32_t k) {
        return uint32_t(half(row == k ? 1.0f : 0.0f));
      };
      auto b = [&](uint32_t k, uint32_t n) {
        return uint32_t(half(k + n / 2.0f));
      };
      std::array<uint32_t, kMmaAWords + kMmaBWords + kMmaCWords> operands{};
      // a0: (group, pair), a1: (group + 8, pair), a2: (group, pair + 8),
      // a3: (group + 8, pair + 8); b0: (pair, group), b1: (pair + 8, group).
      for (uint32_t word = 0; word < 4; ++word) {
        uint32_t row = group + (word % 2) * 8, k = pair + (word / 2) * 8;
        operands[word] = a(row, k) | a(row, k + 1) << 16;
      }
      for (uint32_t word = 0; word < 2; ++word)
        operands[4 + word] =
            b(pair + 8 * word, group) | b(pair + 8 * word + 1, group) << 16;
      float c = 0.5f;
      if (kind == MmaKind::F16F16) {
        operands[6] = operands[7] = half(c) | uint32_t(half(c)) << 16;
      } else {
        for (uint32_t word = 6; word < 10; ++word)
          std::memcpy(&operands[word], &c, sizeof(c));
      }
      block.scheduler.multiplyAccumulate(kind, operands.data(),
                                         results[lane].data());
    });
    REQUIRE(errorText(std::move(error)).empty());
    for (uint32_t lane = 0; lane < 32; ++lane) {
      for (uint32_t index = 0; index < 4; ++index) {
        // d0, d1: (lane / 4, 2 (lane % 4) + {0, 1}); d2, d3: 8 rows down.
        uint32_t row = lane / 4 + (index / 2) * 8;
        uint32_t column = 2 * (lane % 4) + index % 2;
        float expected = row + column / 2.0f + 0.5f;
        INFO("lane " << lane << " d" << index << " kind " << int(kind));
        if (kind == MmaKind::F16F16)
          CHECK(uint16_t(results[lane][index / 2] >> (16 * (index % 2))) ==
                half(expected));
        else
          CHECK(reinterpret_cast<const float &>(results[lane][index]) ==
                expected);
      }
    }
  }
}

TEST_CASE("cp.async completes at its wait_group, zero-filling the rest") {
  Block block;
  AccessChecker checker(block.registers);
  std::array<char, 64> global;
  for (size_t i = 0; i < global.size(); ++i)
    global[i] = char(i + 1);
  checker.addTensor("G", "u8[64]", global.data(), global.size(), 1);
  block.scheduler.setAccessChecker(&checker);
  std::vector<int> before, between, after;
  llvm::Error error = block.scheduler.runBlock(1, [&] {
    char *shared = block.scheduler.getSharedMemory();
    block.scheduler.copyAsync(shared, global.data(), 16, 16);
    block.scheduler.commitAsyncCopies();
    block.scheduler.copyAsync(shared + 16, global.data() + 32, 16, 4);
    block.scheduler.commitAsyncCopies();
    before = {shared[0], shared[16]};
    // All but the newest group.
    block.scheduler.waitAsyncCopies(1);
    between = {shared[0], shared[15], shared[16]};
    block.scheduler.waitAsyncCopies(0);
    after = {shared[16], shared[19], shared[20], shared[31]};
  });
  REQUIRE(errorText(std::move(error)).empty());
  CHECK(before == std::vector<int>{-1, -1});
  CHECK(between == std::vector<int>{1, 16, -1});
  CHECK(after == std::vector<int>{33, 36, 0, 0});
  CHECK(checker.getNumInvalid() == 0);

  // A global read outside every tensor is the checker's; a shared target
  // outside shared memory is the scheduler's.
  error = block.scheduler.runBlock(1, [&] {
    block.scheduler.copyAsync(block.scheduler.getSharedMemory(),
                              global.data() + 56, 16, 16);
  });
  CHECK(errorText(std::move(error)).empty());
  CHECK(checker.getNumInvalid() == 1);
  CHECK(errorText(block.scheduler.runBlock(
            1,
            [&] {
              block.scheduler.copyAsync(block.scheduler.getSharedMemory() - 16,
                                        global.data(), 16, 16);
            })) == "thread 0 of block (0, 0, 0): cp.async accesses 16 bytes "
                   "outside shared memory (offset -16)");
}

namespace {
/// The map of a rank-2 f16 tensor at `data` of `dims` (innermost first)
/// and rows `rowBytes` apart, in boxes of `box` with `swizzleBytes`.
HostTensorMap f16Map(uint16_t *data, std::array<uint64_t, 2> dims,
                     uint64_t rowBytes, std::array<uint32_t, 2> box,
                     uint32_t swizzleBytes) {
  HostTensorMap map{};
  map.magic = HostTensorMap::kMagic;
  map.base = reinterpret_cast<char *>(data);
  map.rank = 2;
  map.elementBytes = 2;
  map.swizzleBytes = swizzleBytes;
  map.dims[0] = dims[0];
  map.dims[1] = dims[1];
  map.strides[0] = rowBytes;
  map.box[0] = box[0];
  map.box[1] = box[1];
  return map;
}
} // namespace

TEST_CASE("an mbarrier phase completes on its arrivals and bytes") {
  // Thread 0 waits for phase 0, which needs two arrivals and 64 bytes;
  // threads 1 and 2 arrive, thread 2 expecting the bytes, which thread 3
  // completes as a TMA load would (through an 8 x 4 f16 box).
  Block block;
  AccessChecker checker(block.registers);
  std::array<uint16_t, 32> global;
  for (size_t i = 0; i < global.size(); ++i)
    global[i] = uint16_t(100 + i);
  checker.addTensor("G", "f16[8, 4]", reinterpret_cast<char *>(global.data()),
                    sizeof(global), 2);
  block.scheduler.setAccessChecker(&checker);
  HostTensorMap map = f16Map(global.data(), {4, 8}, 8, {4, 8}, 0);
  std::vector<std::string> events;
  std::vector<uint16_t> loaded(32);
  llvm::Error error = block.scheduler.runBlock(4, [&] {
    char *shared = block.scheduler.getSharedMemory();
    const char *barrier = shared + 1024;
    uint32_t thread = block.thread();
    if (thread == 0) {
      block.scheduler.mbarrierInit(barrier, 2);
      block.scheduler.barrier(0, 0, true);
      block.scheduler.mbarrierWait(barrier, 0);
      events.push_back("phase 0 done");
      std::memcpy(loaded.data(), shared, 64);
      // Phase 1 has not completed: parity 1 waits, parity 0 does not.
      block.scheduler.mbarrierWait(barrier, 0);
      return;
    }
    block.scheduler.barrier(0, 0, true);
    if (thread == 1) {
      block.scheduler.mbarrierArrive(barrier, 0);
      events.push_back("arrived");
    } else if (thread == 2) {
      block.scheduler.mbarrierArrive(barrier, 64);
      events.push_back("arrived expecting 64");
    } else {
      const int32_t coordinates[2] = {0, 0};
      block.scheduler.loadTensorBox(shared, barrier, &map, coordinates, 2);
      events.push_back("loaded");
    }
  });
  REQUIRE(errorText(std::move(error)).empty());
  // Thread 3, the last at the barrier, goes on first: its bytes complete
  // before thread 2 expects them, and the phase waits for both arrivals.
  CHECK(events == std::vector<std::string>{"loaded", "arrived",
                                           "arrived expecting 64",
                                           "phase 0 done"});
  for (size_t i = 0; i < 32; ++i)
    CHECK(loaded[i] == 100 + i);
}

TEST_CASE("TMA boxes: swizzle, out-of-bounds fill on load, skip on store") {
  Block block;
  AccessChecker checker(block.registers);
  // A 3 x 70 f16 tensor, rows padded to 144 bytes (72 elements).
  std::vector<uint16_t> global(3 * 72, 0);
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t c = 0; c < 70; ++c)
      global[r * 72 + c] = uint16_t(1 + r * 100 + c);
  checker.addTensor("G", "f16[3, 72]", reinterpret_cast<char *>(global.data()),
                    global.size() * 2, 2);
  block.scheduler.setAccessChecker(&checker);
  HostTensorMap map = f16Map(global.data(), {70, 3}, 144, {64, 8}, 128);
  std::vector<uint16_t> box(512);
  llvm::Error error = block.scheduler.runBlock(1, [&] {
    char *shared = block.scheduler.getSharedMemory();
    char *barrier = shared + 4096;
    block.scheduler.mbarrierInit(barrier, 1);
    block.scheduler.mbarrierArrive(barrier, 1024);
    // The box at column 64: columns 64-69 exist, rows 0-2.
    const int32_t coordinates[2] = {64, 0};
    block.scheduler.loadTensorBox(shared, barrier, &map, coordinates, 2);
    block.scheduler.mbarrierWait(barrier, 0);
    std::memcpy(box.data(), shared, 1024);
    // Store it back one row down: row 3 and beyond are outside.
    const int32_t down[2] = {64, 1};
    block.scheduler.storeTensorBox(shared, &map, down, 2);
  });
  REQUIRE(errorText(std::move(error)).empty());
  CHECK(checker.getNumInvalid() == 0);
  for (uint32_t r = 0; r < 8; ++r) {
    for (uint32_t c = 0; c < 64; ++c) {
      // 128-byte rows; the 16-byte chunk c / 8 lands at chunk (c / 8) ^ r.
      uint32_t at = r * 64 + ((c / 8) ^ (r % 8)) * 8 + c % 8;
      uint16_t expected = r < 3 && c < 6 ? uint16_t(1 + r * 100 + 64 + c) : 0;
      INFO("row " << r << " column " << c);
      CHECK(box[at] == expected);
    }
  }
  // Rows 1 and 2 of columns 64-69 now hold rows 0 and 1; the padding and
  // row 0 are unchanged.
  for (uint32_t c = 64; c < 72; ++c) {
    CHECK(global[c] == (c < 70 ? 1 + c : 0));
    CHECK(global[72 + c] == (c < 70 ? 1 + c : 0));
    CHECK(global[144 + c] == (c < 70 ? 1 + 100 + c : 0));
  }
}
