//===- AccessAnalysis.cpp - Accesses of parallel loops --------------------===//

#include "passes/Analysis/AccessAnalysis.h"

#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace tilec;

int64_t tilec::storageBytes(Type elementType) {
  if (elementType.isInteger(1))
    return 1;
  return (elementType.getIntOrFloatBitWidth() + 7) / 8;
}

uint64_t tilec::sharedTileBytes(tile::BufferType type) {
  uint64_t bytes = storageBytes(type.getElementType());
  if (auto layout =
          dyn_cast_or_null<tile::SharedLayoutAttrInterface>(type.getLayout()))
    return llvm::SaturatingMultiply(
        bytes, uint64_t(layout.getBufferSize(type.getShape())));
  for (int64_t extent : type.getShape())
    bytes = llvm::SaturatingMultiply(bytes, uint64_t(extent));
  return bytes;
}

uint64_t tilec::alignedSharedBytes(tile::BufferType type) {
  return llvm::alignTo(sharedTileBytes(type), kSharedTileAlignment);
}

uint64_t
tilec::sharedArenaBound(Operation *root,
                        function_ref<uint64_t(tile::AllocSharedOp)> copies) {
  uint64_t arena = kSharedPatternAlignment;
  root->walk([&](tile::AllocSharedOp alloc) {
    arena += alignedSharedBytes(cast<tile::BufferType>(alloc.getType())) *
             (copies ? copies(alloc) : 1);
  });
  return arena;
}

int64_t tilec::tensorAlignment(BlockArgument tensor) {
  auto kernel = cast<tile::KernelOp>(tensor.getOwner()->getParentOp());
  if (auto alignment = kernel.getArgAttrOfType<IntegerAttr>(
          tensor.getArgNumber(),
          tile::TileDialect::AlignmentAttrHelper::getNameStr()))
    return alignment.getInt();
  return 16;
}

//===----------------------------------------------------------------------===//
// Divisibility
//===----------------------------------------------------------------------===//

namespace {
unsigned addTrailingZeros(unsigned a, unsigned b) {
  return std::min(a + b, kZeroTrailingZeros);
}

unsigned constantTrailingZeros(const APInt &value) {
  return value.isZero() ? kZeroTrailingZeros : value.countr_zero();
}

unsigned trailingZeros(Value value, llvm::DenseMap<Value, unsigned> &cache) {
  auto cached = cache.find(value);
  if (cached != cache.end())
    return cached->second;
  // Cycles are impossible (SSA dominance), but seed the cache so that a
  // malformed graph cannot recurse forever.
  cache[value] = 0;

  unsigned result = 0;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    result = constantTrailingZeros(constant);
  } else if (Operation *op = value.getDefiningOp()) {
    auto operandTz = [&](unsigned i) {
      return trailingZeros(op->getOperand(i), cache);
    };
    result =
        llvm::TypeSwitch<Operation *, unsigned>(op)
            .Case<arith::AddIOp, arith::SubIOp, arith::SelectOp, arith::MinSIOp,
                  arith::MinUIOp, arith::MaxSIOp, arith::MaxUIOp>(
                [&](Operation *op) {
                  unsigned first = isa<arith::SelectOp>(op) ? 1 : 0;
                  return std::min(operandTz(first), operandTz(first + 1));
                })
            .Case<arith::MulIOp>([&](Operation *) {
              return addTrailingZeros(operandTz(0), operandTz(1));
            })
            .Case<arith::ShLIOp>([&](arith::ShLIOp shift) -> unsigned {
              APInt amount;
              if (!matchPattern(shift.getRhs(), m_ConstantInt(&amount)) ||
                  amount.uge(kZeroTrailingZeros))
                return 0;
              return addTrailingZeros(operandTz(0), amount.getZExtValue());
            })
            .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                  arith::ExtUIOp, arith::TruncIOp>(
                [&](Operation *) { return operandTz(0); })
            .Default([](Operation *) { return 0u; });
  }
  cache[value] = result;
  return result;
}
} // namespace

unsigned tilec::knownTrailingZeros(Value value) {
  llvm::DenseMap<Value, unsigned> cache;
  return trailingZeros(value, cache);
}

//===----------------------------------------------------------------------===//
// Dependence on induction variables
//===----------------------------------------------------------------------===//

namespace {
/// Answers "may this value depend on `iv`?" with memoization. A null `iv`
/// asks about any induction variable of `loop`.
class DependenceQuery {
public:
  DependenceQuery(Operation *loop, BlockArgument iv) : loop(loop), iv(iv) {}

  bool depends(Value value) {
    auto cached = cache.find(value);
    if (cached != cache.end())
      return cached->second;
    cache[value] = false;
    bool result = compute(value);
    cache[value] = result;
    return result;
  }

private:
  bool compute(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (owner == loop)
        return !iv || arg == iv;
      // Arguments of regions nested in the loop (e.g. a serial loop's
      // counter) vary per iteration as far as this analysis knows.
      return loop->isProperAncestor(owner);
    }
    Operation *op = value.getDefiningOp();
    if (!loop->isProperAncestor(op))
      return false;
    return llvm::any_of(op->getOperands(),
                        [&](Value operand) { return depends(operand); });
  }

  Operation *loop;
  BlockArgument iv;
  llvm::DenseMap<Value, bool> cache;
};

/// Decomposes indices of one loop, with memoization.
class AffineDecomposer {
public:
  explicit AffineDecomposer(tile::ParallelOp loop)
      : loop(loop), anyIv(loop, BlockArgument()) {}

  std::optional<AffineIndex> decompose(Value value) {
    auto cached = cache.find(value);
    if (cached != cache.end())
      return cached->second;
    std::optional<AffineIndex> result = compute(value);
    cache[value] = result;
    return result;
  }

private:
  AffineIndex uniform(Value value) {
    AffineIndex index;
    index.coefficients.assign(loop.getExtents().size(), 0);
    index.uniformTrailingZeros = trailingZeros(value, tzCache);
    return index;
  }

  static bool isUniform(const AffineIndex &index) {
    return llvm::all_of(index.coefficients, [](int64_t c) { return c == 0; });
  }

  std::optional<AffineIndex> scale(AffineIndex index, const APInt &factor) {
    if (factor.isZero()) {
      index.coefficients.assign(index.coefficients.size(), 0);
      index.uniformTrailingZeros = kZeroTrailingZeros;
      return index;
    }
    int64_t f = factor.getSExtValue();
    for (int64_t &c : index.coefficients)
      if (llvm::MulOverflow(c, f, c))
        return std::nullopt;
    index.uniformTrailingZeros = addTrailingZeros(
        index.uniformTrailingZeros, constantTrailingZeros(factor));
    return index;
  }

  std::optional<AffineIndex> compute(Value value) {
    if (!anyIv.depends(value))
      return uniform(value);
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner()->getParentOp() != loop.getOperation())
        return std::nullopt;
      AffineIndex index;
      index.coefficients.assign(loop.getExtents().size(), 0);
      index.coefficients[arg.getArgNumber()] = 1;
      return index;
    }
    Operation *op = value.getDefiningOp();
    if (isa<arith::AddIOp, arith::SubIOp>(op)) {
      std::optional<AffineIndex> lhs = decompose(op->getOperand(0));
      std::optional<AffineIndex> rhs = decompose(op->getOperand(1));
      if (!lhs || !rhs)
        return std::nullopt;
      bool subtract = isa<arith::SubIOp>(op);
      for (auto [l, r] : llvm::zip(lhs->coefficients, rhs->coefficients))
        if (subtract ? llvm::SubOverflow(l, r, l) : llvm::AddOverflow(l, r, l))
          return std::nullopt;
      lhs->uniformTrailingZeros =
          std::min(lhs->uniformTrailingZeros, rhs->uniformTrailingZeros);
      return lhs;
    }
    if (auto mul = dyn_cast<arith::MulIOp>(op)) {
      APInt factor;
      if (matchPattern(mul.getRhs(), m_ConstantInt(&factor)))
        if (std::optional<AffineIndex> lhs = decompose(mul.getLhs()))
          return scale(*lhs, factor);
      if (matchPattern(mul.getLhs(), m_ConstantInt(&factor)))
        if (std::optional<AffineIndex> rhs = decompose(mul.getRhs()))
          return scale(*rhs, factor);
      return std::nullopt;
    }
    if (auto shift = dyn_cast<arith::ShLIOp>(op)) {
      APInt amount;
      if (!matchPattern(shift.getRhs(), m_ConstantInt(&amount)) ||
          amount.uge(62))
        return std::nullopt;
      if (std::optional<AffineIndex> lhs = decompose(shift.getLhs()))
        return scale(*lhs, APInt(64, 1) << amount.getZExtValue());
      return std::nullopt;
    }
    return std::nullopt;
  }

  tile::ParallelOp loop;
  DependenceQuery anyIv;
  llvm::DenseMap<Value, std::optional<AffineIndex>> cache;
  llvm::DenseMap<Value, unsigned> tzCache;
};

/// True if every op computing `value` inside `loop` is pure and region-free.
bool hasPureSlice(Value value, Operation *loop,
                  llvm::DenseMap<Value, bool> &cache) {
  auto cached = cache.find(value);
  if (cached != cache.end())
    return cached->second;
  cache[value] = true;
  bool result = true;
  if (Operation *op = value.getDefiningOp(); op && loop->isProperAncestor(op))
    result = isPure(op) && op->getNumRegions() == 0 &&
             llvm::all_of(op->getOperands(), [&](Value operand) {
               return hasPureSlice(operand, loop, cache);
             });
  cache[value] = result;
  return result;
}
} // namespace

std::optional<AffineIndex> tilec::decomposeIndex(Value index,
                                                 tile::ParallelOp loop) {
  return AffineDecomposer(loop).decompose(index);
}

bool tilec::dependsOn(Value value, BlockArgument iv) {
  return DependenceQuery(iv.getOwner()->getParentOp(), iv).depends(value);
}

//===----------------------------------------------------------------------===//
// Contiguous accesses
//===----------------------------------------------------------------------===//

namespace {
/// log2 of the largest power-of-two element count that the innermost index
/// of `access`'s first element of a vector provably is a multiple of, when
/// vectors start at multiples of the vector width in the innermost
/// induction variable; nullopt if the access is not contiguous (its
/// innermost index is not `invariant + innermost induction variable`, or
/// another index depends on that variable), is not directly in `loop`'s
/// body, or computes its indices with anything but pure ops.
std::optional<unsigned> contiguousIndexAlignment(tile::AccessOpInterface access,
                                                 tile::ParallelOp loop) {
  OperandRange indices = access.getIndices();
  if (indices.empty() || access->getBlock() != &loop.getBody().front())
    return std::nullopt;
  BlockArgument innermost = loop.getInductionVars().back();
  llvm::DenseMap<Value, bool> pureCache;
  for (Value index : indices.drop_back())
    if (dependsOn(index, innermost) ||
        !hasPureSlice(index, loop.getOperation(), pureCache))
      return std::nullopt;
  Value last = indices.back();
  if (!hasPureSlice(last, loop.getOperation(), pureCache))
    return std::nullopt;
  std::optional<AffineIndex> affine = decomposeIndex(last, loop);
  if (!affine || affine->coefficients.back() != 1)
    return std::nullopt;
  // The first element of a vector is at `u + sum_{k != inner} c_k * iv_k +
  // (multiple of the vector width)` in the innermost dim.
  unsigned tz = affine->uniformTrailingZeros;
  for (int64_t c : ArrayRef<int64_t>(affine->coefficients).drop_back())
    if (c != 0)
      tz = std::min<unsigned>(tz, llvm::countr_zero(static_cast<uint64_t>(c)));
  return tz;
}

/// log2 of `value`'s largest power-of-two divisor (kZeroTrailingZeros for 0).
unsigned trailingZeros(int64_t value) {
  return value == 0 ? kZeroTrailingZeros
                    : llvm::countr_zero(static_cast<uint64_t>(value));
}

} // namespace

unsigned tilec::sharedContiguityLog2(tile::BufferType type) {
  int64_t width = type.getShape().back();
  Attribute layout = type.getLayout();
  auto plain = dyn_cast_or_null<tile::LayoutAttr>(layout);
  if (!layout || (plain && plain.getKind() == tile::LayoutKind::Linear))
    return trailingZeros(width);
  if (auto padded = dyn_cast<tile::PaddedLayoutAttr>(layout))
    return std::min(trailingZeros(width),
                    trailingZeros(width + padded.getPad()));
  if (auto swizzled = dyn_cast<tile::SwizzledLayoutAttr>(layout))
    return std::min(trailingZeros(width), trailingZeros(swizzled.getVec()));
  return 0;
}

std::optional<ContiguousAccess>
tilec::analyzeContiguousAccess(Operation *access, tile::ParallelOp loop) {
  auto accessOp = dyn_cast<tile::AccessOpInterface>(access);
  if (!accessOp)
    return std::nullopt;
  Value buffer = accessOp.getBuffer();
  auto type = cast<tile::BufferType>(buffer.getType());
  auto tensor = dyn_cast<BlockArgument>(buffer);
  if (!type.isGlobal() || !tensor)
    return std::nullopt;
  std::optional<unsigned> tz = contiguousIndexAlignment(accessOp, loop);
  if (!tz)
    return std::nullopt;
  // Plus the row offset, which is a multiple of the innermost extent.
  ContiguousAccess result;
  if (type.getRank() > 1) {
    int64_t rowExtent = type.getShape().back();
    if (ShapedType::isDynamic(rowExtent))
      result.dynamicRowStride = true;
    else
      tz = std::min(*tz, trailingZeros(rowExtent));
  }
  int64_t alignedElements =
      tensorAlignment(tensor) / storageBytes(type.getElementType());
  unsigned baseTz =
      alignedElements <= 0
          ? 0
          : llvm::countr_zero(static_cast<uint64_t>(alignedElements));
  result.alignmentLog2 = std::min(*tz, baseTz);
  return result;
}

std::optional<ContiguousAccess>
tilec::analyzeSharedContiguousAccess(Operation *access, tile::ParallelOp loop) {
  auto accessOp = dyn_cast<tile::AccessOpInterface>(access);
  if (!accessOp)
    return std::nullopt;
  auto type = cast<tile::BufferType>(accessOp.getBuffer().getType());
  if (!type.isShared() || !type.hasStaticShape())
    return std::nullopt;
  std::optional<unsigned> tz = contiguousIndexAlignment(accessOp, loop);
  if (!tz)
    return std::nullopt;
  unsigned baseTz = trailingZeros(int64_t(kSharedVectorAlignment) /
                                  storageBytes(type.getElementType()));
  ContiguousAccess result;
  result.alignmentLog2 = std::min({*tz, sharedContiguityLog2(type), baseTz});
  return result;
}

int64_t tilec::vectorChunkWidth(const ContiguousAccess &access,
                                Type elementType, int64_t loopWidth) {
  int64_t bytes = storageBytes(elementType);
  if (!llvm::isPowerOf2_64(bytes) || bytes >= kMaxVectorBytes)
    return 1;
  int64_t width = std::min(loopWidth, kMaxVectorBytes / bytes);
  if (access.alignmentLog2 < 62)
    width = std::min<int64_t>(width, int64_t(1) << access.alignmentLog2);
  return std::max<int64_t>(width, 1);
}

namespace {
/// The accesses directly in `loop`'s body that `analyze` finds contiguous,
/// with their chunk widths.
SmallVector<VectorizableAccess> findAccesses(
    tile::ParallelOp loop, int64_t loopWidth,
    std::optional<ContiguousAccess> (*analyze)(Operation *, tile::ParallelOp)) {
  SmallVector<VectorizableAccess> found;
  for (Operation &op : loop.getBody().front()) {
    auto accessOp = dyn_cast<tile::AccessOpInterface>(op);
    if (!accessOp)
      continue;
    Value buffer = accessOp.getBuffer();
    std::optional<ContiguousAccess> access = analyze(&op, loop);
    if (!access)
      continue;
    Type elementType =
        cast<tile::BufferType>(buffer.getType()).getElementType();
    found.push_back(
        {&op, *access, vectorChunkWidth(*access, elementType, loopWidth)});
  }
  return found;
}
} // namespace

SmallVector<VectorizableAccess>
tilec::findContiguousAccesses(tile::ParallelOp loop, int64_t loopWidth) {
  return findAccesses(loop, loopWidth, analyzeContiguousAccess);
}

SmallVector<VectorizableAccess>
tilec::findSharedContiguousAccesses(tile::ParallelOp loop, int64_t loopWidth) {
  return findAccesses(loop, loopWidth, analyzeSharedContiguousAccess);
}

bool tilec::isDistributedFragmentAccess(tile::AccessOpInterface access,
                                        tile::ParallelOp loop) {
  auto type = cast<tile::BufferType>(access.getBuffer().getType());
  return loop.getExtents() == type.getShape() &&
         llvm::equal(access.getIndices(), loop.getInductionVars());
}

std::optional<int64_t> tilec::getSlicedDim(tile::AccessOpInterface access,
                                           tile::ParallelOp loop) {
  auto type = cast<tile::BufferType>(access.getBuffer().getType());
  ArrayRef<int64_t> extents = loop.getExtents();
  if (type.getRank() != 1 || extents.size() != 2 ||
      access.getIndices().size() != 1)
    return std::nullopt;
  Value index = access.getIndices().front();
  for (auto [d, iv] : llvm::enumerate(loop.getInductionVars()))
    if (index == iv && extents[d] == type.getDimSize(0))
      return 1 - int64_t(d);
  return std::nullopt;
}
