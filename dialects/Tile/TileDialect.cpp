//===- TileDialect.cpp - The tile dialect ---------------------------------===//
//
// Registers the ops, types and attributes of the `tile` dialect.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "dialects/Tile/TileDialect.cpp.inc"
#include "dialects/Tile/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/TileAttrs.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Tile/TileOps.cpp.inc"
      >();
  registerTypes();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Tile/TileAttrs.cpp.inc"
      >();
}
