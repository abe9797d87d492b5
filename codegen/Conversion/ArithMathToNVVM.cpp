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
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
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

/// The correctly rounded f32 square root wins over libdevice's, which
/// NVVMReflect (knowing no __CUDA_PREC_SQRT) would make `sqrt.approx`.
constexpr unsigned kExactSqrtBenefit = kLibdeviceBenefit + 1;
/// Fast-math lowerings win over both.
constexpr unsigned kFastMathBenefit = kExactSqrtBenefit + 1;

/// Calls the f32 NVVM intrinsic `intrinsic` on `value`.
Value callF32Intrinsic(OpBuilder &builder, Location loc, StringRef intrinsic,
                       Value value) {
  return LLVM::CallIntrinsicOp::create(builder, loc, builder.getF32Type(),
                                       builder.getStringAttr(intrinsic),
                                       ValueRange{value})
      .getResult(0);
}

/// Multiplies `value` by the f32 constant `factor`.
Value scaleF32(OpBuilder &builder, Location loc, Value value, double factor) {
  Value constant = LLVM::ConstantOp::create(builder, loc, builder.getF32Type(),
                                            builder.getF32FloatAttr(factor));
  return LLVM::FMulOp::create(builder, loc, value, constant);
}

/// Returns `value * factor`; a difference `a - b` becomes
/// `fma(a, factor, -(b * factor))`, one instruction per element where `b`
/// is the same for many (softmax's `exp(x - max)` as `ex2(x * log2(e) -
/// max * log2(e))`, the product of the maximum computed once per row).
Value scaleDifferenceF32(OpBuilder &builder, Location loc, Value value,
                         double factor) {
  Value lhs, rhs;
  if (auto sub = value.getDefiningOp<LLVM::FSubOp>()) {
    lhs = sub.getLhs();
    rhs = sub.getRhs();
  } else if (auto sub = value.getDefiningOp<arith::SubFOp>()) {
    lhs = sub.getLhs();
    rhs = sub.getRhs();
  }
  if (!lhs || !lhs.getType().isF32() || !rhs.getType().isF32())
    return scaleF32(builder, loc, value, factor);
  Value constant = LLVM::ConstantOp::create(builder, loc, builder.getF32Type(),
                                            builder.getF32FloatAttr(factor));
  Value scaledRhs = LLVM::FNegOp::create(
      builder, loc, LLVM::FMulOp::create(builder, loc, rhs, constant));
  return LLVM::FMAOp::create(builder, loc, lhs, constant, scaledRhs);
}

/// A lowering of `SourceOp` on f32 alone (other types fall through to the
/// patterns of lower benefit): `lowerF32` builds the replacement value.
template <typename SourceOp>
struct F32Lowering : public ConvertOpToLLVMPattern<SourceOp> {
  using OpAdaptor = typename SourceOp::Adaptor;

  F32Lowering(const LLVMTypeConverter &converter, unsigned benefit)
      : ConvertOpToLLVMPattern<SourceOp>(converter, benefit) {}

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    rewriter.replaceOp(op, lowerF32(op.getLoc(), adaptor, rewriter));
    return success();
  }

  /// The f32 value that replaces the op, built from its converted operands.
  virtual Value lowerF32(Location loc, OpAdaptor adaptor,
                         OpBuilder &builder) const = 0;
};

/// Lowers an f32 unary math op to a PTX approximation:
/// `post * intrinsic(pre * x)` (a factor of 1 is left out).
template <typename MathOp>
struct ApproximateUnaryOp : public F32Lowering<MathOp> {
  using OpAdaptor = typename F32Lowering<MathOp>::OpAdaptor;

  ApproximateUnaryOp(const LLVMTypeConverter &converter, StringRef intrinsic,
                     double preScale = 1.0, double postScale = 1.0)
      : F32Lowering<MathOp>(converter, kFastMathBenefit), intrinsic(intrinsic),
        preScale(preScale), postScale(postScale) {}

  Value lowerF32(Location loc, OpAdaptor adaptor,
                 OpBuilder &builder) const override {
    Value value = adaptor.getOperand();
    if (preScale != 1.0)
      value = scaleDifferenceF32(builder, loc, value, preScale);
    value = callF32Intrinsic(builder, loc, intrinsic, value);
    if (postScale != 1.0)
      value = scaleF32(builder, loc, value, postScale);
    return value;
  }

  std::string intrinsic;
  double preScale, postScale;
};

/// Lowers an f32 `arith.divf a, b` to `a * rcp.approx.ftz(b)`: one
/// reciprocal per divisor (CSE and LICM share it among divisions by the same
/// value) instead of a correctly rounded division per element.
struct ApproximateDivision : public F32Lowering<arith::DivFOp> {
  ApproximateDivision(const LLVMTypeConverter &converter)
      : F32Lowering(converter, kFastMathBenefit) {}

  Value lowerF32(Location loc, OpAdaptor adaptor,
                 OpBuilder &builder) const override {
    Value reciprocal = callF32Intrinsic(
        builder, loc, "llvm.nvvm.rcp.approx.ftz.f", adaptor.getRhs());
    return LLVM::FMulOp::create(builder, loc, adaptor.getLhs(), reciprocal);
  }
};

/// Lowers an f32 `math.tanh` to PTX `tanh.approx.f32` (sm_75 and later), as
/// inline PTX: LLVM 22 has no NVVM intrinsic for it. Without side effects,
/// so CSE and dead-code elimination treat it as the pure function it is.
struct ApproximateTanh : public F32Lowering<math::TanhOp> {
  ApproximateTanh(const LLVMTypeConverter &converter)
      : F32Lowering(converter, kFastMathBenefit) {}

  Value lowerF32(Location loc, OpAdaptor adaptor,
                 OpBuilder &builder) const override {
    return LLVM::InlineAsmOp::create(
               builder, loc, builder.getF32Type(),
               ValueRange{adaptor.getOperand()}, "tanh.approx.f32 $0, $1;",
               "=f,f", /*has_side_effects=*/false, /*is_align_stack=*/false,
               LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
               /*operand_attrs=*/nullptr)
        .getResult(0);
  }
};

/// Lowers an f32 `math.sqrt` to `llvm.sqrt` (PTX `sqrt.rn.f32`).
struct CorrectlyRoundedSqrt : public F32Lowering<math::SqrtOp> {
  CorrectlyRoundedSqrt(const LLVMTypeConverter &converter)
      : F32Lowering(converter, kExactSqrtBenefit) {}

  Value lowerF32(Location loc, OpAdaptor adaptor,
                 OpBuilder &builder) const override {
    return LLVM::SqrtOp::create(builder, loc, adaptor.getOperand());
  }
};

/// Adds the fast-math lowerings of f32 math (the `fast-math` option).
void populateFastMathPatterns(const LLVMTypeConverter &converter,
                              RewritePatternSet &patterns) {
  constexpr double kLog2E = 1.4426950408889634;
  constexpr double kLn2 = 0.6931471805599453;
  patterns.add<ApproximateUnaryOp<math::ExpOp>>(
      converter, "llvm.nvvm.ex2.approx.ftz", kLog2E);
  patterns.add<ApproximateUnaryOp<math::Exp2Op>>(converter,
                                                 "llvm.nvvm.ex2.approx.ftz");
  patterns.add<ApproximateUnaryOp<math::LogOp>>(
      converter, "llvm.nvvm.lg2.approx.ftz.f", 1.0, kLn2);
  patterns.add<ApproximateUnaryOp<math::Log2Op>>(converter,
                                                 "llvm.nvvm.lg2.approx.ftz.f");
  patterns.add<ApproximateUnaryOp<math::SqrtOp>>(converter,
                                                 "llvm.nvvm.sqrt.approx.ftz.f");
  patterns.add<ApproximateUnaryOp<math::RsqrtOp>>(
      converter, "llvm.nvvm.rsqrt.approx.ftz.f");
  patterns.add<ApproximateUnaryOp<math::SinOp>>(converter,
                                                "llvm.nvvm.sin.approx.ftz.f");
  patterns.add<ApproximateUnaryOp<math::CosOp>>(converter,
                                                "llvm.nvvm.cos.approx.ftz.f");
  patterns.add<ApproximateTanh, ApproximateDivision>(converter);
}

struct ConvertArithMathToNVVM
    : public tilec::impl::TileConvertArithMathToNVVMBase<
          ConvertArithMathToNVVM> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LLVMTypeConverter converter(ctx, LowerToLLVMOptions(ctx));
    RewritePatternSet patterns(ctx);
    if (fastMath)
      populateFastMathPatterns(converter, patterns);
    patterns.add<CorrectlyRoundedSqrt>(converter);
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
