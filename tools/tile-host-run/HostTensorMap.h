//===- HostTensorMap.h - A TMA tensor map on the host -----------*- C++ -*-===//
//
// The 128 bytes tile-host-run passes for a `tensor_map` parameter
// (docs/metadata.md) in place of the driver's CUtensorMap: the arguments
// the runtime would give cuTensorMapEncodeTiled (tilert's
// makeTensorMapArgs, so the same TMA rules), in a form the BlockScheduler's
// TMA loads and stores read. A map the runtime would skip (an optional map
// of a tensor that breaks TMA's rules) is 128 zero bytes, as on the GPU;
// using one is an error.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEHOSTRUN_HOSTTENSORMAP_H
#define TILEC_TOOLS_TILEHOSTRUN_HOSTTENSORMAP_H

#include <cstdint>

namespace tilehost {

/// The largest rank of a tensor map.
constexpr unsigned kMaxTensorMapRank = 5;

/// A tensor map as the host's TMA reads it. Arrays are innermost dimension
/// first, as the driver's.
struct HostTensorMap {
  /// kMagic in an encoded map, 0 in a skipped one.
  uint64_t magic;
  /// The tensor's first element.
  char *base;
  uint32_t rank;
  uint32_t elementBytes;
  /// The shared-memory swizzle span in bytes: 0, 32, 64 or 128.
  uint32_t swizzleBytes;
  /// Whether out-of-bounds elements read as NaN (else zero).
  uint32_t nanFill;
  /// Extents in elements.
  uint64_t dims[kMaxTensorMapRank];
  /// Strides of dimensions 1 to rank - 1, in bytes.
  uint64_t strides[kMaxTensorMapRank - 1];
  /// Box extents in elements.
  uint32_t box[kMaxTensorMapRank];

  /// "TILEHMAP".
  static constexpr uint64_t kMagic = 0x50414d48454c4954ull;
};

static_assert(sizeof(HostTensorMap) <= 128,
              "a tensor map parameter has 128 bytes");

} // namespace tilehost

#endif // TILEC_TOOLS_TILEHOSTRUN_HOSTTENSORMAP_H
