//===- Passes.h - Lowering of tile kernels to LLVM/NVVM ---------*- C++ -*-===//

#ifndef TILEC_CODEGEN_CONVERSION_PASSES_H
#define TILEC_CODEGEN_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
class ModuleOp;
namespace tile {
class KernelOp;
} // namespace tile
} // namespace mlir

namespace tilec {

/// The discardable attribute (an i64) `convert-tile-to-llvm` sets on the
/// module: what emitting its kernels cost, in operations weighted like the
/// pass's limit on the size of one kernel.
constexpr llvm::StringLiteral kCodegenCostAttrName = "tile.codegen_cost";

#define GEN_PASS_DECL
#include "codegen/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "codegen/Conversion/Passes.h.inc"

} // namespace tilec

#endif // TILEC_CODEGEN_CONVERSION_PASSES_H
