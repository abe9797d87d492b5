//===- SharedLayoutChoice.h - Which layout a shared tile gets ---*- C++ -*-===//
//
// The heuristic that picks a shared-memory layout (#tile.swizzled or
// #tile.padded) for a shared tile so that the 16-byte accesses of the
// tensor-core path are free of bank conflicts: `cp.async` writes of
// consecutive 16-byte chunks by consecutive threads, and `ldmatrix` reads of
// 8 consecutive rows at one 16-byte column. A user's `tile.annotate_layout`
// (or a #tile.layout on the buffer's type) overrides the choice of family.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PASSES_LAYOUT_SHAREDLAYOUTCHOICE_H
#define TILEC_PASSES_LAYOUT_SHAREDLAYOUTCHOICE_H

#include "dialects/Tile/TileOps.h"

#include <optional>

namespace tilec {

/// Returns the layout family the user asked for for `buffer`: the
/// `#tile.layout` of its type or of the `tile.annotate_layout` ops on it, or
/// std::nullopt if none. Reports a located error, and fails, if two of them
/// disagree.
mlir::FailureOr<std::optional<mlir::tile::LayoutKind>>
getRequestedLayout(mlir::Value buffer);

/// Chooses the layout of a shared tile of `shape` (static, rank >= 1; the
/// innermost dimension contiguous, the leading ones flattened into rows) and
/// `elementBits`-bit elements (8, 16, 32 or 64), where a row is `W =
/// shape.back()` elements and `C = W * elementBits / 128` 16-byte chunks:
///
/// * rows of whole 16-byte chunks: `#tile.swizzled<vec = 128 / elementBits,
///   per_phase = 8 / M, max_phase = M>` with `M = min(8, the largest power
///   of two dividing C)` (128-byte multiples: 1 and 8; 64-byte rows: 2 and
///   4; 32-byte rows: 4 and 2); rows of more than 128 bytes (a multiple of
///   128) in a tile of rank 2 or more get `panel = 1024 / elementBits`, one
///   128-byte panel (the wgmma and TMA arrangement). When `C` is odd,
///   `M = 1` and the plain layout `#tile.padded<pad = 0>` is already
///   conflict-free;
/// * tiles of fewer than 8 rows (one period of every swizzle above; no
///   ldmatrix or wgmma operand, and conflict-free for row-major 16-byte
///   accesses): `#tile.padded<pad = 0>`, which a pipelined loop can stage;
/// * other rows (no 16-byte access can use them): `#tile.padded<pad = 0>`.
///
/// `requested` overrides the family: `Linear` gives `#tile.padded<pad = 0>`;
/// `Padded` pads rows to the next odd number of 16-byte chunks (`pad = 0`
/// if they already are); `Swizzled` gives the swizzle above even when it is
/// the identity (`max_phase = 1`). Returns null if `shape` or `elementBits`
/// is not supported, or if a swizzle is requested for rows that are not
/// whole 16-byte chunks.
mlir::tile::SharedLayoutAttrInterface
chooseSharedLayout(mlir::MLIRContext *context, llvm::ArrayRef<int64_t> shape,
                   unsigned elementBits,
                   std::optional<mlir::tile::LayoutKind> requested = {});

} // namespace tilec

#endif // TILEC_PASSES_LAYOUT_SHAREDLAYOUTCHOICE_H
