//===- TileLayouts.cpp - The maths of the tile layouts --------------------===//
//
// Verification, thread <-> element mapping of the distributed layouts and
// element offsets of the shared-memory layouts.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/TileOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Returns the number of elements of a tile of `shape`.
int64_t getNumElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  return count;
}

/// Checks that `shape` is a static shape of rank >= 1 (a shared tile seen as
/// rows of its innermost extent).
LogicalResult verifyRows(function_ref<InFlightDiagnostic()> emitError,
                         Attribute layout, ArrayRef<int64_t> shape) {
  if (shape.empty())
    return emitError() << layout << " needs a tile of rank 1 or more";
  for (int64_t extent : shape)
    if (ShapedType::isDynamic(extent) || extent < 1)
      return emitError() << layout << " needs a static shape";
  return success();
}

/// Returns the row of the element at `coords`: the leading coordinates
/// flattened row-major (0 for a rank-1 tile).
int64_t getRow(ArrayRef<int64_t> shape, ArrayRef<int64_t> coords) {
  assert(coords.size() == shape.size() && "one coordinate per dimension");
  int64_t row = 0;
  for (size_t d = 0; d + 1 < shape.size(); ++d)
    row = row * shape[d] + coords[d];
  return row;
}

/// Returns an `index` constant, created at the builder's insertion point.
Value indexConstant(OpBuilder &builder, Location loc, int64_t value) {
  return builder.createOrFold<arith::ConstantIndexOp>(loc, value);
}

/// Emits `getRow(shape, coords)` on `index` values.
Value emitRow(OpBuilder &builder, Location loc, ArrayRef<int64_t> shape,
              ValueRange coords) {
  assert(coords.size() == shape.size() && "one coordinate per dimension");
  Value row = indexConstant(builder, loc, 0);
  for (size_t d = 0; d + 1 < shape.size(); ++d) {
    Value scaled = builder.createOrFold<arith::MulIOp>(
        loc, row, indexConstant(builder, loc, shape[d]));
    row = builder.createOrFold<arith::AddIOp>(loc, scaled, coords[d]);
  }
  return row;
}

/// Emits `row * stride + column` on `index` values.
Value emitRowMajor(OpBuilder &builder, Location loc, Value row, int64_t stride,
                   Value column) {
  Value start = builder.createOrFold<arith::MulIOp>(
      loc, row, indexConstant(builder, loc, stride));
  return builder.createOrFold<arith::AddIOp>(loc, start, column);
}
} // namespace

SmallVector<int64_t> mlir::tile::delinearize(int64_t flat,
                                             ArrayRef<int64_t> shape) {
  SmallVector<int64_t> coordinates(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coordinates[d] = flat % shape[d];
    flat /= shape[d];
  }
  return coordinates;
}

LogicalResult
FlatLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t vec) {
  if (vec < 1 || !llvm::isPowerOf2_64(vec))
    return emitError() << "vec must be a positive power of two, got " << vec;
  return success();
}

FlatDistribution FlatLayoutAttr::distribute(int64_t numElements,
                                            int64_t threads) const {
  return FlatDistribution{numElements, threads, getVec()};
}

int64_t FlatLayoutAttr::getElementsPerThread(ArrayRef<int64_t> shape,
                                             int64_t threads) const {
  return distribute(getNumElements(shape), threads).elementsPerThread();
}

std::optional<SmallVector<int64_t>>
FlatLayoutAttr::getElementCoordinates(ArrayRef<int64_t> shape, int64_t threads,
                                      int64_t thread, int64_t reg) const {
  FlatDistribution distribution = distribute(getNumElements(shape), threads);
  if (thread < 0 || thread >= threads || reg < 0 ||
      reg >= distribution.elementsPerThread())
    return std::nullopt;
  int64_t flat = distribution.flatElement(thread, reg);
  if (flat < 0)
    return std::nullopt;
  return delinearize(flat, shape);
}

LogicalResult
MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t warpsM, int64_t warpsN, bool warpgroup) {
  if (warpsM < 1 || warpsN < 1)
    return emitError() << "warps_m and warps_n must be positive, got " << warpsM
                       << " and " << warpsN;
  if (warpgroup && warpsM % 4 != 0)
    return emitError() << "a warpgroup layout needs warps_m to be a multiple "
                          "of 4 (whole warpgroups), got "
                       << warpsM;
  return success();
}

FailureOr<MmaTiling> MmaLayoutAttr::getTiling(ArrayRef<int64_t> shape) const {
  if (shape.size() != 2 || shape[0] % (16 * getWarpsM()) != 0 ||
      shape[1] % (8 * getWarpsN()) != 0)
    return failure();
  return MmaTiling{getWarpsM(), getWarpsN(), shape[0] / getWarpsM(),
                   shape[1] / getWarpsN(), getWarpgroup()};
}

int64_t MmaLayoutAttr::getElementsPerThread(ArrayRef<int64_t> shape,
                                            int64_t threads) const {
  FailureOr<MmaTiling> tiling = getTiling(shape);
  return succeeded(tiling) ? tiling->elementsPerThread() : 0;
}

std::optional<SmallVector<int64_t>>
MmaLayoutAttr::getElementCoordinates(ArrayRef<int64_t> shape, int64_t threads,
                                     int64_t thread, int64_t reg) const {
  FailureOr<MmaTiling> tiling = getTiling(shape);
  if (failed(tiling) || threads != 32 * getWarpsM() * getWarpsN() ||
      thread < 0 || thread >= threads || reg < 0 ||
      reg >= tiling->elementsPerThread())
    return std::nullopt;
  auto [row, column] = tiling->coordinates(thread / 32, thread % 32, reg);
  return SmallVector<int64_t>{row, column};
}

//===----------------------------------------------------------------------===//
// SliceLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        MmaLayoutAttr parent, int64_t dim) {
  if (!parent)
    return emitError() << "a slice needs a #tile.mma parent layout";
  if (dim != 0 && dim != 1)
    return emitError() << "dim must be 0 or 1 (the sliced dimension of the "
                          "parent's rank-2 tile), got "
                       << dim;
  return success();
}

FailureOr<MmaTiling>
SliceLayoutAttr::getParentTiling(ArrayRef<int64_t> shape) const {
  if (shape.size() != 1)
    return failure();
  MmaLayoutAttr parent = getParent();
  // The sliced extent does not matter: one accumulator tile per warp.
  SmallVector<int64_t, 2> parentShape = {16 * parent.getWarpsM(),
                                         8 * parent.getWarpsN()};
  parentShape[1 - getDim()] = shape[0];
  return parent.getTiling(parentShape);
}

int64_t SliceLayoutAttr::getSliceRegister(const MmaTiling &tiling,
                                          int64_t parentReg) const {
  return getDim() == 1 ? tiling.rowSliceRegister(parentReg)
                       : tiling.columnSliceRegister(parentReg);
}

bool SliceLayoutAttr::isSliceOf(ArrayRef<int64_t> shape,
                                ArrayRef<int64_t> parentShape) const {
  return shape.size() == 1 && parentShape.size() == 2 &&
         shape[0] == parentShape[1 - getDim()];
}

int64_t SliceLayoutAttr::getElementsPerThread(ArrayRef<int64_t> shape,
                                              int64_t threads) const {
  FailureOr<MmaTiling> tiling = getParentTiling(shape);
  if (failed(tiling))
    return 0;
  return 2 * (getDim() == 1 ? tiling->mTiles() : tiling->nTiles());
}

std::optional<SmallVector<int64_t>>
SliceLayoutAttr::getElementCoordinates(ArrayRef<int64_t> shape, int64_t threads,
                                       int64_t thread, int64_t reg) const {
  FailureOr<MmaTiling> tiling = getParentTiling(shape);
  if (failed(tiling) || threads != 32 * tiling->warpsM * tiling->warpsN ||
      thread < 0 || thread >= threads || reg < 0 ||
      reg >= getElementsPerThread(shape, threads))
    return std::nullopt;
  // A parent register of the same row (column): tile (reg / 2, 0) and its
  // element of row half reg % 2 (tile (0, reg / 2), column reg % 2).
  int64_t parentReg = getDim() == 1
                          ? 4 * tiling->nTiles() * (reg / 2) + 2 * (reg % 2)
                          : 4 * (reg / 2) + reg % 2;
  auto [row, column] = tiling->coordinates(thread / 32, thread % 32, parentReg);
  return SmallVector<int64_t>{getDim() == 1 ? row : column};
}

//===----------------------------------------------------------------------===//
// ReplicatedLayoutAttr
//===----------------------------------------------------------------------===//

int64_t ReplicatedLayoutAttr::getElementsPerThread(ArrayRef<int64_t> shape,
                                                   int64_t threads) const {
  return getNumElements(shape);
}

std::optional<SmallVector<int64_t>>
ReplicatedLayoutAttr::getElementCoordinates(ArrayRef<int64_t> shape,
                                            int64_t threads, int64_t thread,
                                            int64_t reg) const {
  if (thread < 0 || thread >= threads || reg < 0 ||
      reg >= getNumElements(shape))
    return std::nullopt;
  return delinearize(reg, shape);
}

//===----------------------------------------------------------------------===//
// SwizzledLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
SwizzledLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           int64_t vec, int64_t perPhase, int64_t maxPhase,
                           int64_t panel) {
  std::pair<StringRef, int64_t> parameters[] = {
      {"vec", vec}, {"per_phase", perPhase}, {"max_phase", maxPhase}};
  for (auto [name, value] : parameters)
    if (value < 1 || !llvm::isPowerOf2_64(value))
      return emitError() << name << " must be a positive power of two, got "
                         << value;
  if (panel < 0 || panel % (vec * maxPhase) != 0)
    return emitError() << "panel must be a multiple of vec * max_phase = "
                       << vec * maxPhase << ", got " << panel;
  return success();
}

LogicalResult
SwizzledLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<int64_t> shape) const {
  if (failed(verifyRows(emitError, *this, shape)))
    return failure();
  int64_t period = getVec() * getMaxPhase();
  if (shape.back() % period != 0)
    return emitError() << *this << " needs an innermost extent that is a "
                       << "multiple of vec * max_phase = " << period << ", got "
                       << shape.back();
  if (getPanel() && (shape.size() < 2 || shape.back() % getPanel() != 0))
    return emitError() << *this << " needs a tile of rank 2 or more whose "
                       << "innermost extent is a multiple of the panel, got "
                       << "extent " << shape.back() << " and rank "
                       << shape.size();
  return success();
}

int64_t SwizzledLayoutAttr::getBufferSize(ArrayRef<int64_t> shape) const {
  return getNumElements(shape);
}

int64_t SwizzledLayoutAttr::getElementOffset(ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> coords) const {
  int64_t row = getRow(shape, coords);
  int64_t phase = (row / getPerPhase()) % getMaxPhase();
  int64_t width = shape.back(), panel = getPanelWidth(width);
  int64_t column = coords.back();
  // Flipping bits of the vector index within the panel's row: (c / vec ^
  // phase) * vec + c % vec, as vec is a power of two.
  int64_t swizzled = (column % panel) ^ (phase * getVec());
  if (panel == width)
    return row * width + swizzled;
  // Matrices of R x W one after the other, each a sequence of R x P panels.
  int64_t rows = shape[shape.size() - 2];
  int64_t matrix = row / rows, rowInMatrix = row % rows;
  return matrix * rows * width + column / panel * rows * panel +
         rowInMatrix * panel + swizzled;
}

Value SwizzledLayoutAttr::emitElementOffset(OpBuilder &builder, Location loc,
                                            ArrayRef<int64_t> shape,
                                            ValueRange coords) const {
  Value row = emitRow(builder, loc, shape, coords);
  auto constant = [&](int64_t value) {
    return indexConstant(builder, loc, value);
  };
  auto log2 = [&](int64_t value) { return constant(llvm::Log2_64(value)); };
  // phase = (row >> log2 per_phase) & (max_phase - 1).
  Value phase = builder.createOrFold<arith::AndIOp>(
      loc, builder.createOrFold<arith::ShRUIOp>(loc, row, log2(getPerPhase())),
      constant(getMaxPhase() - 1));
  Value flip = builder.createOrFold<arith::ShLIOp>(loc, phase, log2(getVec()));
  int64_t width = shape.back(), panel = getPanelWidth(width);
  Value column = coords.back();
  if (panel == width)
    // column = c ^ (phase << log2 vec).
    return emitRowMajor(builder, loc, row, width,
                        builder.createOrFold<arith::XOrIOp>(loc, column, flip));
  // The panel's row: (c % P) ^ (phase << log2 vec), at (c / P) * R * P +
  // r * P in matrix row / R.
  int64_t rows = shape[shape.size() - 2];
  Value inPanel = builder.createOrFold<arith::XOrIOp>(
      loc, builder.createOrFold<arith::RemUIOp>(loc, column, constant(panel)),
      flip);
  Value panelIndex =
      builder.createOrFold<arith::DivUIOp>(loc, column, constant(panel));
  Value offset = builder.createOrFold<arith::MulIOp>(loc, panelIndex,
                                                     constant(rows * panel));
  Value rowInMatrix = row;
  if (shape.size() > 2) {
    Value matrix =
        builder.createOrFold<arith::DivUIOp>(loc, row, constant(rows));
    rowInMatrix =
        builder.createOrFold<arith::RemUIOp>(loc, row, constant(rows));
    offset = builder.createOrFold<arith::AddIOp>(
        loc, offset,
        builder.createOrFold<arith::MulIOp>(loc, matrix,
                                            constant(rows * width)));
  }
  offset = builder.createOrFold<arith::AddIOp>(
      loc, offset, emitRowMajor(builder, loc, rowInMatrix, panel, inPanel));
  return offset;
}

std::optional<WgmmaOperandLayout>
SwizzledLayoutAttr::describeForWgmma(int64_t rows, int64_t width,
                                     int64_t elementBytes,
                                     bool contiguousIsK) const {
  int64_t swizzleBytes = getMaxPhase() * 16;
  int64_t panel = getPanelWidth(width);
  if (getVec() * elementBytes != 16 || getPerPhase() * swizzleBytes != 128 ||
      panel * elementBytes != swizzleBytes || width % panel != 0 ||
      rows % 8 != 0 || !llvm::is_contained({32, 64, 128}, swizzleBytes))
    return std::nullopt;
  WgmmaOperandLayout layout;
  layout.swizzleBytes = swizzleBytes;
  layout.layoutType = swizzleBytes == 128 ? 1 : swizzleBytes == 64 ? 2 : 3;
  // 8 rows of one swizzle span are the repeating atom.
  layout.strideByteOffset = 8 * swizzleBytes;
  // K-major: a k16 step stays inside a panel (the start address moves);
  // the field is unused and conventionally 1 (16 bytes). M/N-major: the
  // next panel of M or N columns starts `rows` rows later.
  layout.leadingByteOffset = contiguousIsK ? 16 : rows * swizzleBytes;
  return layout;
}

//===----------------------------------------------------------------------===//
// PaddedLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
PaddedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t pad) {
  if (pad < 0)
    return emitError() << "pad must not be negative, got " << pad;
  return success();
}

LogicalResult
PaddedLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                              ArrayRef<int64_t> shape) const {
  return verifyRows(emitError, *this, shape);
}

int64_t PaddedLayoutAttr::getBufferSize(ArrayRef<int64_t> shape) const {
  return getNumElements(shape) / shape.back() * (shape.back() + getPad());
}

int64_t PaddedLayoutAttr::getElementOffset(ArrayRef<int64_t> shape,
                                           ArrayRef<int64_t> coords) const {
  return getRow(shape, coords) * (shape.back() + getPad()) + coords.back();
}

Value PaddedLayoutAttr::emitElementOffset(OpBuilder &builder, Location loc,
                                          ArrayRef<int64_t> shape,
                                          ValueRange coords) const {
  return emitRowMajor(builder, loc, emitRow(builder, loc, shape, coords),
                      shape.back() + getPad(), coords.back());
}
