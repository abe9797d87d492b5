//===- TileLayouts.cpp - The maths of the tile layouts --------------------===//
//
// Verification and thread <-> element mapping of the layout attributes.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/TileOps.h"

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
} // namespace

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
  // Row-major delinearization.
  SmallVector<int64_t> coordinates(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coordinates[d] = flat % shape[d];
    flat /= shape[d];
  }
  return coordinates;
}

LogicalResult
MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t warpsM, int64_t warpsN) {
  if (warpsM < 1 || warpsN < 1)
    return emitError() << "warps_m and warps_n must be positive, got " << warpsM
                       << " and " << warpsN;
  return success();
}

FailureOr<MmaTiling> MmaLayoutAttr::getTiling(ArrayRef<int64_t> shape) const {
  if (shape.size() != 2 || shape[0] % (16 * getWarpsM()) != 0 ||
      shape[1] % (8 * getWarpsN()) != 0)
    return failure();
  return MmaTiling{getWarpsM(), getWarpsN(), shape[0] / getWarpsM(),
                   shape[1] / getWarpsN()};
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
