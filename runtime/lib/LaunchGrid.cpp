//===- LaunchGrid.cpp - Grid extents from bound dims ------------*- C++ -*-===//

#include "LaunchGrid.h"

namespace tilert::detail {

namespace {

constexpr char Axes[] = "xyz";

int64_t gridLimit(size_t axis) { return axis == 0 ? MaxGridX : MaxGridYZ; }

// The errors, out of line: grids are computed on every launch.

/// The error of grid axis `axis`, whose expression evaluated to `value` with
/// status `evaluated`: "vector_add: grid x = 'ceildiv(N, 1024)' with N=5"
/// followed by what is wrong.
[[gnu::cold]] Status axisError(const KernelMetadata &metadata,
                               const std::vector<int64_t> &dims, size_t axis,
                               const Status &evaluated, int64_t value) {
  const IntExpr &Expr = metadata.Launch.Grid[axis];
  std::string Bindings;
  for (size_t Used : Expr.usedNames())
    Bindings += strCat(Bindings.empty() ? " with " : ", ", metadata.Dims[Used],
                       "=", dims[Used]);
  std::string Where = strCat(metadata.Name, ": grid ", Axes[axis], " = '",
                             Expr.text(), "'", Bindings);
  if (!evaluated.ok())
    return evaluated.withPrefix(Where + ": ");
  if (value < 0)
    return makeError(TILERT_ERROR_INVALID_ARGUMENT, Where, " is ", value,
                     "; a grid extent cannot be negative");
  return makeError(TILERT_ERROR_INVALID_ARGUMENT, Where, " is ", value,
                   ", above CUDA's limit of ", gridLimit(axis),
                   ": the dims are too large for this kernel");
}

[[gnu::cold]] Status clusterError(const KernelMetadata &metadata,
                                  const LaunchGrid &grid, size_t axis) {
  return makeError(TILERT_ERROR_INVALID_ARGUMENT, metadata.Name, ": grid ",
                   Axes[axis], " = ", grid.Extent[axis],
                   " is not a multiple of the cluster's ", Axes[axis], " = ",
                   metadata.Launch.Cluster[axis]);
}

} // namespace

Status computeGrid(const KernelMetadata &metadata,
                   const std::vector<int64_t> &dims, LaunchGrid &out) {
  LaunchGrid Grid;
  for (size_t I = 0; I < 3; ++I) {
    const IntExpr &Expr = metadata.Launch.Grid[I];
    int64_t Value = 0;
    if (!Expr.isConstant(Value)) {
      Status Evaluated = Expr.evaluate(dims, Value);
      if (!Evaluated.ok())
        return axisError(metadata, dims, I, Evaluated, Value);
    }
    if (Value < 0 || Value > gridLimit(I))
      return axisError(metadata, dims, I, Status::success(), Value);
    Grid.Extent[I] = static_cast<uint32_t>(Value);
  }
  // A persistent launch's grid is its tiles': the blocks launched (whole
  // clusters) are counted at launch.
  if (!Grid.empty() && !metadata.Launch.Persistent) {
    for (size_t I = 0; I < 3; ++I)
      if (metadata.Launch.Cluster[I] != 1 &&
          Grid.Extent[I] % metadata.Launch.Cluster[I] != 0)
        return clusterError(metadata, Grid, I);
  }
  out = Grid;
  return Status::success();
}

} // namespace tilert::detail
