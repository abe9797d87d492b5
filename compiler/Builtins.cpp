//===- Builtins.cpp - The builtin functions of the .tile language ---------===//

#include "compiler/Builtins.h"

#include "compiler/Limits.h"

using namespace tilec;

namespace {

using C = BuiltinCategory;

const BuiltinInfo Table[] = {
    {Builtin::AllocShared, "alloc_shared", C::Allocation, 2, 2, ""},
    {Builtin::AllocFragment, "alloc_fragment", C::Allocation, 2, 2, ""},
    {Builtin::AllocLocal, "alloc_local", C::Allocation, 2, 2, ""},
    {Builtin::AllocVar, "alloc_var", C::Allocation, 1, 1, ""},
    {Builtin::Copy, "copy", C::Statement, 2, 2, ""},
    {Builtin::Gemm, "gemm", C::Statement, 3, 3,
     "transpose_A,transpose_B,policy,clear"},
    {Builtin::Clear, "clear", C::Statement, 1, 1, ""},
    {Builtin::Fill, "fill", C::Statement, 2, 2, ""},
    {Builtin::ReduceSum, "reduce_sum", C::Statement, 2, 2, "dim,clear"},
    {Builtin::ReduceMax, "reduce_max", C::Statement, 2, 2, "dim,clear"},
    {Builtin::ReduceMin, "reduce_min", C::Statement, 2, 2, "dim,clear"},
    {Builtin::ReduceAbsSum, "reduce_abssum", C::Statement, 2, 2, "dim,clear"},
    {Builtin::ReduceAbsMax, "reduce_absmax", C::Statement, 2, 2, "dim,clear"},
    {Builtin::UseSwizzle, "use_swizzle", C::Statement, 1, 1, ""},
    {Builtin::AnnotateLayout, "annotate_layout", C::Statement, 2, 2, ""},
    {Builtin::Print, "print", C::Statement, 1, 2, ""},
    {Builtin::Parallel, "parallel", C::LoopRange, 1, limits::MaxRank, ""},
    {Builtin::Pipelined, "pipelined", C::LoopRange, 1, 1, "stages"},
    {Builtin::Serial, "serial", C::LoopRange, 1, 1, ""},
    {Builtin::Unroll, "unroll", C::LoopRange, 1, 1, ""},
    {Builtin::Exp, "exp", C::Scalar, 1, 1, ""},
    {Builtin::Exp2, "exp2", C::Scalar, 1, 1, ""},
    {Builtin::Log, "log", C::Scalar, 1, 1, ""},
    {Builtin::Log2, "log2", C::Scalar, 1, 1, ""},
    {Builtin::Sqrt, "sqrt", C::Scalar, 1, 1, ""},
    {Builtin::Rsqrt, "rsqrt", C::Scalar, 1, 1, ""},
    {Builtin::Tanh, "tanh", C::Scalar, 1, 1, ""},
    {Builtin::Erf, "erf", C::Scalar, 1, 1, ""},
    {Builtin::Abs, "abs", C::Scalar, 1, 1, ""},
    {Builtin::Floor, "floor", C::Scalar, 1, 1, ""},
    {Builtin::Ceil, "ceil", C::Scalar, 1, 1, ""},
    {Builtin::Max, "max", C::Scalar, 2, 2, ""},
    {Builtin::Min, "min", C::Scalar, 2, 2, ""},
    {Builtin::Ceildiv, "ceildiv", C::Scalar, 2, 2, ""},
    {Builtin::Sin, "sin", C::Scalar, 1, 1, ""},
    {Builtin::Cos, "cos", C::Scalar, 1, 1, ""},
    {Builtin::Sigmoid, "sigmoid", C::Scalar, 1, 1, ""},
    {Builtin::Pow, "pow", C::Scalar, 2, 2, ""},
    {Builtin::Fma, "fma", C::Scalar, 3, 3, ""},
};

} // namespace

std::optional<Builtin> tilec::lookupBuiltin(std::string_view Name) {
  for (const BuiltinInfo &Info : Table)
    if (Name == Info.Name)
      return Info.Id;
  return std::nullopt;
}

std::vector<BuiltinInfo> tilec::getBuiltins() {
  return std::vector<BuiltinInfo>(std::begin(Table), std::end(Table));
}

const BuiltinInfo &tilec::getBuiltinInfo(Builtin Id) {
  return Table[static_cast<unsigned>(Id)];
}

bool tilec::acceptsNamedArg(Builtin Id, std::string_view Name) {
  std::string_view List = getBuiltinInfo(Id).NamedArgs;
  while (!List.empty()) {
    std::size_t Comma = List.find(',');
    if (List.substr(0, Comma) == Name)
      return true;
    if (Comma == std::string_view::npos)
      break;
    List.remove_prefix(Comma + 1);
  }
  return false;
}

std::string tilec::describeNamedArgs(Builtin Id) {
  std::string Out;
  for (const char *P = getBuiltinInfo(Id).NamedArgs; *P; ++P) {
    if (*P == ',')
      Out += ", ";
    else
      Out += *P;
  }
  return Out;
}

bool tilec::isReduction(Builtin Id) {
  return Id == Builtin::ReduceSum || Id == Builtin::ReduceMax ||
         Id == Builtin::ReduceMin || Id == Builtin::ReduceAbsSum ||
         Id == Builtin::ReduceAbsMax;
}
