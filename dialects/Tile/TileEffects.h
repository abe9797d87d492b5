//===- TileEffects.h - Memory resources of the tile dialect -----*- C++ -*-===//
//
// The memory effects of tile ops name the memory they touch, so that the
// analyses of the pipeliner and of barrier insertion can tell shared-memory
// traffic (which needs barriers between threads) from global and per-thread
// traffic.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECTS_TILE_TILEEFFECTS_H
#define TILEC_DIALECTS_TILE_TILEEFFECTS_H

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {

/// The block's shared memory (`shared` buffers).
struct SharedMemoryResource
    : public SideEffects::Resource::Base<SharedMemoryResource> {
  StringRef getName() final { return "<tile.shared_memory>"; }
};

/// A thread's own storage: the registers or local memory of `fragment` and
/// `local` buffers, which no other thread sees.
struct PrivateMemoryResource
    : public SideEffects::Resource::Base<PrivateMemoryResource> {
  StringRef getName() final { return "<tile.private_memory>"; }
};

/// Returns the resource that holds the buffer `buffer` (a `!tile.buffer`):
/// global tensors are the default resource.
SideEffects::Resource *getMemoryResource(Value buffer);

} // namespace mlir::tile

#endif // TILEC_DIALECTS_TILE_TILEEFFECTS_H
