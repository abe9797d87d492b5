//===- MLIRGen.h - Generation of the tile dialect from the AST --*- C++ -*-===//
//
// Lowers one analyzed kernel to a module holding a `tile.kernel` (see
// docs/dialect-sketch.md): arguments in ABI order with their `tile.name`,
// `tile.shape` and `tile.dtype` attributes, the resolved compile-time
// parameters as `tile.constants`, `tile` ops for tile statements and `arith`
// and `math` for scalar code. Functions are inlined. Every op carries the
// FileLineColLoc of the source construct it comes from.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_MLIRGEN_H
#define TILEC_COMPILER_MLIRGEN_H

#include "compiler/Sema.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tilec {

/// Loads the dialects generated IR uses (tile, arith, math) into `Context`.
void loadFrontEndDialects(mlir::MLIRContext &Context);

/// Generates the module of `Kernel`, which semantic analysis of a file
/// (`Source`) accepted without errors. The module is not verified.
mlir::OwningOpRef<mlir::ModuleOp> generateKernel(mlir::MLIRContext &Context,
                                                 const SourceFile &Source,
                                                 const KernelInfo &Kernel);

} // namespace tilec

#endif // TILEC_COMPILER_MLIRGEN_H
