//===- LaunchGrid.h - Grid extents of a launch as expressions ---*- C++ -*-===//

#ifndef TILEC_CODEGEN_LAUNCHGRID_H
#define TILEC_CODEGEN_LAUNCHGRID_H

#include "mlir/Support/LLVM.h"

#include <array>
#include <string>

namespace mlir::tile {
class LaunchOp;
} // namespace mlir::tile

namespace tilec {

/// Derives the metadata expressions (docs/metadata.md) of the x, y and z
/// grid extents of `launch` from the ops that compute its grid operands:
/// integer constants, the kernel's dim arguments, `arith` addition,
/// subtraction, multiplication, division, remainder, ceildiv, min, max and
/// integer casts. Missing dims are "1". Anything else is reported at the
/// offending op ("grid extent is not an expression over dims").
mlir::FailureOr<std::array<std::string, 3>>
launchGridExpressions(mlir::tile::LaunchOp launch);

} // namespace tilec

#endif // TILEC_CODEGEN_LAUNCHGRID_H
