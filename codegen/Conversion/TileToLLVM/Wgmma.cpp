//===- Wgmma.cpp - Tensor-core GEMMs with wgmma.mma_async (sm_90a) --------===//
//
// The lowering of `tile.gemm` on the wgmma path: C is a fragment in the
// `#tile.mma<warps_m, warps_n, warpgroup = true>` layout, A and B are
// shared tiles of f16 or bf16 in a swizzled layout that a wgmma matrix
// descriptor describes (SS form), or A is an f16 or bf16 fragment laid out
// as C with whole rows per warpgroup, whose registers are the A operand
// (RS form: FlashAttention's P·V; packed as mma.sync's A). Warpgroup g = warp /
// 4 owns rows `64 * (g % (warps_m / 4)) + 16 * warps_m * m` (m < its
// accumulator tiles) and columns `N / warps_n * (g / (warps_m / 4))` of C; for
// every 16-wide k step it issues one `wgmma.mma_async.m64nNk16` per 64-row
// block, whose descriptors point at the block's rows of A and the warpgroup's
// columns of B. The GEMM is one commit group: `wgmma.fence` (the accumulator
// registers may have been written by other instructions; the fence takes them,
// so that LLVM keeps those writes above it), the wgmmas, `commit_group` and
// `wait_group 0`, so that the registers hold the result, and the operand stages
// may be refilled, when the op ends; an `async` GEMM waits with `wait_group 1`,
// for the previous one only (tile-pipeline-loops delays the refill of its stage
// by one iteration and ends the loop with a synchronous GEMM). Facts and
// formulas:
// ../shared/design/TENSORCORES.md §5.
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/TensorCoreGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tilec;

namespace {

/// Where the instruction of pinThroughInstruction goes among its
/// statements.
enum class PinnedInstruction {
  /// In the first statement: every register is used below it (a wait).
  First,
  /// In the last statement: every register is defined above it (a fence).
  Last,
};

/// Emits volatile inline-asm statements that take `values` (f32
/// accumulator registers, i32 A registers) and give them back, tied, up to
/// 32 registers each, one of them with `instruction` (`where`: the others
/// are empty, and volatile statements keep their order). The statements are
/// then what defines the values for LLVM, which can move no other
/// definition or use of them across the instruction. Returns the values the
/// statements give back.
SmallVector<Value> pinThroughInstruction(OpBuilder &builder, Location loc,
                                         ValueRange values,
                                         const char *instruction,
                                         PinnedInstruction where) {
  constexpr size_t kChunk = 32;
  SmallVector<Value> pinned;
  for (size_t first = 0; first < values.size(); first += kChunk) {
    ValueRange chunk =
        values.slice(first, std::min(kChunk, values.size() - first));
    bool carries = where == PinnedInstruction::First
                       ? first == 0
                       : first + kChunk >= values.size();
    std::string constraints;
    for (auto [i, value] : llvm::enumerate(chunk))
      constraints +=
          std::string(i ? "," : "") + (value.getType().isF32() ? "=f" : "=r");
    for (size_t i = 0; i < chunk.size(); ++i)
      constraints += "," + std::to_string(i);
    auto type = LLVM::LLVMStructType::getLiteral(
        builder.getContext(), llvm::to_vector(chunk.getTypes()));
    auto asmOp = LLVM::InlineAsmOp::create(
        builder, loc, type, chunk, carries ? instruction : "", constraints,
        /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
        /*operand_attrs=*/nullptr);
    for (size_t i = 0; i < chunk.size(); ++i)
      pinned.push_back(
          LLVM::ExtractValueOp::create(builder, loc, asmOp.getResult(0), i));
  }
  return pinned;
}

/// Emits `wgmma.wait_group 0` through the accumulator registers `values`
/// (pinThroughInstruction): LLVM cannot move a use of the results above the
/// wait, and ptxas sees no other instruction touch the accumulators before
/// it. Without it LLVM may move, say, the epilogue's conversions above the
/// wait, and ptxas then serializes every wgmma (C7514/C7515;
/// ../shared/design/TENSORCORES.md §10, pitfall 7). Returns the waited-for
/// values.
SmallVector<Value> waitAllAndPin(OpBuilder &builder, Location loc,
                                 ValueRange values) {
  return pinThroughInstruction(builder, loc, values,
                               "wgmma.wait_group.sync.aligned 0;",
                               PinnedInstruction::First);
}

/// Emits `wgmma.fence` through the accumulator and A registers `values`
/// (pinThroughInstruction), so that every instruction that defines them
/// (the zeros of a `clear`, the copies LLVM makes where control flow
/// merges) stays above the fence. Left to itself LLVM sinks those copies
/// between the fence and the wgmma that reads them; ptxas then injects a
/// warpgroup arrive of its own there (C7519), and where that lands in a
/// branch it serializes every wgmma of the kernel (C7520). One fence (one
/// warpgroup arrive in the SASS) per GEMM. Returns the fenced values.
SmallVector<Value> fenceAndPin(OpBuilder &builder, Location loc,
                               ValueRange values) {
  return pinThroughInstruction(builder, loc, values,
                               "wgmma.fence.sync.aligned;",
                               PinnedInstruction::Last);
}

/// A shared operand of a wgmma GEMM and how its descriptors are made.
struct WgmmaOperand {
  const SharedBuffer *buffer = nullptr;
  /// The descriptor without its start address.
  uint64_t descriptorBits = 0;
  /// True if the operand is stored with K contiguous (K-major).
  bool contiguousIsK = false;
};

/// Emits the GEMMs of one kernel on the wgmma path.
class WgmmaLowering {
public:
  WgmmaLowering(KernelLowering &lowering, tile::GemmOp gemm)
      : lowering(lowering), builder(lowering.getBuilder()), gemm(gemm),
        loc(gemm.getLoc()) {}

  LogicalResult emit();

private:
  Value constant(int64_t value) { return lowering.indexConstant(loc, value); }
  /// Emits the RS form, `wgmma.mma_async.m64nNk16` with A from the four i32
  /// `aRegisters`, on the `accumulator` struct, as the inline PTX that
  /// NVVM's SS op lowers to (whose operands tile-host-run reads the same
  /// way): `{d..}, {a0..a3}, descB, p, sA, sB, tB`.
  Value emitRegisterA(Value accumulator, ArrayRef<Value> aRegisters,
                      Value descriptorB, int64_t n, bool bf16, bool transposeB);
  /// Describes `value` (a shared tile of the GEMM stored K-major if
  /// `contiguousIsK`) or reports why no descriptor can.
  FailureOr<WgmmaOperand> describe(Value value, bool contiguousIsK);
  /// The descriptor of `operand` whose matrix starts at element (`row`,
  /// `column`) of the tile: the start address `(address & 0x3FFFF) >> 4`
  /// in bits 0-13 and the fixed fields above.
  Value descriptor(const WgmmaOperand &operand, Value row, Value column);

  KernelLowering &lowering;
  OpBuilder &builder;
  tile::GemmOp gemm;
  Location loc;
};

FailureOr<WgmmaOperand> WgmmaLowering::describe(Value value,
                                                bool contiguousIsK) {
  WgmmaOperand operand;
  operand.buffer = lowering.findShared(value);
  operand.contiguousIsK = contiguousIsK;
  const SharedBuffer *buffer = operand.buffer;
  auto layout = buffer
                    ? dyn_cast_or_null<tile::SwizzledLayoutAttr>(buffer->layout)
                    : tile::SwizzledLayoutAttr();
  std::optional<tile::WgmmaOperandLayout> described;
  if (layout && buffer->shape.size() == 2)
    described = layout.describeForWgmma(
        buffer->shape[0], buffer->shape[1],
        buffer->elementType.getIntOrFloatBitWidth() / 8, contiguousIsK);
  if (!described)
    return gemm.emitOpError("operand ")
           << value << " is not a shared tile in a layout that a wgmma "
           << "descriptor describes; run -tile-infer-layouts first";
  operand.descriptorBits = described->descriptorBits();
  return operand;
}

Value WgmmaLowering::descriptor(const WgmmaOperand &operand, Value row,
                                Value column) {
  Type i64 = builder.getI64Type();
  Value pointer =
      lowering.sharedElementPointer(loc, *operand.buffer, {row, column});
  Value address = LLVM::PtrToIntOp::create(builder, loc, i64, pointer);
  auto i64Constant = [&](uint64_t value) {
    return LLVM::ConstantOp::create(builder, loc, i64,
                                    builder.getI64IntegerAttr(value));
  };
  Value start = LLVM::LShrOp::create(
      builder, loc,
      LLVM::AndOp::create(builder, loc, address, i64Constant(0x3FFFF)),
      i64Constant(4));
  return LLVM::OrOp::create(builder, loc, start,
                            i64Constant(operand.descriptorBits));
}

Value WgmmaLowering::emitRegisterA(Value accumulator,
                                   ArrayRef<Value> aRegisters,
                                   Value descriptorB, int64_t n, bool bf16,
                                   bool transposeB) {
  auto type = cast<LLVM::LLVMStructType>(accumulator.getType());
  int64_t count = type.getBody().size();
  SmallVector<Value> operands;
  for (int64_t i = 0; i < count; ++i)
    operands.push_back(
        LLVM::ExtractValueOp::create(builder, loc, accumulator, i));
  llvm::append_range(operands, aRegisters);
  operands.push_back(descriptorB);
  auto i32Constant = [&](int32_t value) {
    return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                    builder.getI32IntegerAttr(value));
  };
  // Scale-d 1 (accumulate), A and B not negated, B transposed or not.
  for (int32_t flag : {1, 1, 1, transposeB ? 1 : 0})
    operands.push_back(i32Constant(flag));
  std::string list, constraints;
  for (int64_t i = 0; i < count; ++i) {
    list += (i ? ", $" : "$") + std::to_string(i);
    constraints += i ? ",=f" : "=f";
  }
  for (int64_t i = 0; i < count; ++i)
    constraints += "," + std::to_string(i);
  constraints += ",r,r,r,r,l,n,n,n,n";
  auto operand = [&](int64_t index) {
    return "$" + std::to_string(2 * count + index);
  };
  const char *input = bf16 ? "bf16" : "f16";
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, " + operand(5) +
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
                     std::to_string(n) + "k16.f32." + input + "." + input +
                     " {" + list + "}, {" + operand(0) + ", " + operand(1) +
                     ", " + operand(2) + ", " + operand(3) + "}, " +
                     operand(4) + ", p, " + operand(6) + ", " + operand(7) +
                     ", " + operand(8) + ";\n}\n";
  return LLVM::InlineAsmOp::create(
             builder, loc, type, operands, text, constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
             /*operand_attrs=*/nullptr)
      .getResult(0);
}

LogicalResult WgmmaLowering::emit() {
  const PrivateBuffer *c = lowering.findPrivate(gemm.getC());
  auto layout = c ? dyn_cast_or_null<tile::MmaLayoutAttr>(
                        static_cast<Attribute>(c->fragmentLayout))
                  : tile::MmaLayoutAttr();
  if (!layout || !layout.getWarpgroup() || !c->elementType.isF32())
    return gemm.emitOpError("needs an f32 accumulator in a warpgroup "
                            "#tile.mma layout; run -tile-infer-layouts first");
  auto cType = cast<tile::BufferType>(gemm.getC().getType());
  FailureOr<tile::MmaTiling> tiling = layout.getTiling(cType.getShape());
  if (failed(tiling) ||
      lowering.getThreads() != 32 * layout.getWarpsM() * layout.getWarpsN())
    return gemm.emitOpError("accumulator layout ")
           << layout << " does not fit the [" << cType.getDimSize(0) << ", "
           << cType.getDimSize(1) << "] tile over " << lowering.getThreads()
           << " threads";
  // A is K-major unless transposed; B (K x N) is K-major when transposed.
  // A fragment (RS) is laid out as the accumulator, whole rows per
  // warpgroup (GemmRule.cpp).
  const PrivateBuffer *aFragment = lowering.findPrivate(gemm.getA());
  if (aFragment &&
      (aFragment->fragmentLayout != c->fragmentLayout ||
       layout.getWarpsN() != 1 || gemm.getTransposeA() ||
       !(aFragment->elementType.isF16() || aFragment->elementType.isBF16())))
    return gemm.emitOpError("with A in registers needs an f16 or bf16 A laid "
                            "out as the accumulator with whole rows per "
                            "warpgroup; run -tile-infer-layouts first");
  FailureOr<WgmmaOperand> a =
      aFragment ? FailureOr<WgmmaOperand>(WgmmaOperand())
                : describe(gemm.getA(), !gemm.getTransposeA());
  FailureOr<WgmmaOperand> b = describe(gemm.getB(), gemm.getTransposeB());
  if (failed(a) || failed(b))
    return failure();
  auto aType = cast<tile::BufferType>(gemm.getA().getType());
  int64_t kExtent = aType.getDimSize(gemm.getTransposeA() ? 0 : 1);

  // The warpgroup's first row and column (MmaTiling, warpgroup order).
  auto [warpRow, warpColumn] = lowering.warpGridPosition(loc, *tiling);
  Value groupRowBase = arith::MulIOp::create(
      builder, loc, arith::DivUIOp::create(builder, loc, warpRow, constant(4)),
      constant(64));
  Value columnBase = arith::MulIOp::create(builder, loc, warpColumn,
                                           constant(tiling->warpTileN));

  MLIRContext *context = builder.getContext();
  int64_t n = tiling->warpTileN, mTiles = tiling->mTiles();
  int64_t registersPerTile = n / 2;
  Type f32 = builder.getF32Type();
  auto accumulatorType = LLVM::LLVMStructType::getLiteral(
      context, SmallVector<Type>(registersPerTile, f32));
  SmallVector<Value> inputs;
  for (int64_t reg = 0; reg < mTiles * registersPerTile; ++reg)
    inputs.push_back(gemm.getClear()
                         ? lowering.zeroOf(loc, f32)
                         : lowering.loadFragmentRegister(loc, *c, reg));
  // RS: A's registers of every k step and 64-row block, fenced with the
  // accumulators (they were written by other instructions: P = cast(S)).
  int64_t accumulatorCount = inputs.size();
  if (aFragment)
    for (int64_t k = 0; k < kExtent; k += 16)
      for (int64_t m = 0; m < mTiles; ++m)
        llvm::append_range(inputs,
                           packAccumulatorOperandA(lowering, loc, *aFragment, m,
                                                   kExtent / 8, k));
  inputs = fenceAndPin(builder, loc, inputs);
  SmallVector<Value> aRegisters(inputs.begin() + accumulatorCount,
                                inputs.end());
  inputs.resize(accumulatorCount);
  SmallVector<Value> accumulators;
  for (int64_t m = 0; m < mTiles; ++m) {
    Value accumulator = LLVM::PoisonOp::create(builder, loc, accumulatorType);
    for (int64_t i = 0; i < registersPerTile; ++i)
      accumulator = LLVM::InsertValueOp::create(
          builder, loc, accumulator, inputs[m * registersPerTile + i], i);
    accumulators.push_back(accumulator);
  }

  bool bf16 = aType.getElementType().isBF16();
  NVVM::WGMMATypes inputType =
      bf16 ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  auto typeAttr = [&](NVVM::WGMMATypes type) {
    return NVVM::WGMMATypesAttr::get(context, type);
  };
  auto one = NVVM::WGMMAScaleInAttr::get(context, NVVM::WGMMAScaleIn::one);
  // Operand layouts: A row = K-major, col = M-major; B col = K-major,
  // row = N-major.
  auto layoutA = NVVM::MMALayoutAttr::get(context, aFragment || a->contiguousIsK
                                                       ? NVVM::MMALayout::row
                                                       : NVVM::MMALayout::col);
  auto layoutB = NVVM::MMALayoutAttr::get(
      context, b->contiguousIsK ? NVVM::MMALayout::col : NVVM::MMALayout::row);
  auto shape = NVVM::MMAShapeAttr::get(context, 64, n, 16);

  for (int64_t k = 0; k < kExtent; k += 16) {
    Value kValue = constant(k);
    Value descriptorB = b->contiguousIsK ? descriptor(*b, columnBase, kValue)
                                         : descriptor(*b, kValue, columnBase);
    for (int64_t m = 0; m < mTiles; ++m) {
      if (aFragment) {
        int64_t first = 4 * (k / 16 * mTiles + m);
        accumulators[m] =
            emitRegisterA(accumulators[m], ArrayRef(aRegisters).slice(first, 4),
                          descriptorB, n, bf16, !b->contiguousIsK);
        continue;
      }
      Value row = arith::AddIOp::create(builder, loc, groupRowBase,
                                        constant(16 * tiling->warpsM * m));
      Value descriptorA = a->contiguousIsK ? descriptor(*a, row, kValue)
                                           : descriptor(*a, kValue, row);
      accumulators[m] = NVVM::WgmmaMmaAsyncOp::create(
          builder, loc, accumulatorType, accumulators[m], descriptorA,
          descriptorB, shape, typeAttr(inputType), typeAttr(inputType),
          typeAttr(NVVM::WGMMATypes::f32),
          NVVM::WGMMAScaleOutAttr::get(context, NVVM::WGMMAScaleOut::one), one,
          one, layoutA, layoutB, /*satfinite=*/nullptr);
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(builder, loc);
  SmallVector<Value> results;
  for (int64_t m = 0; m < mTiles; ++m)
    for (int64_t i = 0; i < registersPerTile; ++i)
      results.push_back(
          LLVM::ExtractValueOp::create(builder, loc, accumulators[m], i));
  // An async GEMM waits only for the previous batch (its results stay in
  // flight until a later synchronous GEMM waits for everything).
  if (gemm.getAsync())
    NVVM::WgmmaWaitGroupSyncOp::create(builder, loc, 1);
  else
    results = waitAllAndPin(builder, loc, results);
  for (auto [reg, value] : llvm::enumerate(results))
    lowering.storeFragmentRegister(loc, *c, reg, value);
  return success();
}

} // namespace

LogicalResult tilec::emitWgmmaGemm(KernelLowering &lowering,
                                   tile::GemmOp gemm) {
  return WgmmaLowering(lowering, gemm).emit();
}
