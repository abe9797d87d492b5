//===- MmaSync.cpp - Tensor-core GEMMs with ldmatrix and mma.sync ---------===//
//
// The lowering of `tile.gemm` on the mma.sync path (sm_80 and newer): C is
// a fragment in the `#tile.mma<warps_m, warps_n>` layout, A and B are shared
// tiles of f16 or bf16, or A is a fragment in C's layout with whole rows per
// warp (FlashAttention's P·V: its accumulator registers are the A operand).
// Each warp computes its warp tile of C: for every 16-wide k step it loads its
// A fragments (16 x 16, `ldmatrix.x4`) and B fragments (16 x 16 = two n8 tiles,
// `ldmatrix.x4`; `.x2` for a last single one) from shared memory, `.trans`
// where the operand is stored with M or N contiguous, and issues one
// `mma.sync.aligned.m16n8k16` per 16 x 8 accumulator tile. The register and
// address recipes are those of
// ../shared/design/TENSORCORES.md §1-§2.
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/TensorCoreGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tilec;

namespace {

/// Packs two 16-bit values into the vector<2 x type> of an mma.sync
/// register.
Value packPair(OpBuilder &builder, Location loc, Value low, Value high) {
  Type pairType = VectorType::get({2}, low.getType());
  Value pair = LLVM::PoisonOp::create(builder, loc, pairType);
  Value halves[] = {low, high};
  for (auto [position, value] : llvm::enumerate(halves))
    pair = LLVM::InsertElementOp::create(
        builder, loc, pair, value,
        LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                 int64_t(position)));
  return pair;
}

/// The lane-dependent values every fragment address is made of.
struct WarpPosition {
  /// The warp's row and column in the `#tile.mma` warp grid.
  Value warpRow, warpColumn;
  /// The lane (0..31).
  Value lane;
};

/// Emits the GEMMs of one kernel.
class MmaSyncLowering {
public:
  MmaSyncLowering(KernelLowering &lowering, tile::GemmOp gemm)
      : lowering(lowering), builder(lowering.getBuilder()), gemm(gemm),
        loc(gemm.getLoc()) {}

  LogicalResult emit();

private:
  Value constant(int64_t value) { return lowering.indexConstant(loc, value); }
  Value mul(Value a, int64_t b) {
    return arith::MulIOp::create(builder, loc, a, constant(b));
  }
  Value add(Value a, Value b) {
    return arith::AddIOp::create(builder, loc, a, b);
  }
  Value add(Value a, int64_t b) { return add(a, constant(b)); }
  /// `(lane >> shift) & mask`.
  Value laneBits(unsigned shift, int64_t mask);

  /// Loads `count` (2 or 4) 8x8 matrices with ldmatrix from the row
  /// addresses `&buffer[row][column]` of the lanes; returns the i32
  /// registers.
  SmallVector<Value> loadMatrices(const SharedBuffer &buffer, Value row,
                                  Value column, int64_t count, bool transpose);
  /// The A registers (4 x i32) of the 16 x 16 tile at rows `rowBase`, k
  /// columns `kBase`.
  SmallVector<Value> loadA(const SharedBuffer &a, Value rowBase, int64_t kBase);
  /// The B registers of `count` (1 or 2) n8 tiles at columns `columnBase`,
  /// k rows `kBase`: 2 x i32 per tile.
  SmallVector<Value> loadB(const SharedBuffer &b, Value columnBase,
                           int64_t kBase, int64_t count);

  KernelLowering &lowering;
  OpBuilder &builder;
  tile::GemmOp gemm;
  Location loc;
  WarpPosition position;
};

Value MmaSyncLowering::laneBits(unsigned shift, int64_t mask) {
  Value shifted = position.lane;
  if (shift)
    shifted = arith::ShRUIOp::create(builder, loc, shifted, constant(shift));
  return arith::AndIOp::create(builder, loc, shifted, constant(mask));
}

SmallVector<Value> MmaSyncLowering::loadMatrices(const SharedBuffer &buffer,
                                                 Value row, Value column,
                                                 int64_t count,
                                                 bool transpose) {
  MLIRContext *context = builder.getContext();
  Value pointer = lowering.sharedElementPointer(loc, buffer, {row, column});
  Type i32 = builder.getI32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(context, SmallVector<Type>(count, i32));
  Value loaded = NVVM::LdMatrixOp::create(
      builder, loc, resultType, pointer, count,
      transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(context, 8, 8),
      NVVM::LdStMatrixEltType::B16);
  SmallVector<Value> registers;
  for (int64_t i = 0; i < count; ++i)
    registers.push_back(LLVM::ExtractValueOp::create(builder, loc, loaded, i));
  return registers;
}

SmallVector<Value> MmaSyncLowering::loadA(const SharedBuffer &a, Value rowBase,
                                          int64_t kBase) {
  // Registers a0a1, a2a3, a4a5, a6a7 = matrices (m 0-7, k 0-7),
  // (m 8-15, k 0-7), (m 0-7, k 8-15), (m 8-15, k 8-15); lane l gives row
  // l & 7 of matrix l >> 3.
  if (!gemm.getTransposeA()) {
    // A is M x K, K contiguous: lane l points at m = l & 15, k = 8 (l >> 4).
    Value row = add(rowBase, laneBits(0, 15));
    Value column = add(mul(laneBits(4, 1), 8), kBase);
    return loadMatrices(a, row, column, 4, /*transpose=*/false);
  }
  // A is stored K x M, M contiguous: matrix j holds k rows 8 (j >> 1) and
  // m columns 8 (j & 1), transposed on the way.
  Value row = add(add(laneBits(0, 7), mul(laneBits(4, 1), 8)), kBase);
  Value column = add(rowBase, mul(laneBits(3, 1), 8));
  return loadMatrices(a, row, column, 4, /*transpose=*/true);
}

SmallVector<Value> MmaSyncLowering::loadB(const SharedBuffer &b,
                                          Value columnBase, int64_t kBase,
                                          int64_t count) {
  // Per n8 tile, b0b1 = k 0-7 and b2b3 = k 8-15; matrix j = l >> 3 is
  // (k half j & 1) of tile j >> 1.
  Value kHalf = mul(laneBits(3, 1), 8);
  Value tile = count == 2 ? mul(laneBits(4, 1), 8) : constant(0);
  if (!gemm.getTransposeB()) {
    // B is K x N, N contiguous: rows are k, transposed on the way.
    Value row = add(add(laneBits(0, 7), kHalf), kBase);
    Value column = add(columnBase, tile);
    return loadMatrices(b, row, column, 2 * count, /*transpose=*/true);
  }
  // B is stored N x K, K contiguous: rows are n.
  Value row = add(add(columnBase, tile), laneBits(0, 7));
  Value column = add(kHalf, kBase);
  return loadMatrices(b, row, column, 2 * count, /*transpose=*/false);
}

LogicalResult MmaSyncLowering::emit() {
  const SharedBuffer *a = lowering.findShared(gemm.getA());
  const PrivateBuffer *aFragment = lowering.findPrivate(gemm.getA());
  const SharedBuffer *b = lowering.findShared(gemm.getB());
  const PrivateBuffer *c = lowering.findPrivate(gemm.getC());
  auto layout = c ? dyn_cast_or_null<tile::MmaLayoutAttr>(
                        static_cast<Attribute>(c->fragmentLayout))
                  : tile::MmaLayoutAttr();
  // A in registers: laid out as C, whole rows per warp (GemmRule.cpp).
  bool aInRegisters = aFragment && aFragment->fragmentLayout == layout &&
                      layout && layout.getWarpsN() == 1;
  if ((!a && !aInRegisters) || !b || !layout || layout.getWarpgroup())
    return gemm.emitOpError("needs A (shared, or a fragment laid out as the "
                            "accumulator with whole rows per warp), shared B "
                            "and a #tile.mma accumulator of the mma.sync "
                            "path; run -tile-infer-layouts first");
  auto cType = cast<tile::BufferType>(gemm.getC().getType());
  FailureOr<tile::MmaTiling> tiling = layout.getTiling(cType.getShape());
  if (failed(tiling) ||
      lowering.getThreads() != 32 * layout.getWarpsM() * layout.getWarpsN())
    return gemm.emitOpError("accumulator layout ")
           << layout << " does not fit the [" << cType.getDimSize(0) << ", "
           << cType.getDimSize(1) << "] tile over " << lowering.getThreads()
           << " threads";

  std::tie(position.warpRow, position.warpColumn) =
      lowering.warpGridPosition(loc, *tiling);
  position.lane = arith::RemUIOp::create(
      builder, loc, lowering.getThreadIndex(), constant(32));
  Value warpRowBase = mul(position.warpRow, tiling->warpTileM);
  Value warpColumnBase = mul(position.warpColumn, tiling->warpTileN);

  MLIRContext *context = builder.getContext();
  Type input = aInRegisters ? aFragment->elementType : a->elementType;
  bool f16Accumulator = c->elementType.isF16();
  Type f16x2 = VectorType::get({2}, builder.getF16Type());
  NVVM::MMATypes inputType =
      input.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  Type resultType =
      f16Accumulator ? LLVM::LLVMStructType::getLiteral(context, {f16x2, f16x2})
                     : LLVM::LLVMStructType::getLiteral(
                           context, SmallVector<Type>(4, builder.getF32Type()));
  // mma.sync takes f16 pairs as vector<2xf16> and bf16 pairs as i32.
  auto operand = [&](Value registers) -> Value {
    if (input.isBF16())
      return registers;
    return LLVM::BitcastOp::create(builder, loc, f16x2, registers);
  };

  if (gemm.getClear())
    for (int64_t reg = 0; reg < tiling->elementsPerThread(); ++reg)
      lowering.storeFragmentRegister(loc, *c, reg,
                                     lowering.zeroOf(loc, c->elementType));

  int64_t kExtent = cast<tile::BufferType>(gemm.getA().getType())
                        .getDimSize(gemm.getTransposeA() ? 0 : 1);
  int64_t mTiles = tiling->mTiles(), nTiles = tiling->nTiles();
  for (int64_t k = 0; k < kExtent; k += 16) {
    SmallVector<SmallVector<Value>> aRegisters;
    for (int64_t m = 0; m < mTiles; ++m)
      aRegisters.push_back(
          aInRegisters ? packAccumulatorOperandA(lowering, loc, *aFragment, m,
                                                 kExtent / 8, k)
                       : loadA(*a, add(warpRowBase, 16 * m), k));
    SmallVector<SmallVector<Value>> bRegisters;
    for (int64_t n = 0; n < nTiles; n += 2) {
      int64_t count = std::min<int64_t>(2, nTiles - n);
      SmallVector<Value> loaded =
          loadB(*b, add(warpColumnBase, 8 * n), k, count);
      for (int64_t t = 0; t < count; ++t)
        bRegisters.push_back({loaded[2 * t], loaded[2 * t + 1]});
    }
    for (int64_t m = 0; m < mTiles; ++m) {
      for (int64_t n = 0; n < nTiles; ++n) {
        int64_t first = (m * nTiles + n) * 4;
        SmallVector<Value> accumulator;
        for (int64_t i = 0; i < 4; ++i)
          accumulator.push_back(
              lowering.loadFragmentRegister(loc, *c, first + i));
        SmallVector<Value> cOperands = accumulator;
        if (f16Accumulator)
          cOperands = {packPair(builder, loc, accumulator[0], accumulator[1]),
                       packPair(builder, loc, accumulator[2], accumulator[3])};
        SmallVector<Value> aOperands, bOperands;
        for (Value reg : aRegisters[m])
          aOperands.push_back(operand(reg));
        for (Value reg : bRegisters[n])
          bOperands.push_back(operand(reg));
        Value product = NVVM::MmaOp::create(
            builder, loc, resultType, aOperands, bOperands, cOperands,
            /*shape=*/{16, 8, 16}, /*b1Op=*/std::nullopt,
            /*intOverflow=*/std::nullopt,
            std::array<NVVM::MMATypes, 2>{inputType, inputType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                           NVVM::MMALayout::col});
        SmallVector<Value> results;
        if (f16Accumulator) {
          for (int64_t half = 0; half < 2; ++half) {
            Value pair =
                LLVM::ExtractValueOp::create(builder, loc, product, half);
            for (int64_t lane = 0; lane < 2; ++lane)
              results.push_back(LLVM::ExtractElementOp::create(
                  builder, loc, pair,
                  LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                           lane)));
          }
        } else {
          for (int64_t i = 0; i < 4; ++i)
            results.push_back(
                LLVM::ExtractValueOp::create(builder, loc, product, i));
        }
        for (int64_t i = 0; i < 4; ++i)
          lowering.storeFragmentRegister(loc, *c, first + i, results[i]);
      }
    }
  }
  return success();
}

} // namespace

SmallVector<Value> tilec::packAccumulatorOperandA(KernelLowering &lowering,
                                                  Location loc,
                                                  const PrivateBuffer &a,
                                                  int64_t m, int64_t nTiles,
                                                  int64_t kBase) {
  OpBuilder &builder = lowering.getBuilder();
  SmallVector<Value> registers;
  Type i32 = builder.getI32Type();
  for (int64_t half = 0; half < 2; ++half) {
    int64_t first = (m * nTiles + kBase / 8 + half) * 4;
    for (int64_t row = 0; row < 2; ++row) {
      Value low = lowering.loadFragmentRegister(loc, a, first + 2 * row);
      Value high = lowering.loadFragmentRegister(loc, a, first + 2 * row + 1);
      registers.push_back(LLVM::BitcastOp::create(
          builder, loc, i32, packPair(builder, loc, low, high)));
    }
  }
  return registers;
}

LogicalResult tilec::emitMmaSyncGemm(KernelLowering &lowering,
                                     tile::GemmOp gemm) {
  return MmaSyncLowering(lowering, gemm).emit();
}
