//===- TileOps.h - Operations of the tile dialect ---------------*- C++ -*-===//
//
// Declares the ops of the `tile` dialect. Include this header to use the
// dialect: it brings in the dialect, its types and its attributes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECTS_TILE_TILEOPS_H
#define TILEC_DIALECTS_TILE_TILEOPS_H

#include "dialects/Tile/TileDialect.h"
#include "dialects/Tile/TileEffects.h"
#include "dialects/Tile/TileTypes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Tile/TileOpInterfaces.h.inc"

namespace mlir::tile {
class LaunchOp;
} // namespace mlir::tile

#define GET_OP_CLASSES
#include "dialects/Tile/TileOps.h.inc"

#endif // TILEC_DIALECTS_TILE_TILEOPS_H
