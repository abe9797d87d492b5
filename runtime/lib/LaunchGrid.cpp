//===- LaunchGrid.cpp - Grid extents from bound dims ------------*- C++ -*-===//

#include "LaunchGrid.h"

namespace tilert::detail {

Status computeGrid(const KernelMetadata &metadata,
                   const std::vector<int64_t> &dims, LaunchGrid &out) {
  static constexpr char Axes[] = "xyz";
  LaunchGrid Grid;
  for (size_t I = 0; I < 3; ++I) {
    const IntExpr &Expr = metadata.Launch.Grid[I];
    // "vector_add: grid x = 'ceildiv(N, 1024)' with N=5", built on failure.
    auto Describe = [&] {
      std::string Bindings;
      for (size_t Used : Expr.usedNames())
        Bindings += strCat(Bindings.empty() ? " with " : ", ",
                           metadata.Dims[Used], "=", dims[Used]);
      return strCat(metadata.Name, ": grid ", Axes[I], " = '", Expr.text(), "'",
                    Bindings);
    };
    int64_t Value;
    Status Evaluated = Expr.evaluate(dims, Value);
    if (!Evaluated.ok())
      return Evaluated.withPrefix(Describe() + ": ");
    if (Value < 0)
      return makeError(TILERT_ERROR_INVALID_ARGUMENT, Describe(), " is ", Value,
                       "; a grid extent cannot be negative");
    int64_t Limit = I == 0 ? MaxGridX : MaxGridYZ;
    if (Value > Limit)
      return makeError(TILERT_ERROR_INVALID_ARGUMENT, Describe(), " is ", Value,
                       ", above CUDA's limit of ", Limit,
                       ": the dims are too large for this kernel");
    Grid.Extent[I] = static_cast<uint32_t>(Value);
  }
  if (!Grid.empty()) {
    for (size_t I = 0; I < 3; ++I) {
      uint32_t Cluster = metadata.Launch.Cluster[I];
      if (Grid.Extent[I] % Cluster != 0)
        return makeError(TILERT_ERROR_INVALID_ARGUMENT, metadata.Name,
                         ": grid ", Axes[I], " = ", Grid.Extent[I],
                         " is not a multiple of the cluster's ", Axes[I], " = ",
                         Cluster);
    }
  }
  out = Grid;
  return Status::success();
}

} // namespace tilert::detail
