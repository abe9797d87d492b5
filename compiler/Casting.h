//===- Casting.h - isa/cast/dyn_cast for AST nodes --------------*- C++ -*-===//
//
// LLVM-style checked casts over class hierarchies that define
// `static bool classof(const Base *)`, without depending on LLVM (the front
// end links into the fuzz target on its own).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_CASTING_H
#define TILEC_COMPILER_CASTING_H

#include <cassert>
#include <type_traits>

namespace tilec {

/// Returns true if `Node` is a `To`.
template <typename To, typename From> bool isa(const From *Node) {
  return To::classof(Node);
}

/// Returns `Node` as a `To`, which it must be.
template <typename To, typename From> To *cast(From *Node) {
  assert(isa<To>(Node) && "cast to the wrong node class");
  return static_cast<To *>(Node);
}

/// Returns `Node` as a `const To`, which it must be.
template <typename To, typename From> const To *cast(const From *Node) {
  assert(isa<To>(Node) && "cast to the wrong node class");
  return static_cast<const To *>(Node);
}

/// Returns `Node` as a `To &`, which it must be.
template <typename To, typename From,
          typename = std::enable_if_t<!std::is_pointer_v<From>>>
To &cast(From &Node) {
  assert(isa<To>(&Node) && "cast to the wrong node class");
  return static_cast<To &>(Node);
}

/// Returns `Node` as a `const To &`, which it must be.
template <typename To, typename From,
          typename = std::enable_if_t<!std::is_pointer_v<From>>>
const To &cast(const From &Node) {
  assert(isa<To>(&Node) && "cast to the wrong node class");
  return static_cast<const To &>(Node);
}

/// Returns `Node` as a `To`, or null if it is something else.
template <typename To, typename From> To *dyn_cast(From *Node) {
  return isa<To>(Node) ? static_cast<To *>(Node) : nullptr;
}

/// Returns `Node` as a `const To`, or null if it is something else.
template <typename To, typename From> const To *dyn_cast(const From *Node) {
  return isa<To>(Node) ? static_cast<const To *>(Node) : nullptr;
}

} // namespace tilec

#endif // TILEC_COMPILER_CASTING_H
