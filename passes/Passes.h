//===- Passes.h - Tile-level transformations --------------------*- C++ -*-===//

#ifndef TILEC_PASSES_PASSES_H
#define TILEC_PASSES_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::tile {
class KernelOp;
} // namespace mlir::tile

namespace tilec {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace tilec

#endif // TILEC_PASSES_PASSES_H
