//===- BlockScheduler.cpp - The threads of a block as fibers --------------===//

#include "BlockScheduler.h"

#include "AccessChecker.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <numeric>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

using namespace tilehost;

namespace {

/// The stack of each fiber. Kernels keep their fragments in registers,
/// which the host spills to this stack; a guard page below it turns an
/// overflow into a fault instead of a silent corruption.
constexpr size_t kStackBytes = 1 << 20;

/// The lanes of warp `warp` that exist in a block of `threads` threads.
uint32_t existingLanes(uint32_t threads, uint32_t warp) {
  uint32_t lanes = std::min(kWarpSize, threads - warp * kWarpSize);
  return lanes == kWarpSize ? ~0u : (1u << lanes) - 1;
}

/// One `cp.async` in flight.
struct AsyncCopy {
  char *target;
  const char *source;
  uint32_t bytes;
  uint32_t sourceBytes;
};

} // namespace

/// One thread of the block: its context, its stack and what it waits for.
struct BlockScheduler::Fiber {
  ucontext_t context;
  char *stack = nullptr;
  uint32_t thread = 0;
  bool finished = false;
  /// While waiting: the counter whose change releases the thread, and the
  /// value it had.
  const uint64_t *waitGeneration = nullptr;
  uint64_t seen = 0;
  /// What the thread waits for, for the deadlock report.
  std::string waitingFor;
  /// Its cp.async not committed yet, and its committed groups, oldest first.
  std::vector<AsyncCopy> uncommitted;
  std::deque<std::vector<AsyncCopy>> committed;

  Fiber() {
    // A guard page, then the stack.
    size_t page = sysconf(_SC_PAGESIZE);
    void *mapping = mmap(nullptr, kStackBytes + page, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED)
      return;
    mprotect(mapping, page, PROT_NONE);
    stack = static_cast<char *>(mapping) + page;
  }
  ~Fiber() {
    if (stack) {
      size_t page = sysconf(_SC_PAGESIZE);
      munmap(stack - page, kStackBytes + page);
    }
  }
};

BlockScheduler::BlockScheduler(
    std::array<uint32_t, kNumSpecialRegisters> &specialRegisters)
    : specialRegisters(specialRegisters),
      sharedAllocation(new char[kSharedMemoryBytes + kSharedMemoryAlignment]),
      schedulerContext(new char[sizeof(ucontext_t)]) {
  uintptr_t address = reinterpret_cast<uintptr_t>(sharedAllocation.get());
  sharedMemory = sharedAllocation.get() +
                 (kSharedMemoryAlignment - address % kSharedMemoryAlignment) %
                     kSharedMemoryAlignment;
}

BlockScheduler::~BlockScheduler() = default;

void BlockScheduler::enterFiber(unsigned high, unsigned low) {
  auto *scheduler = reinterpret_cast<BlockScheduler *>((uintptr_t(high) << 32) |
                                                       uintptr_t(low));
  scheduler->body();
  Fiber *fiber = scheduler->current;
  // The copies a thread leaves in flight complete all the same.
  scheduler->commitAsyncCopies();
  while (!fiber->committed.empty())
    scheduler->completeOldestCopies(*fiber);
  fiber->finished = true;
  --scheduler->liveThreads;
  // A barrier of every thread waits for one thread fewer now.
  for (Barrier &barrier : scheduler->barriers)
    if (barrier.arrived && !barrier.expected)
      scheduler->releaseIfComplete(barrier);
  // Returning resumes the scheduler (uc_link).
}

llvm::Error BlockScheduler::runBlock(uint32_t threads,
                                     llvm::function_ref<void()> body) {
  this->body = body;
  blockThreads = threads;
  error.clear();
  barriers = {};
  mbarriers.clear();
  warps.assign((threads + kWarpSize - 1) / kWarpSize, Warp());
  std::memset(sharedMemory, 0xff, kSharedMemoryBytes);
  auto *scheduler = reinterpret_cast<ucontext_t *>(schedulerContext.get());
  uintptr_t self = reinterpret_cast<uintptr_t>(this);
  while (fibers.size() < threads) {
    fibers.push_back(std::make_unique<Fiber>());
    if (!fibers.back()->stack)
      return llvm::createStringError("cannot map the stack of thread " +
                                     std::to_string(fibers.size() - 1));
  }
  for (uint32_t thread = 0; thread < threads; ++thread) {
    Fiber &fiber = *fibers[thread];
    fiber.thread = thread;
    fiber.finished = false;
    fiber.waitGeneration = nullptr;
    fiber.uncommitted.clear();
    fiber.committed.clear();
    getcontext(&fiber.context);
    fiber.context.uc_stack.ss_sp = fiber.stack;
    fiber.context.uc_stack.ss_size = kStackBytes;
    fiber.context.uc_link = scheduler;
    makecontext(&fiber.context, reinterpret_cast<void (*)()>(&enterFiber), 2,
                unsigned(self >> 32), unsigned(self & 0xffffffffu));
  }
  liveThreads = threads;

  // The order threads are resumed in: one valid schedule of the GPU's.
  std::vector<uint32_t> order(threads);
  std::iota(order.begin(), order.end(), 0);
  if (threadOrder == ThreadOrder::Reverse)
    std::reverse(order.begin(), order.end());
  else if (threadOrder == ThreadOrder::Shuffled)
    std::shuffle(order.begin(), order.end(), shuffler);
  while (liveThreads) {
    bool resumed = false;
    for (uint32_t thread : order) {
      Fiber &fiber = *fibers[thread];
      if (fiber.finished ||
          (fiber.waitGeneration && *fiber.waitGeneration == fiber.seen))
        continue;
      fiber.waitGeneration = nullptr;
      current = &fiber;
      specialRegisters[kTidX] = thread;
      swapcontext(scheduler, &fiber.context);
      resumed = true;
      if (!error.empty())
        return llvm::createStringError(
            "thread " + std::to_string(thread) + " of block (" +
            std::to_string(specialRegisters[kCtaidX]) + ", " +
            std::to_string(specialRegisters[kCtaidY]) + ", " +
            std::to_string(specialRegisters[kCtaidZ]) + "): " + error);
    }
    if (!resumed)
      return llvm::createStringError(
          "block (" + std::to_string(specialRegisters[kCtaidX]) + ", " +
          std::to_string(specialRegisters[kCtaidY]) + ", " +
          std::to_string(specialRegisters[kCtaidZ]) +
          ") deadlocked: " + describeWaits());
  }
  current = nullptr;
  return llvm::Error::success();
}

uint32_t BlockScheduler::currentThread() const { return current->thread; }

void BlockScheduler::waitFor(const uint64_t *generation, uint64_t seen,
                             std::string what) {
  Fiber *fiber = current;
  fiber->waitGeneration = generation;
  fiber->seen = seen;
  fiber->waitingFor = std::move(what);
  swapcontext(&fiber->context,
              reinterpret_cast<ucontext_t *>(schedulerContext.get()));
}

void BlockScheduler::fail(std::string message) {
  error = std::move(message);
  // The scheduler stops at the error and never resumes this thread.
  static const uint64_t never = 0;
  waitFor(&never, 0, "an error");
}

void BlockScheduler::releaseIfComplete(Barrier &barrier) {
  uint32_t target = barrier.expected ? barrier.expected : liveThreads;
  if (barrier.arrived < target)
    return;
  barrier.arrived = 0;
  ++barrier.generation;
}

void BlockScheduler::barrier(uint32_t id, uint32_t count, bool wait) {
  if (id >= kNumBarriers)
    return fail("barrier " + std::to_string(id) + " does not exist (0 to " +
                std::to_string(kNumBarriers - 1) + ")");
  Barrier &named = barriers[id];
  if (!named.arrived)
    named.expected = count;
  else if (named.expected != count)
    return fail("barrier " + std::to_string(id) + " is reached with " +
                std::to_string(count) + " expected threads while " +
                std::to_string(named.arrived) + " arrived expecting " +
                std::to_string(named.expected) + " (0: every thread)");
  ++named.arrived;
  uint64_t generation = named.generation;
  releaseIfComplete(named);
  if (wait && named.generation == generation)
    waitFor(&named.generation, generation,
            "barrier " + std::to_string(id) +
                (count ? " (" + std::to_string(count) + " threads)" : ""));
}

unsigned BlockScheduler::exchange(uint32_t mask, const uint32_t *words,
                                  unsigned count, const char *operation) {
  uint32_t thread = current->thread;
  uint32_t lane = thread % kWarpSize;
  uint32_t warpIndex = thread / kWarpSize;
  Warp &warp = warps[warpIndex];
  uint32_t lanes = mask & existingLanes(blockThreads, warpIndex);
  if (!(mask >> lane & 1)) {
    fail(std::string(operation) + " with a mask (" + std::to_string(mask) +
         ") that leaves out the calling lane " + std::to_string(lane));
    return 0;
  }
  if (!warp.arrivedMask)
    warp.expectedMask = lanes;
  else if (warp.expectedMask != lanes) {
    fail(std::string(operation) + " with mask " + std::to_string(mask) +
         " while other lanes of warp " + std::to_string(warpIndex) +
         " wait with mask " + std::to_string(warp.expectedMask));
    return 0;
  }
  unsigned slot = warp.generation & 1;
  std::copy(words, words + count, warp.values[slot][lane].begin());
  warp.arrivedMask |= 1u << lane;
  uint64_t generation = warp.generation;
  if (warp.arrivedMask == warp.expectedMask) {
    warp.arrivedMask = 0;
    ++warp.generation;
  } else {
    waitFor(&warp.generation, generation,
            std::string(operation) + " of warp " + std::to_string(warpIndex));
  }
  return slot;
}

uint64_t BlockScheduler::shuffle(ShuffleMode mode, uint32_t mask,
                                 uint32_t value, uint32_t b, uint32_t c) {
  unsigned slot = exchange(mask, &value, 1, "shfl.sync");
  const Warp &warp = warps[current->thread / kWarpSize];
  // PTX ISA, shfl.sync: the source lane j and whether it is in range.
  int lane = int(current->thread % kWarpSize);
  int bval = int(b & 31), cval = int(c & 31), segmask = int(c >> 8 & 31);
  int maxLane = (lane & segmask) | (cval & ~segmask);
  int minLane = lane & segmask;
  int source = lane;
  bool inRange = false;
  switch (mode) {
  case ShuffleMode::Up:
    source = lane - bval;
    inRange = source >= maxLane;
    break;
  case ShuffleMode::Down:
    source = lane + bval;
    inRange = source <= maxLane;
    break;
  case ShuffleMode::Butterfly:
    source = lane ^ bval;
    inRange = source <= maxLane;
    break;
  case ShuffleMode::Index:
    source = minLane | (bval & ~segmask);
    inRange = source <= maxLane;
    break;
  }
  if (!inRange)
    source = lane;
  if (!(warp.expectedMask >> source & 1)) {
    fail("shfl.sync reads lane " + std::to_string(source) +
         ", which is not in its mask " + std::to_string(mask));
    return 0;
  }
  return uint64_t(warp.values[slot][source][0]) | uint64_t(inRange) << 32;
}

uint32_t BlockScheduler::vote(VoteMode mode, uint32_t mask, bool predicate) {
  uint32_t word = predicate;
  unsigned slot = exchange(mask, &word, 1, "vote.sync");
  const Warp &warp = warps[current->thread / kWarpSize];
  uint32_t ballot = 0;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane)
    if ((warp.expectedMask >> lane & 1) && warp.values[slot][lane][0])
      ballot |= 1u << lane;
  switch (mode) {
  case VoteMode::All:
    return ballot == warp.expectedMask;
  case VoteMode::Any:
    return ballot != 0;
  case VoteMode::Uniform:
    return ballot == 0 || ballot == warp.expectedMask;
  case VoteMode::Ballot:
    return ballot;
  }
  return 0;
}

void BlockScheduler::syncWarp(uint32_t mask) {
  uint32_t word = 0;
  exchange(mask, &word, 1, "bar.warp.sync");
}

std::optional<uint32_t> BlockScheduler::sharedOffset(const char *address,
                                                     uint32_t bytes,
                                                     const char *operation) {
  int64_t offset = address - sharedMemory;
  if (offset < 0 || offset > int64_t(kSharedMemoryBytes - bytes)) {
    fail(std::string(operation) + " accesses " + std::to_string(bytes) +
         " bytes outside shared memory (offset " + std::to_string(offset) +
         ")");
    return std::nullopt;
  }
  if (offset % bytes) {
    fail(std::string(operation) + " accesses " + std::to_string(bytes) +
         " bytes of shared memory at offset " + std::to_string(offset) +
         ", which is not a multiple of " + std::to_string(bytes));
    return std::nullopt;
  }
  return uint32_t(offset);
}

void BlockScheduler::copyAsync(char *target, const char *source, uint32_t bytes,
                               uint32_t sourceBytes) {
  if (!sharedOffset(target, bytes, "cp.async"))
    return;
  if (sourceBytes > bytes)
    return fail("cp.async reads " + std::to_string(sourceBytes) +
                " bytes into a copy of " + std::to_string(bytes));
  // A copy that reads nothing reads no address.
  if (sourceBytes)
    source = static_cast<const char *>(accessChecker->check(
        const_cast<char *>(source), sourceBytes, bytes, /*isStore=*/false));
  current->uncommitted.push_back({target, source, bytes, sourceBytes});
}

void BlockScheduler::commitAsyncCopies() {
  current->committed.push_back(std::move(current->uncommitted));
  current->uncommitted.clear();
}

void BlockScheduler::waitAsyncCopies(uint32_t pending) {
  while (current->committed.size() > pending)
    completeOldestCopies(*current);
}

void BlockScheduler::completeOldestCopies(Fiber &fiber) {
  for (const AsyncCopy &copy : fiber.committed.front()) {
    std::memcpy(copy.target, copy.source, copy.sourceBytes);
    std::memset(copy.target + copy.sourceBytes, 0,
                copy.bytes - copy.sourceBytes);
  }
  fiber.committed.pop_front();
}

std::string BlockScheduler::describeWaits() const {
  // The waiting threads, grouped by what they wait for.
  llvm::MapVector<llvm::StringRef, std::vector<uint32_t>> waits;
  uint32_t finished = 0;
  for (uint32_t thread = 0; thread < blockThreads; ++thread) {
    const Fiber &fiber = *fibers[thread];
    if (fiber.finished)
      ++finished;
    else if (fiber.waitGeneration)
      waits[fiber.waitingFor].push_back(thread);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  bool first = true;
  for (const auto &[what, threads] : waits) {
    os << (first ? "" : "; ") << threads.size() << " thread"
       << (threads.size() == 1 ? "" : "s") << " (first " << threads.front()
       << ") wait at " << what;
    first = false;
  }
  if (finished)
    os << "; " << finished << " finished";
  return text;
}

void tilehost::hostBarrier(BlockScheduler *scheduler, uint32_t id,
                           uint32_t count, uint32_t wait) {
  scheduler->barrier(id, count, wait != 0);
}

uint64_t tilehost::hostShuffle(BlockScheduler *scheduler, uint32_t mode,
                               uint32_t mask, uint32_t value, uint32_t b,
                               uint32_t c) {
  return scheduler->shuffle(ShuffleMode(mode), mask, value, b, c);
}

uint32_t tilehost::hostVote(BlockScheduler *scheduler, uint32_t mode,
                            uint32_t mask, uint32_t predicate) {
  return scheduler->vote(VoteMode(mode), mask, predicate != 0);
}

void tilehost::hostSyncWarp(BlockScheduler *scheduler, uint32_t mask) {
  scheduler->syncWarp(mask);
}

void tilehost::hostCopyAsync(BlockScheduler *scheduler, char *target,
                             const char *source, uint32_t bytes,
                             uint32_t sourceBytes) {
  scheduler->copyAsync(target, source, bytes, sourceBytes);
}

void tilehost::hostCommitAsyncCopies(BlockScheduler *scheduler) {
  scheduler->commitAsyncCopies();
}

void tilehost::hostWaitAsyncCopies(BlockScheduler *scheduler,
                                   uint32_t pending) {
  scheduler->waitAsyncCopies(pending);
}
