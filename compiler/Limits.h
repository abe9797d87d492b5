//===- Limits.h - Implementation limits of the front end --------*- C++ -*-===//
//
// Every bound the front end enforces, in one place. The nesting and height
// limits keep every recursive walk of the AST (parsing, destruction, semantic
// analysis, printing, MLIR generation) within a small, fixed stack budget;
// the extent limits reject absurd programs with a located error instead of
// letting later stages overflow or allocate without bound.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_LIMITS_H
#define TILEC_COMPILER_LIMITS_H

#include <cstdint>

namespace tilec::limits {

/// Largest source file accepted, in bytes.
constexpr std::uint64_t MaxSourceBytes = 4u << 20;
/// Errors reported before the front end gives up.
constexpr unsigned MaxErrors = 20;
/// Deepest nesting of parentheses, brackets, unary operators, conditional
/// expressions and blocks the parser accepts.
constexpr unsigned MaxNestingDepth = 200;
/// Tallest expression tree the parser builds (`a + a + ... + a` is as tall as
/// it has operands).
constexpr unsigned MaxExprHeight = 256;
/// Tallest expression tree after inlining every function call in it.
constexpr unsigned MaxInlinedHeight = 1024;
/// Most expression nodes one kernel may contain after inlining functions.
constexpr std::uint64_t MaxInlinedNodes = 1u << 20;

/// Most dimensions of a tensor or tile.
constexpr unsigned MaxRank = 8;
/// Most runtime parameters (tensors and scalars) of a kernel.
constexpr unsigned MaxParams = 128;
/// Largest extent of one dimension of a tile or `parallel` loop nest.
constexpr std::int64_t MaxTileExtent = std::int64_t(1) << 20;
/// Most elements of one tile or `parallel` iteration space.
constexpr std::int64_t MaxTileElements = std::int64_t(1) << 24;
/// Largest constant dimension of a tensor parameter.
constexpr std::int64_t MaxTensorDim = std::int64_t(1) << 40;
/// Threads per block: a multiple of `WarpSize` in [WarpSize, MaxThreads].
constexpr std::int64_t WarpSize = 32;
/// Most threads in one block.
constexpr std::int64_t MaxThreads = 1024;
/// Largest constant grid extent along x.
constexpr std::int64_t MaxGridX = (std::int64_t(1) << 31) - 1;
/// Largest constant grid extent along y and z.
constexpr std::int64_t MaxGridYZ = 65535;
/// Most stages of a `pipelined` loop.
constexpr std::int64_t MaxStages = 8;
/// Largest trip count of an `unroll` loop.
constexpr std::int64_t MaxUnroll = 1024;
/// Largest `use_swizzle` panel.
constexpr std::int64_t MaxSwizzlePanel = 65535;

} // namespace tilec::limits

#endif // TILEC_COMPILER_LIMITS_H
