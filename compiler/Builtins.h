//===- Builtins.h - The builtin functions of the .tile language -*- C++ -*-===//
//
// The table of builtins: allocations, tile statements, loop ranges and scalar
// math, with their arities and the named arguments each accepts.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_BUILTINS_H
#define TILEC_COMPILER_BUILTINS_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// Every builtin callee.
enum class Builtin : unsigned char {
  AllocShared,
  AllocFragment,
  AllocLocal,
  AllocVar,
  Copy,
  Gemm,
  Clear,
  Fill,
  ReduceSum,
  ReduceMax,
  ReduceMin,
  ReduceAbsSum,
  ReduceAbsMax,
  UseSwizzle,
  AnnotateLayout,
  Print,
  Parallel,
  Pipelined,
  Serial,
  Unroll,
  Exp,
  Exp2,
  Log,
  Log2,
  Sqrt,
  Rsqrt,
  Tanh,
  Erf,
  Abs,
  Floor,
  Ceil,
  Max,
  Min,
  Ceildiv,
  Sin,
  Cos,
  Sigmoid,
  Pow,
  Fma,
};

/// Where a builtin may be called.
enum class BuiltinCategory : unsigned char {
  /// `alloc_*`: only as the initializer of a `let`.
  Allocation,
  /// Tile statements (`copy`, `gemm`, ...): only as statements.
  Statement,
  /// Loop ranges (`parallel`, ...): only after `for ... in`.
  LoopRange,
  /// Scalar functions: in expressions.
  Scalar,
};

/// What the front end knows about one builtin.
struct BuiltinInfo {
  /// Which builtin.
  Builtin Id;
  /// Its name in source.
  const char *Name;
  /// Where it may be called.
  BuiltinCategory Category;
  /// Fewest positional arguments.
  unsigned MinArgs;
  /// Most positional arguments.
  unsigned MaxArgs;
  /// Named arguments accepted, comma-separated (empty if none).
  const char *NamedArgs;
};

/// Returns the builtin called `Name`, if any.
std::optional<Builtin> lookupBuiltin(std::string_view Name);
/// Returns the table entry of `Id`.
const BuiltinInfo &getBuiltinInfo(Builtin Id);
/// Returns what the front end knows about every builtin, in enumerator
/// order.
std::vector<BuiltinInfo> getBuiltins();
/// Returns true if builtin `Id` accepts the named argument `Name`.
bool acceptsNamedArg(Builtin Id, std::string_view Name);
/// Returns the named arguments of `Id` as a message fragment:
/// `transpose_A, transpose_B, policy, clear`.
std::string describeNamedArgs(Builtin Id);
/// Returns true for reduce_sum, reduce_max, reduce_min, reduce_abssum and
/// reduce_absmax.
bool isReduction(Builtin Id);

} // namespace tilec

#endif // TILEC_COMPILER_BUILTINS_H
