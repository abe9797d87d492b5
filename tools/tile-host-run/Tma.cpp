//===- Tma.cpp - mbarriers and TMA boxes on the host ----------------------===//
//
// The BlockScheduler's sm_90 data movement (BlockScheduler.h): mbarriers
// with arrivals, transaction bytes and phases, and `cp.async.bulk.tensor`
// loads and stores of the boxes of a HostTensorMap, through the swizzle of
// the map (PTX's byte-address rule on the shared offset: 128B XORs bits
// 4-6 with bits 7-9, 64B bits 4-5 with 8-9, 32B bit 4 with bit 7) and with
// TMA's out-of-bounds rules (loads fill, stores skip).
//
//===----------------------------------------------------------------------===//

#include "AccessChecker.h"
#include "BlockScheduler.h"
#include "HostTensorMap.h"

#include <cstring>

using namespace tilehost;

namespace {

/// `offset` with the swizzle of span `swizzleBytes` (0: none) applied.
uint32_t swizzle(uint32_t offset, uint32_t swizzleBytes) {
  // The 16-byte chunk bits XORed with the row bits above them.
  uint32_t chunkBits = swizzleBytes == 128  ? 7
                       : swizzleBytes == 64 ? 3
                       : swizzleBytes == 32 ? 1
                                            : 0;
  return offset ^ ((offset >> 7 & chunkBits) << 4);
}

} // namespace

BlockScheduler::MBarrier *BlockScheduler::findMBarrier(const char *address,
                                                       const char *operation) {
  std::optional<uint32_t> offset = sharedOffset(address, 8, operation);
  if (!offset)
    return nullptr;
  auto found = mbarriers.find(*offset);
  if (found == mbarriers.end()) {
    fail(std::string(operation) + " on shared offset " +
         std::to_string(*offset) + ", which no mbarrier.init initialized");
    return nullptr;
  }
  return &found->second;
}

void BlockScheduler::completePhaseIfDone(MBarrier &barrier) {
  if (barrier.pending || barrier.transactionBytes)
    return;
  barrier.pending = barrier.count;
  ++barrier.phase;
}

void BlockScheduler::mbarrierInit(const char *address, uint32_t count) {
  std::optional<uint32_t> offset = sharedOffset(address, 8, "mbarrier.init");
  if (!offset)
    return;
  if (!count)
    return fail("mbarrier.init with a count of 0");
  mbarriers[*offset] = MBarrier{count, count, 0, 0};
}

uint64_t BlockScheduler::mbarrierArrive(const char *address,
                                        uint32_t transactionBytes) {
  MBarrier *barrier = findMBarrier(address, "mbarrier.arrive");
  if (!barrier)
    return 0;
  uint64_t state = barrier->phase;
  if (!barrier->pending) {
    fail("mbarrier.arrive on an mbarrier whose phase expects no more "
         "arrivals");
    return 0;
  }
  barrier->transactionBytes += transactionBytes;
  --barrier->pending;
  completePhaseIfDone(*barrier);
  return state;
}

void BlockScheduler::mbarrierWait(const char *address, uint32_t parity) {
  MBarrier *barrier = findMBarrier(address, "mbarrier.try_wait.parity");
  if (!barrier)
    return;
  // The phase of parity `parity` has completed once the current phase's
  // parity differs.
  while ((barrier->phase & 1) == (parity & 1))
    waitFor(&barrier->phase, barrier->phase,
            "mbarrier.try_wait.parity " + std::to_string(parity & 1) +
                " at shared offset " + std::to_string(address - sharedMemory));
}

bool BlockScheduler::forEachBoxElement(
    const char *sharedAddress, const HostTensorMap *map,
    const int32_t *coordinates, uint32_t rank, const char *operation,
    llvm::function_ref<void(uint32_t, char *)> visit) {
  if (map->magic != HostTensorMap::kMagic) {
    fail(std::string(operation) +
         " through a tensor map the runtime did not encode (an optional map "
         "of a tensor that breaks TMA's rules is zeros)");
    return false;
  }
  if (rank != map->rank) {
    fail(std::string(operation) + " of rank " + std::to_string(rank) +
         " through a tensor map of rank " + std::to_string(map->rank));
    return false;
  }
  uint64_t boxElements = 1;
  for (uint32_t d = 0; d < rank; ++d)
    boxElements *= map->box[d];
  uint64_t boxBytes = boxElements * map->elementBytes;
  // TMA's shared side is 128-byte aligned.
  std::optional<uint32_t> base = sharedOffset(sharedAddress, 16, operation);
  if (!base)
    return false;
  if (*base % 128 || *base + boxBytes > kSharedMemoryBytes) {
    fail(std::string(operation) + " of a " + std::to_string(boxBytes) +
         "-byte box at shared offset " + std::to_string(*base) +
         ", which is not 128-byte aligned or leaves shared memory");
    return false;
  }
  std::array<uint32_t, kMaxTensorMapRank> element{};
  for (uint64_t index = 0; index < boxElements; ++index) {
    // The element's global address, if it lies in the tensor.
    char *global = map->base;
    for (uint32_t d = 0; d < rank && global; ++d) {
      int64_t coordinate = int64_t(coordinates[d]) + element[d];
      if (coordinate < 0 || uint64_t(coordinate) >= map->dims[d])
        global = nullptr;
      else
        global += uint64_t(coordinate) *
                  (d ? map->strides[d - 1] : map->elementBytes);
    }
    visit(
        swizzle(*base + uint32_t(index * map->elementBytes), map->swizzleBytes),
        global);
    for (uint32_t d = 0; d < rank && ++element[d] == map->box[d]; ++d)
      element[d] = 0;
  }
  return true;
}

void BlockScheduler::loadTensorBox(char *target, const char *barrier,
                                   const HostTensorMap *map,
                                   const int32_t *coordinates, uint32_t rank) {
  MBarrier *credited = findMBarrier(barrier, "cp.async.bulk.tensor");
  if (!credited)
    return;
  uint32_t bytes = map->elementBytes;
  // The fill of out-of-bounds elements: zeros, or a quiet NaN of the type.
  uint64_t nan = bytes == 2   ? 0x7fff
                 : bytes == 4 ? 0x7fffffff
                              : 0x7fffffffffffffff;
  uint64_t boxBytes = 0;
  bool loaded = forEachBoxElement(
      target, map, coordinates, rank, "cp.async.bulk.tensor (load)",
      [&](uint32_t offset, char *global) {
        boxBytes += bytes;
        if (!global) {
          uint64_t fill = map->nanFill ? nan : 0;
          std::memcpy(sharedMemory + offset, &fill, bytes);
          return;
        }
        const void *source =
            accessChecker->check(global, bytes, bytes, /*isStore=*/false);
        std::memcpy(sharedMemory + offset, source, bytes);
      });
  if (!loaded)
    return;
  // The whole box's bytes complete, out-of-bounds ones included.
  credited->transactionBytes -= int64_t(boxBytes);
  completePhaseIfDone(*credited);
}

void BlockScheduler::storeTensorBox(const char *source,
                                    const HostTensorMap *map,
                                    const int32_t *coordinates, uint32_t rank) {
  uint32_t bytes = map->elementBytes;
  forEachBoxElement(source, map, coordinates, rank,
                    "cp.async.bulk.tensor (store)",
                    [&](uint32_t offset, char *global) {
                      if (!global)
                        return;
                      void *target = accessChecker->check(global, bytes, bytes,
                                                          /*isStore=*/true);
                      std::memcpy(target, sharedMemory + offset, bytes);
                    });
}

void tilehost::hostMBarrierInit(BlockScheduler *scheduler, const char *address,
                                uint32_t count) {
  scheduler->mbarrierInit(address, count);
}

uint64_t tilehost::hostMBarrierArrive(BlockScheduler *scheduler,
                                      const char *address,
                                      uint32_t transactionBytes) {
  return scheduler->mbarrierArrive(address, transactionBytes);
}

void tilehost::hostMBarrierWait(BlockScheduler *scheduler, const char *address,
                                uint32_t parity) {
  scheduler->mbarrierWait(address, parity);
}

void tilehost::hostLoadTensorBox(BlockScheduler *scheduler, char *target,
                                 const char *barrier, const HostTensorMap *map,
                                 const int32_t *coordinates, uint32_t rank) {
  scheduler->loadTensorBox(target, barrier, map, coordinates, rank);
}

void tilehost::hostStoreTensorBox(BlockScheduler *scheduler, const char *source,
                                  const HostTensorMap *map,
                                  const int32_t *coordinates, uint32_t rank) {
  scheduler->storeTensorBox(source, map, coordinates, rank);
}
