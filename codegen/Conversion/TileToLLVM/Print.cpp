//===- Print.cpp - tile.print as a guarded device printf ------------------===//
//
// The lowering of `tile.print` (TileLang's `T.print`): a call of CUDA's
// `vprintf(format, arguments)` that only block (0, 0, 0) makes, so that a
// kernel launched on a large grid still prints a readable handful of lines.
// Outside a `tile.parallel` loop thread 0 prints `<message>: <value>`
// (`<message>` alone without a value); inside one, every element the
// block's threads handle prints `<message> @ (<i>, <j>, ...): <value>`
// with the loop's indices, from the thread that owns it (one thread per
// element in a replicated loop). Floats print with `%g` (f16 and bf16
// widened to f64 as printf does), integers with `%d` or `%lld`, booleans as
// 0 or 1. The format string is a private global of the module; the
// argument buffer is an alloca of the function's entry block.
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

using namespace mlir;
using namespace tilec;

namespace {

constexpr llvm::StringLiteral kVprintf = "vprintf";

/// `text` with every `%` doubled, so that printf prints it as is.
std::string escapeFormat(StringRef text) {
  std::string escaped;
  for (char c : text) {
    escaped += c;
    if (c == '%')
      escaped += '%';
  }
  return escaped;
}

/// The printf conversion of `type` and the value `value` as printf takes it
/// (floats as f64, narrow integers as i32, 64-bit ones as i64).
std::pair<StringRef, Value> printfArgument(OpBuilder &builder, Location loc,
                                           Value value) {
  Type type = value.getType();
  if (isa<FloatType>(type)) {
    if (!type.isF64())
      value = arith::ExtFOp::create(builder, loc, builder.getF64Type(), value);
    return {"%g", value};
  }
  if (type.isIndex())
    return {"%lld", arith::IndexCastOp::create(builder, loc,
                                               builder.getI64Type(), value)};
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits == 64)
    return {"%lld", value};
  if (bits == 1)
    return {"%d",
            arith::ExtUIOp::create(builder, loc, builder.getI32Type(), value)};
  if (bits < 32)
    value = arith::ExtSIOp::create(builder, loc, builder.getI32Type(), value);
  return {"%d", value};
}

/// Emits one `tile.print`.
class PrintLowering {
public:
  PrintLowering(KernelLowering &lowering, tile::PrintOp print, Lane &lane)
      : lowering(lowering), builder(lowering.getBuilder()), print(print),
        lane(lane), loc(print.getLoc()) {}

  LogicalResult emit();

private:
  /// True in block (0, 0, 0) (and in thread 0 outside parallel loops).
  Value isPrinter();
  /// The address of a new private global holding `format`.
  Value formatString(StringRef format);
  /// `vprintf`, declared in the module on first use.
  LLVM::LLVMFuncOp getVprintf();

  KernelLowering &lowering;
  OpBuilder &builder;
  tile::PrintOp print;
  Lane &lane;
  Location loc;
};

Value PrintLowering::isPrinter() {
  Type i32 = builder.getI32Type();
  Value zero = LLVM::ConstantOp::create(builder, loc, i32, int64_t(0));
  auto isZero = [&](Value id) {
    return LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq, id,
                                zero);
  };
  Value all = isZero(NVVM::BlockIdXOp::create(builder, loc, i32));
  for (Value id : {Value(NVVM::BlockIdYOp::create(builder, loc, i32)),
                   Value(NVVM::BlockIdZOp::create(builder, loc, i32))})
    all = LLVM::AndOp::create(builder, loc, all, isZero(id));
  if (!lane.fragmentIndex)
    all = LLVM::AndOp::create(
        builder, loc, all,
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                              lowering.getThreadIndex(),
                              lowering.indexConstant(loc, 0)));
  else if (lane.storingThread)
    all = LLVM::AndOp::create(builder, loc, all, lane.storingThread);
  return all;
}

LLVM::LLVMFuncOp PrintLowering::getVprintf() {
  auto module = lowering.getKernel()->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(kVprintf))
    return existing;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto pointer = LLVM::LLVMPointerType::get(builder.getContext());
  return LLVM::LLVMFuncOp::create(
      builder, loc, kVprintf,
      LLVM::LLVMFunctionType::get(builder.getI32Type(), {pointer, pointer}));
}

Value PrintLowering::formatString(StringRef format) {
  auto module = lowering.getKernel()->getParentOfType<ModuleOp>();
  auto pointer = LLVM::LLVMPointerType::get(builder.getContext());
  std::string bytes = format.str();
  bytes.push_back('\0');
  // One global per distinct format (the lanes of a loop share theirs).
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if (global.getSymName().starts_with("tilec_print_format_") &&
        global.getValueAttr() == builder.getStringAttr(bytes))
      return LLVM::AddressOfOp::create(builder, loc, pointer,
                                       global.getSymName());
  std::string name;
  for (unsigned index = 0;; ++index) {
    name = "tilec_print_format_" + std::to_string(index);
    if (!module.lookupSymbol(name))
      break;
  }
  auto arrayType = LLVM::LLVMArrayType::get(builder.getI8Type(), bytes.size());
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(builder, loc, arrayType, /*isConstant=*/true,
                           LLVM::Linkage::Private, name,
                           builder.getStringAttr(bytes), /*alignment=*/0);
  }
  return LLVM::AddressOfOp::create(builder, loc, pointer, name);
}

LogicalResult PrintLowering::emit() {
  std::string format = escapeFormat(print.getMessage());
  SmallVector<Value> arguments;
  if (lane.fragmentIndex) {
    auto loop = print->getParentOfType<tile::ParallelOp>();
    format += " @ (";
    for (auto [d, iv] : llvm::enumerate(loop.getInductionVars())) {
      auto [conversion, value] =
          printfArgument(builder, loc, lane.map.lookup(iv));
      format += (d ? ", " : "") + conversion.str();
      arguments.push_back(value);
    }
    format += ")";
  }
  if (Value value = print.getValue()) {
    auto [conversion, converted] =
        printfArgument(builder, loc, lowering.materialize(value, lane));
    format += ": " + conversion.str();
    arguments.push_back(converted);
  }
  format += "\n";

  auto ifOp = scf::IfOp::create(builder, loc, isPrinter(),
                                /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  auto pointer = LLVM::LLVMPointerType::get(builder.getContext());
  Value buffer = LLVM::ZeroOp::create(builder, loc, pointer);
  if (!arguments.empty()) {
    SmallVector<Type> fields;
    for (Value argument : arguments)
      fields.push_back(argument.getType());
    auto structType =
        LLVM::LLVMStructType::getLiteral(builder.getContext(), fields);
    // The buffer lives in the entry block: an alloca elsewhere would be
    // dynamic.
    auto function = ifOp->getParentOfType<LLVM::LLVMFuncOp>();
    {
      OpBuilder::InsertionGuard entryGuard(builder);
      builder.setInsertionPointToStart(&function.getBody().front());
      Value one = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                           int64_t(1));
      buffer = LLVM::AllocaOp::create(builder, loc, pointer, structType, one,
                                      /*alignment=*/8);
    }
    for (auto [index, argument] : llvm::enumerate(arguments)) {
      Value field =
          LLVM::GEPOp::create(builder, loc, pointer, structType, buffer,
                              ArrayRef<LLVM::GEPArg>{0, int32_t(index)});
      LLVM::StoreOp::create(builder, loc, argument, field);
    }
  }
  LLVM::CallOp::create(builder, loc, getVprintf(),
                       ValueRange{formatString(format), buffer});
  return success();
}

} // namespace

void tilec::populatePrintLowerings(LoweringSet &set) {
  set.add<tile::PrintOp>(
      [](KernelLowering &lowering, tile::PrintOp print, Lane &lane) {
        return PrintLowering(lowering, print, lane).emit();
      });
}
