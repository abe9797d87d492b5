//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//
//
// Declares the `tile` dialect: tile-level GPU kernels, with its attributes
// (the dialect's discardable-attribute helpers name them) and attribute
// interfaces.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECTS_TILE_TILEDIALECT_H
#define TILEC_DIALECTS_TILE_TILEDIALECT_H

#include "compiler/Target.h"
#include "dialects/Tile/TileLayouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"

#include "dialects/Tile/TileEnums.h.inc"

#include "dialects/Tile/TileAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/TileAttrs.h.inc"

#include "dialects/Tile/TileDialect.h.inc"

#endif // TILEC_DIALECTS_TILE_TILEDIALECT_H
