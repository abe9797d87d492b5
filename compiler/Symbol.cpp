//===- Symbol.cpp - Named entities of a .tile program ---------------------===//

#include "compiler/Symbol.h"

using namespace tilec;

std::string Symbol::describeKind() const {
  switch (K) {
  case Kind::ConstParam:
    return "compile-time parameter";
  case Kind::Tensor:
    return "tensor parameter";
  case Kind::Dim:
    return "symbolic dimension";
  case Kind::Scalar:
    return "scalar parameter";
  case Kind::Let:
    return "'let' value";
  case Kind::Buffer:
    if (Buffer.getRank() == 0)
      return "variable";
    return std::string(getSpelling(Buffer.Scope)) + " tile";
  case Kind::LoopVar:
    return "loop variable";
  case Kind::BlockIndex:
    return "block index";
  case Kind::FnParam:
    return "function parameter";
  }
  return "name";
}
