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

#define GEN_PASS_DECL
#include "codegen/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "codegen/Conversion/Passes.h.inc"

} // namespace tilec

#endif // TILEC_CODEGEN_CONVERSION_PASSES_H
