//===- CodegenLimits.h - Bounds of the code generator -----------*- C++ -*-===//
//
// Every limit of the code generator in one place, like the front end's
// compiler/Limits.h. The unit of code size is the cost of one emitted
// operation (passes/Analysis/CodeSize.h): the back end (LLVM's optimizer,
// ptxas) is superlinear in the size of a function, and these bounds keep the
// compilation of any kernel within seconds and turn anything larger into a
// located "too large" error.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_CODEGENLIMITS_H
#define TILEC_CODEGEN_CODEGENLIMITS_H

#include <cstdint>

namespace tilec {

/// The most a kernel may cost once its loops are unrolled (and its parallel
/// steps and lanes emitted), in operations emitted by the lowering.
constexpr int64_t kMaxKernelCost = int64_t(1) << 15;

/// The most code the compileKernel calls of one compilation (all its kernels
/// and architectures) should generate, in KernelArtifacts::cost units: the
/// back end's time grows with it, and each kernel is bounded on its own.
constexpr uint64_t kMaxCompilationCost = uint64_t(1) << 16;

/// Local memory per thread (fragments, local arrays and variables): the
/// limit of every architecture since sm_20.
constexpr int64_t kMaxPrivateBytes = 512 * 1024;

/// Parallel loops with at most this many steps are unrolled.
constexpr int64_t kMaxUnrolledSteps = 8;

/// Loops that access fragments are unrolled up to this many steps, so that
/// every fragment index is a constant and the fragment lives in registers...
constexpr int64_t kMaxUnrolledFragmentSteps = 64;

/// ... and when their unrolled steps cost at most this much: more registers
/// than a thread has cannot be saved anyway.
constexpr int64_t kMaxUnrolledParallelCost = 8192;

/// A step of a parallel loop without vectorized accesses gets a fast path
/// for its guard tests (such as `k * block_N + j < N ? ... : 0`) when its
/// slow path costs at most this much...
constexpr int64_t kMaxGuardedStepCost = 1024;

/// ... and the kernel emitted so far and both paths of the step cost at
/// most this much: a quarter of kMaxKernelCost, so that the rest of a kernel
/// that fits without the fast path keeps room.
constexpr int64_t kMaxGuardedKernelCost = kMaxKernelCost / 4;

/// `tile.fill`/`tile.clear` of at most this many elements per thread are
/// emitted as straight-line stores.
constexpr int64_t kMaxUnrolledFill = 256;

/// A replicated fragment of at most this many elements read at an index
/// known only at run time is read through a chain of selects over its
/// registers (which then stay registers) instead of through local memory.
constexpr int64_t kMaxSelectedRegisters = 16;

/// The most the copies of a vectorized loop body, one per lane, may cost
/// together when `tile-infer-layouts` chooses a loop's vector width.
constexpr uint64_t kMaxVectorizedBodyCost = 4096;

} // namespace tilec

#endif // TILEC_CODEGEN_CODEGENLIMITS_H
