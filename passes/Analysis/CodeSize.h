//===- CodeSize.h - What tile IR costs once emitted -------------*- C++ -*-===//
//
// The cost model behind the code generator's size limits
// (codegen/CodegenLimits.h): the layout rules use it to keep vectorized loop
// bodies short, the lowering to bound what it emits.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PASSES_ANALYSIS_CODESIZE_H
#define TILEC_PASSES_ANALYSIS_CODESIZE_H

#include <cstdint>

namespace mlir {
class Block;
class Operation;
} // namespace mlir

namespace tilec {

/// What an expensive op costs once emitted (see getEmittedCost).
constexpr int64_t kExpensiveOpCost = 16;
/// What an expensive op costs in 64 bits.
constexpr int64_t kWideExpensiveOpCost = 64;

/// What `op` costs the back end once emitted, the unit of the code
/// generator's size limits: 1, or more for transcendental functions
/// (inlined libdevice calls) and divisions by a value that is not a
/// constant (long instruction sequences).
int64_t getEmittedCost(mlir::Operation *op);

/// What emitting `block` once costs, estimated from its ops: a guarded
/// access of global memory emits about 8 ops, an `unroll` loop its body once
/// per trip. Saturates.
uint64_t estimateEmittedCost(mlir::Block &block);

} // namespace tilec

#endif // TILEC_PASSES_ANALYSIS_CODESIZE_H
