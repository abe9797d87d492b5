//===- TileInterfaces.cpp - Interfaces of the tile dialect ----------------===//
//
// The generated definitions of the interfaces in TileInterfaces.td.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/TileOps.h"

#include "dialects/Tile/TileAttrInterfaces.cpp.inc"
#include "dialects/Tile/TileOpInterfaces.cpp.inc"
