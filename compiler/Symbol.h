//===- Symbol.h - Named entities of a .tile program -------------*- C++ -*-===//

#ifndef TILEC_COMPILER_SYMBOL_H
#define TILEC_COMPILER_SYMBOL_H

#include "compiler/SourceFile.h"
#include "compiler/Types.h"

#include <optional>
#include <string>

namespace tilec {

/// Something a name can refer to. Semantic analysis creates symbols and
/// points name references at them; MLIR generation maps them to values.
struct Symbol {
  /// The kinds of named entities.
  enum class Kind {
    /// A compile-time parameter (`block_M = 128`).
    ConstParam,
    /// A tensor parameter (`A: f16[M, K]`).
    Tensor,
    /// A symbolic dimension of tensor parameters (`M`).
    Dim,
    /// A runtime scalar parameter (`scale: f32`).
    Scalar,
    /// A `let` binding of a scalar value.
    Let,
    /// A tile allocated by `alloc_*`.
    Buffer,
    /// A loop induction variable.
    LoopVar,
    /// A block index bound by `with kernel(...) as (...)`.
    BlockIndex,
    /// A parameter of a `fn`.
    FnParam,
  };

  /// What the symbol is.
  Kind K = Kind::Let;
  /// Its name.
  std::string Name;
  /// Where it is declared.
  SourceLoc Loc;
  /// Its type: a scalar, an untyped constant, a buffer (whose info is
  /// `Buffer`) or an element type.
  ExprType Ty;
  /// Its value, when it is a compile-time constant.
  std::optional<Constant> Const;
  /// Shape, scope and element type of a tensor or tile.
  BufferInfo Buffer;
  /// For a compile-time parameter set on the command line: the `-D` text.
  std::string Define;

  /// Returns how the symbol is described in messages: `tensor parameter`,
  /// `shared tile`, `loop variable`...
  std::string describeKind() const;
};

} // namespace tilec

#endif // TILEC_COMPILER_SYMBOL_H
