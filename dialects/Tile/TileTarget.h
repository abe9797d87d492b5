//===- TileTarget.h - The target a module is compiled for -------*- C++ -*-===//
//
// Every target-dependent pass reads the `tile.target` attribute
// (#tile.target) of the module it runs in through these functions.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECTS_TILE_TILETARGET_H
#define TILEC_DIALECTS_TILE_TILETARGET_H

#include "dialects/Tile/TileDialect.h"

#include "mlir/Support/LLVM.h"

namespace mlir::tile {

/// Returns the `tile.target` of `op` or of its nearest ancestor that has
/// one, or null.
TargetAttr getTarget(Operation *op);

/// Like getTarget, but reports a located error naming `passName` when no
/// target is set.
FailureOr<TargetAttr> requireTarget(Operation *op, StringRef passName);

/// Sets `target` as the `tile.target` of `op` (a module).
void setTarget(Operation *op, TargetAttr target);

} // namespace mlir::tile

#endif // TILEC_DIALECTS_TILE_TILETARGET_H
