//===- ArithMathToNVVM.cpp - arith/math/cf/ub to LLVM and libdevice -------===//
//
// Implements `tile-convert-arith-math-to-nvvm` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tilec {
#define GEN_PASS_DEF_TILECONVERTARITHMATHTONVVM
#include "codegen/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {
/// Libdevice calls win over LLVM intrinsics where both apply: NVPTX cannot
/// select most transcendental intrinsics (llvm.exp, llvm.log, ...).
constexpr unsigned kLibdeviceBenefit = 10;

struct ConvertArithMathToNVVM
    : public tilec::impl::TileConvertArithMathToNVVMBase<
          ConvertArithMathToNVVM> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LLVMTypeConverter converter(ctx, LowerToLLVMOptions(ctx));
    RewritePatternSet patterns(ctx);
    populateLibDeviceConversionPatterns(converter, patterns, kLibdeviceBenefit);
    populateMathToLLVMConversionPatterns(converter, patterns);
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);

    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addLegalOp<ModuleOp>();
    if (failed(
            applyFullConversion(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
