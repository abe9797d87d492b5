//===- TileTypes.h - Types of the tile dialect ------------------*- C++ -*-===//
//
// Declares the `!tile.buffer` type.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECTS_TILE_TILETYPES_H
#define TILEC_DIALECTS_TILE_TILETYPES_H

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "dialects/Tile/TileTypes.h.inc"

#endif // TILEC_DIALECTS_TILE_TILETYPES_H
