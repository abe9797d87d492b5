//===- Types.h - Types and constants of the .tile language ------*- C++ -*-===//
//
// Scalar kinds (the element types plus `index`), memory scopes, buffer shapes,
// the type of an expression as semantic analysis sees it, and compile-time
// constant values.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_TYPES_H
#define TILEC_COMPILER_TYPES_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// The scalar types. Every kind but `Index` is an element type that tensors
/// and tiles can hold; `Index` is the type of loop variables, block indices,
/// dimensions and integer index arithmetic (64-bit, signed).
enum class ScalarKind : std::uint8_t {
  Bool,
  I8,
  I16,
  I32,
  I64,
  U8,
  U32,
  F16,
  BF16,
  F32,
  F64,
  Index,
};

/// Returns the element type spelled `Name` (`f16`, `bf16`, ..., `bool`), or
/// nothing. `index` is not an element type and is not recognized here.
std::optional<ScalarKind> parseElementType(std::string_view Name);
/// Returns the scalar type spelled `Name`: an element type or `index`.
std::optional<ScalarKind> parseScalarType(std::string_view Name);
/// Returns the source spelling of `Kind`.
const char *getSpelling(ScalarKind Kind);
/// Returns the list of element type spellings, for messages.
const char *getElementTypeList();
/// Returns true for f16, bf16, f32 and f64.
bool isFloat(ScalarKind Kind);
/// Returns true for the integer kinds and `index` (not `bool`).
bool isInteger(ScalarKind Kind);
/// Returns true for u8 and u32.
bool isUnsigned(ScalarKind Kind);
/// Returns the width in bits (1 for bool, 64 for index).
unsigned getBitWidth(ScalarKind Kind);
/// Returns the storage size in bytes (1 for bool, 8 for index).
unsigned getByteSize(ScalarKind Kind);
/// Returns the largest finite value of float kind `Kind`.
double getMaxFinite(ScalarKind Kind);
/// Returns true if integer `Value` is representable in integer kind `Kind`.
bool fitsInInteger(std::int64_t Value, ScalarKind Kind);

/// Where a buffer lives.
enum class MemScope : std::uint8_t { Global, Shared, Fragment, Local };

/// Returns `global`, `shared`, `fragment` or `local`.
const char *getSpelling(MemScope Scope);

/// The shape, scope and element type of a tensor or tile.
struct BufferInfo {
  /// Where the buffer lives.
  MemScope Scope = MemScope::Local;
  /// The element type.
  ScalarKind Elem = ScalarKind::F32;
  /// Extents, outermost first; `Dynamic` for a symbolic dim of a tensor.
  std::vector<std::int64_t> Shape;
  /// For tensors: the symbolic dim's name, or empty for a constant dim.
  std::vector<std::string> DimNames;

  /// The extent of a symbolic dim.
  static constexpr std::int64_t Dynamic = -1;

  /// Returns the number of dims (0 for an `alloc_var`).
  unsigned getRank() const { return static_cast<unsigned>(Shape.size()); }
  /// Returns the number of elements of a static shape.
  std::int64_t getNumElements() const;
  /// Returns the shape as written in messages: `[128, 32]`, `[M, 64]`.
  std::string describeShape() const;
};

/// A compile-time constant.
struct Constant {
  /// What the constant holds.
  enum class Kind : std::uint8_t { Int, Float, Bool, Type };
  /// What it holds.
  Kind K = Kind::Int;
  /// The value of an Int.
  std::int64_t Int = 0;
  /// The value of a Float.
  double Float = 0;
  /// The value of a Bool.
  bool Bool = false;
  /// The value of a Type (an element type).
  ScalarKind Type = ScalarKind::F32;

  /// Returns an integer constant.
  static Constant getInt(std::int64_t V) {
    Constant C;
    C.K = Kind::Int;
    C.Int = V;
    return C;
  }
  /// Returns a floating-point constant.
  static Constant getFloat(double V) {
    Constant C;
    C.K = Kind::Float;
    C.Float = V;
    return C;
  }
  /// Returns a boolean constant.
  static Constant getBool(bool V) {
    Constant C;
    C.K = Kind::Bool;
    C.Bool = V;
    return C;
  }
  /// Returns an element-type constant.
  static Constant getType(ScalarKind V) {
    Constant C;
    C.K = Kind::Type;
    C.Type = V;
    return C;
  }
  /// Returns the value as numbers are printed: `128`, `0.5`, `true`, `f16`.
  std::string toString() const;
};

/// The type of an expression during semantic analysis. Integer and
/// floating-point literals (and constant expressions over them and over
/// integer compile-time parameters) are *untyped*: they take the type their
/// context requires, like Go's untyped constants.
class ExprType {
public:
  /// The kinds of expression types.
  enum class Kind : std::uint8_t {
    /// The expression is erroneous (already reported).
    Error,
    /// A scalar of kind `getScalar()`.
    Scalar,
    /// An untyped integer constant (or an expression over such constants).
    UntypedInt,
    /// An untyped floating-point constant.
    UntypedFloat,
    /// A tensor or tile; `getBuffer()` describes it.
    Buffer,
    /// An element type used as a value (`f16`, or a type parameter).
    TypeValue,
    /// A string literal.
    String,
    /// A shape list `[a, b]`.
    Shape,
  };

  /// Creates the error type (the type of an expression not yet analyzed).
  ExprType() = default;

  /// Returns the error type.
  static ExprType getError() { return ExprType(Kind::Error); }
  /// Returns a scalar type.
  static ExprType getScalar(ScalarKind S) {
    ExprType T(Kind::Scalar);
    T.Scalar = S;
    return T;
  }
  /// Returns the untyped-integer type.
  static ExprType getUntypedInt() { return ExprType(Kind::UntypedInt); }
  /// Returns the untyped-float type.
  static ExprType getUntypedFloat() { return ExprType(Kind::UntypedFloat); }
  /// Returns the type of a buffer described by `Info` (which must outlive it).
  static ExprType getBuffer(const BufferInfo *Info) {
    ExprType T(Kind::Buffer);
    T.Buffer = Info;
    return T;
  }
  /// Returns the type of an element-type value.
  static ExprType getTypeValue() { return ExprType(Kind::TypeValue); }
  /// Returns the type of a string literal.
  static ExprType getString() { return ExprType(Kind::String); }
  /// Returns the type of a shape list.
  static ExprType getShape() { return ExprType(Kind::Shape); }

  /// Returns what kind of type this is.
  Kind getKind() const { return K; }
  /// Returns true for the error type.
  bool isError() const { return K == Kind::Error; }
  /// Returns true for untyped integer and float constants.
  bool isUntyped() const {
    return K == Kind::UntypedInt || K == Kind::UntypedFloat;
  }
  /// Returns true for a scalar of kind `S`.
  bool isScalar(ScalarKind S) const { return K == Kind::Scalar && Scalar == S; }
  /// Returns true for any scalar.
  bool isScalar() const { return K == Kind::Scalar; }
  /// Returns true for bool.
  bool isBool() const { return isScalar(ScalarKind::Bool); }
  /// Returns true for a number: an integer, index or float scalar, or an
  /// untyped constant.
  bool isNumeric() const {
    return isUntyped() || (K == Kind::Scalar && Scalar != ScalarKind::Bool);
  }
  /// Returns the scalar kind (valid for Scalar only).
  ScalarKind getScalar() const { return Scalar; }
  /// Returns the buffer (valid for Buffer only).
  const BufferInfo *getBuffer() const { return Buffer; }
  /// Returns how the type is named in messages.
  std::string describe() const;

  /// Returns true if both types are the same.
  bool operator==(const ExprType &Other) const {
    return K == Other.K && (K != Kind::Scalar || Scalar == Other.Scalar) &&
           (K != Kind::Buffer || Buffer == Other.Buffer);
  }
  /// Returns true if the types differ.
  bool operator!=(const ExprType &Other) const { return !(*this == Other); }

private:
  explicit ExprType(Kind K) : K(K) {}

  Kind K = Kind::Error;
  ScalarKind Scalar = ScalarKind::F32;
  const BufferInfo *Buffer = nullptr;
};

} // namespace tilec

#endif // TILEC_COMPILER_TYPES_H
