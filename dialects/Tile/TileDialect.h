//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//
//
// Declares the `tile` dialect: tile-level GPU kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECTS_TILE_TILEDIALECT_H
#define TILEC_DIALECTS_TILE_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Dialect.h"

#include "dialects/Tile/TileDialect.h.inc"

#endif // TILEC_DIALECTS_TILE_TILEDIALECT_H
