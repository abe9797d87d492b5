//===- LaunchGrid.h - Grid extents from bound dims --------------*- C++ -*-===//

#ifndef TILERT_LIB_LAUNCHGRID_H
#define TILERT_LIB_LAUNCHGRID_H

#include "Metadata.h"
#include "Status.h"

#include <array>
#include <cstdint>
#include <vector>

namespace tilert::detail {

/// CUDA's grid extent limits: x, then y and z.
inline constexpr int64_t MaxGridX = 2147483647;
inline constexpr int64_t MaxGridYZ = 65535;

/// The grid of one launch.
struct LaunchGrid {
  /// Blocks along x, y, z.
  std::array<uint32_t, 3> Extent{0, 0, 0};

  /// Whether the grid has no block (the launch is skipped).
  bool empty() const {
    return Extent[0] == 0 || Extent[1] == 0 || Extent[2] == 0;
  }
};

/// Evaluates `metadata`'s grid expressions with `dims` (the values of
/// metadata.Dims). Division by zero, overflow, a negative extent, an extent
/// above CUDA's limits (the dims are too large for the kernel) and an extent
/// that is not a multiple of the cluster dim are TILERT_ERROR_INVALID_ARGUMENT
/// naming the expression and the dims it used.
Status computeGrid(const KernelMetadata &metadata,
                   const std::vector<int64_t> &dims, LaunchGrid &out);

} // namespace tilert::detail

#endif // TILERT_LIB_LAUNCHGRID_H
