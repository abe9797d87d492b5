//===- tile-opt.cpp - The tilec optimizer driver --------------------------===//
//
// An mlir-opt style driver with the tile dialect and every tilec pass
// registered, for lit tests of the dialect and the passes.
//
//===----------------------------------------------------------------------===//

#include "codegen/Pipeline.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::tile::TileDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::func::FuncDialect>();
  tilec::registerCodegenDialects(registry);
  mlir::registerTransformsPasses();
  tilec::registerTilecPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilec optimizer driver\n", registry));
}
