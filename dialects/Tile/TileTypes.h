//===- TileTypes.h - Types and attributes of the tile dialect ---*- C++ -*-===//
//
// Declares the memory scopes, reduction kinds, GEMM policies, layouts and the
// `!tile.buffer` type.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECTS_TILE_TILETYPES_H
#define TILEC_DIALECTS_TILE_TILETYPES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Types.h"

#include "dialects/Tile/TileEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/TileAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Tile/TileTypes.h.inc"

#endif // TILEC_DIALECTS_TILE_TILETYPES_H
