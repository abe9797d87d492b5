//===- BlockScheduler.h - The threads of a block as fibers ------*- C++ -*-===//
//
// Runs the threads of one thread block on the host as fibers (each with its
// own stack, switched with ucontext), so that threads can wait for each
// other as they do on the GPU: the host code of a kernel (HostLowering.h)
// calls the scheduler for barriers (`bar.sync`/`bar.arrive`, with or
// without a thread count), warp shuffles (`shfl.sync` in every mode), warp
// votes, `bar.warp.sync`, sm_80's tensor-core path: `ldmatrix` and
// `mma.sync` (warp-wide: the lanes exchange their addresses or fragments,
// then each computes its registers as PTX defines them) and `cp.async`
// (kept per thread until a `cp.async.wait_group` lets it complete, so that
// reading a tile before waiting for it reads what was there before), and
// sm_90's: mbarriers (arrivals, transaction bytes, phases; a thread waiting
// for a phase waits as at a barrier), TMA loads and stores of boxes
// through tensor maps (HostTensorMap.h) with their swizzles and
// out-of-bounds fill, and wgmma (each thread computes its accumulator
// registers from the shared matrices its descriptors describe, or from its
// warp's A registers). The asynchronous copies and wgmmas complete when
// issued, which is one order the GPU may take. A thread
// runs until it waits; the scheduler then resumes the next thread that may go
// on, in thread order (or its reverse, or a seeded shuffle: ThreadOrder),
// which makes every run deterministic. When no thread may
// go on and some have not finished, the block is deadlocked (a barrier or a
// shuffle that not every thread it waits for reaches): the run stops with an
// error naming the threads and what they wait for.
//
// The block's shared memory is one buffer, filled with 0xff bytes (a NaN
// in every float type) before each block so that reading shared memory no
// thread wrote shows in the results.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEHOSTRUN_BLOCKSCHEDULER_H
#define TILEC_TOOLS_TILEHOSTRUN_BLOCKSCHEDULER_H

#include "HostLowering.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace tilehost {

/// The threads of a warp.
constexpr uint32_t kWarpSize = 32;
/// The named barriers of a block (`bar.sync 0` to `bar.sync 15`).
constexpr uint32_t kNumBarriers = 16;
/// The bytes of shared memory a block may use (sm_90's 227 KiB).
constexpr uint64_t kSharedMemoryBytes = 227 * 1024;
/// The alignment of the shared memory buffer: wgmma descriptors keep the
/// low 18 bits of a shared address, which are then its offset.
constexpr uint64_t kSharedMemoryAlignment = 1 << 18;

/// The order in which a block's threads are resumed: thread order, its
/// reverse, or a pseudo-random permutation per block. Each is a schedule the
/// GPU may take; code that is correct only in one (a missing barrier) fails
/// in another.
enum class ThreadOrder { Forward, Reverse, Shuffled };

/// The modes of `shfl.sync`, in the order of their ShuffleMode values.
enum class ShuffleMode : uint32_t { Up, Down, Butterfly, Index };
/// The modes of `vote.sync`.
enum class VoteMode : uint32_t { All, Any, Uniform, Ballot };
/// The forms of `mma.sync.aligned.m16n8k16.row.col`: element types of A and
/// B, and of C and D.
enum class MmaKind : uint32_t { F16F32, F16F16, BF16F32 };
/// The words of A, B and C (or D) of one lane's m16n8k16 fragments.
constexpr unsigned kMmaAWords = 4, kMmaBWords = 2, kMmaCWords = 4;
/// The threads of a warpgroup.
constexpr uint32_t kWarpgroupSize = 128;

/// One `wgmma.mma_async.sync.aligned.m64nNk16`.
struct WgmmaInstruction {
  uint32_t n = 0;
  /// The element types (as for mma.sync).
  MmaKind kind = MmaKind::F16F32;
  /// The descriptor of A (SS form), or null `aRegisters` (RS form: the
  /// lane's 4 words of A, as mma.sync's).
  uint64_t descriptorA = 0;
  const uint32_t *aRegisters = nullptr;
  uint64_t descriptorB = 0;
  /// Whether D = A B + D (else D = A B).
  bool accumulate = true;
  /// 1 or -1.
  int32_t scaleA = 1, scaleB = 1;
  /// Whether A (B) is stored MN-major (M or N contiguous) instead of
  /// K-major.
  bool transposeA = false, transposeB = false;
};

class AccessChecker;
struct HostTensorMap;

/// Runs blocks of threads as fibers and provides their synchronization.
class BlockScheduler {
public:
  /// A scheduler that sets the thread index `specialRegisters[kTidX]` to
  /// the thread it resumes.
  explicit BlockScheduler(
      std::array<uint32_t, kNumSpecialRegisters> &specialRegisters);
  ~BlockScheduler();
  BlockScheduler(const BlockScheduler &) = delete;
  BlockScheduler &operator=(const BlockScheduler &) = delete;

  /// Runs `threads` threads of one block, each calling `body`, until all
  /// have returned. Fails, naming the waiting threads, if the block
  /// deadlocks or a thread misuses a warp operation.
  llvm::Error runBlock(uint32_t threads, llvm::function_ref<void()> body);

  /// The block's shared memory (kSharedMemoryBytes, 1024-byte aligned).
  char *getSharedMemory() { return sharedMemory; }

  /// `bar.sync id[, count]` (`wait`) or `bar.arrive id, count`: `count`
  /// threads (0: every thread of the block) arrive at barrier `id`.
  void barrier(uint32_t id, uint32_t count, bool wait);
  /// `shfl.sync.mode` of `value` among the lanes of `mask`, with PTX's
  /// operands `b` and `c`; returns the value read in the low 32 bits and
  /// the predicate (whether the source lane was in range) in bit 32.
  uint64_t shuffle(ShuffleMode mode, uint32_t mask, uint32_t value, uint32_t b,
                   uint32_t c);
  /// `vote.sync.mode` of `predicate` among the lanes of `mask`; the ballot
  /// or 0/1.
  uint32_t vote(VoteMode mode, uint32_t mask, bool predicate);
  /// `bar.warp.sync mask`.
  void syncWarp(uint32_t mask);
  /// `ldmatrix.sync.aligned.m8n8.x{count}[.trans].b16` with the lane's row
  /// `address` in shared memory; writes the lane's `count` registers.
  void loadMatrices(uint32_t count, bool transpose, const char *address,
                    uint32_t *registers);
  /// `mma.sync.aligned.m16n8k16.row.col` of `kind`: `operands` holds the
  /// lane's A, B and C words (C as f32, or f16 pairs in its first two
  /// words); writes D's in the same form to `result`.
  void multiplyAccumulate(MmaKind kind, const uint32_t *operands,
                          uint32_t *result);
  /// `cp.async` of `bytes` from global `source` (checked by the access
  /// checker) to shared `target`, of which `sourceBytes` are read and the
  /// rest zeroed; it completes at a later `waitAsyncCopies`.
  void copyAsync(char *target, const char *source, uint32_t bytes,
                 uint32_t sourceBytes);
  /// `cp.async.commit_group`.
  void commitAsyncCopies();
  /// `cp.async.wait_group pending`: completes all but the `pending` most
  /// recently committed groups.
  void waitAsyncCopies(uint32_t pending);
  /// `wgmma.mma_async` of the current thread's warpgroup: updates the
  /// thread's accumulator registers (N/2 f32, or N/4 f16 pairs).
  void warpgroupMma(const WgmmaInstruction &instruction,
                    uint32_t *accumulators);
  /// `mbarrier.init` of the mbarrier at shared `address` for `count`
  /// arrivals.
  void mbarrierInit(const char *address, uint32_t count);
  /// `mbarrier.arrive` (`.expect_tx` with `transactionBytes`); returns the
  /// state (the phase arrived at).
  uint64_t mbarrierArrive(const char *address, uint32_t transactionBytes);
  /// `mbarrier.try_wait.parity` until it succeeds: waits until the phase
  /// of parity `parity` has completed.
  void mbarrierWait(const char *address, uint32_t parity);
  /// `cp.async.bulk.tensor` global to shared: the box of `map` at
  /// `coordinates` (innermost first) to shared `target`, crediting its
  /// bytes to the mbarrier at `barrier`.
  void loadTensorBox(char *target, const char *barrier,
                     const HostTensorMap *map, const int32_t *coordinates,
                     uint32_t rank);
  /// `cp.async.bulk.tensor` shared to global: the box at shared `source` to
  /// `map` at `coordinates`, elements outside the tensor not written.
  void storeTensorBox(const char *source, const HostTensorMap *map,
                      const int32_t *coordinates, uint32_t rank);
  /// Resumes threads in `order` from the next block on; a shuffled order is
  /// drawn from `seed`.
  void setThreadOrder(ThreadOrder order, uint64_t seed) {
    threadOrder = order;
    shuffler.seed(seed);
  }
  /// The checker of the global accesses of `copyAsync` and the TMA.
  void setAccessChecker(AccessChecker *checker) { accessChecker = checker; }

private:
  struct Fiber;
  struct Barrier {
    uint32_t arrived = 0;
    /// The threads the current round waits for (0: every live thread).
    uint32_t expected = 0;
    uint64_t generation = 0;
  };
  struct Warp {
    uint32_t arrivedMask = 0;
    uint32_t expectedMask = 0;
    uint64_t generation = 0;
    /// The lanes' words, by the parity of the generation they were given
    /// in: a lane can be at most one exchange ahead of another.
    std::array<
        std::array<std::array<uint32_t, kMmaAWords + kMmaBWords>, kWarpSize>, 2>
        values{};
  };

  static void enterFiber(unsigned high, unsigned low);
  /// The thread running now.
  uint32_t currentThread() const;
  /// Suspends the current thread until `*generation` differs from `seen`.
  void waitFor(const uint64_t *generation, uint64_t seen, std::string what);
  /// Suspends the current thread for good after recording `message`.
  void fail(std::string message);
  /// The current thread's lane enters the exchange of its warp among
  /// `mask` with `count` `words`; returns the slot of the exchange in
  /// Warp::values once every lane of `mask` has entered it.
  unsigned exchange(uint32_t mask, const uint32_t *words, unsigned count,
                    const char *operation);
  /// The offset of `address` in shared memory, if it lies there with room
  /// for `bytes` and is aligned to them; fails otherwise.
  std::optional<uint32_t> sharedOffset(const char *address, uint32_t bytes,
                                       const char *operation);
  /// Completes the oldest committed group of cp.async of `fiber`.
  void completeOldestCopies(Fiber &fiber);
  void releaseIfComplete(Barrier &barrier);
  /// An mbarrier: its arrivals and transaction bytes left in the current
  /// phase.
  struct MBarrier {
    uint32_t count = 0;
    uint32_t pending = 0;
    int64_t transactionBytes = 0;
    uint64_t phase = 0;
  };
  /// The mbarrier at shared `address`, or null after failing.
  MBarrier *findMBarrier(const char *address, const char *operation);
  /// Completes the mbarrier's phase if nothing is left in it.
  static void completePhaseIfDone(MBarrier &barrier);
  /// The box of `map` at `coordinates`, element by element: calls
  /// `visit(sharedOffset, globalAddress or null outside the tensor)`.
  /// Returns false after failing.
  bool forEachBoxElement(const char *sharedAddress, const HostTensorMap *map,
                         const int32_t *coordinates, uint32_t rank,
                         const char *operation,
                         llvm::function_ref<void(uint32_t, char *)> visit);
  std::string describeWaits() const;

  std::array<uint32_t, kNumSpecialRegisters> &specialRegisters;
  std::vector<std::unique_ptr<Fiber>> fibers;
  Fiber *current = nullptr;
  /// The threads of the block being run.
  uint32_t blockThreads = 0;
  uint32_t liveThreads = 0;
  std::array<Barrier, kNumBarriers> barriers;
  std::vector<Warp> warps;
  /// The block's mbarriers by shared offset (node-based: waits point into
  /// them).
  std::map<uint32_t, MBarrier> mbarriers;
  llvm::function_ref<void()> body;
  std::string error;
  char *sharedMemory = nullptr;
  AccessChecker *accessChecker = nullptr;
  ThreadOrder threadOrder = ThreadOrder::Forward;
  std::mt19937_64 shuffler;
  std::unique_ptr<char[]> sharedAllocation;
  /// The context the scheduler runs in (a ucontext_t).
  std::unique_ptr<char[]> schedulerContext;
};

/// The host functions behind kBarrierSymbol, kShuffleSymbol, kVoteSymbol and
/// kWarpSyncSymbol (HostLowering.h).
void hostBarrier(BlockScheduler *scheduler, uint32_t id, uint32_t count,
                 uint32_t wait);
uint64_t hostShuffle(BlockScheduler *scheduler, uint32_t mode, uint32_t mask,
                     uint32_t value, uint32_t b, uint32_t c);
uint32_t hostVote(BlockScheduler *scheduler, uint32_t mode, uint32_t mask,
                  uint32_t predicate);
void hostSyncWarp(BlockScheduler *scheduler, uint32_t mask);
/// The host functions behind kLoadMatricesSymbol, kMmaSymbol,
/// kAsyncCopySymbol, kAsyncCommitSymbol and kAsyncWaitSymbol.
void hostLoadMatrices(BlockScheduler *scheduler, uint32_t count,
                      uint32_t transpose, const char *address,
                      uint32_t *registers);
void hostMultiplyAccumulate(BlockScheduler *scheduler, uint32_t kind,
                            const uint32_t *operands, uint32_t *result);
void hostCopyAsync(BlockScheduler *scheduler, char *target, const char *source,
                   uint32_t bytes, uint32_t sourceBytes);
void hostCommitAsyncCopies(BlockScheduler *scheduler);
void hostWaitAsyncCopies(BlockScheduler *scheduler, uint32_t pending);
/// The host functions behind kWgmmaSymbol, kMBarrierInitSymbol,
/// kMBarrierArriveSymbol, kMBarrierWaitSymbol, kTensorLoadSymbol and
/// kTensorStoreSymbol.
void hostWarpgroupMma(BlockScheduler *scheduler, uint32_t n, uint32_t kind,
                      uint32_t *accumulators, const uint32_t *aRegisters,
                      uint64_t descriptorA, uint64_t descriptorB,
                      uint32_t accumulate, int32_t scaleA, int32_t scaleB,
                      uint32_t transposeA, uint32_t transposeB);
void hostMBarrierInit(BlockScheduler *scheduler, const char *address,
                      uint32_t count);
uint64_t hostMBarrierArrive(BlockScheduler *scheduler, const char *address,
                            uint32_t transactionBytes);
void hostMBarrierWait(BlockScheduler *scheduler, const char *address,
                      uint32_t parity);
void hostLoadTensorBox(BlockScheduler *scheduler, char *target,
                       const char *barrier, const HostTensorMap *map,
                       const int32_t *coordinates, uint32_t rank);
void hostStoreTensorBox(BlockScheduler *scheduler, const char *source,
                        const HostTensorMap *map, const int32_t *coordinates,
                        uint32_t rank);

} // namespace tilehost

#endif // TILEC_TOOLS_TILEHOSTRUN_BLOCKSCHEDULER_H
