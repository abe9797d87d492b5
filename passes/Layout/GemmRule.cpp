//===- GemmRule.cpp - The accumulator layout of tensor-core GEMMs ---------===//
//
// The layout rule of `tile.gemm` on the mma.sync path: the accumulator C
// gets `#tile.mma<warps_m, warps_n>`, the block's warps split over C as the
// GEMM's policy says: `full_row` gives every warp whole rows (warps_m =
// warps), `full_col` whole columns (warps_n = warps), `square` the split
// whose warp tiles are closest to square. Everything the mma.sync lowering
// cannot do is reported here, at the GEMM, before any lowering.
//
//===----------------------------------------------------------------------===//

#include "passes/Layout/LayoutConstraints.h"
#include "passes/Layout/LayoutRules.h"

#include <cstdlib>
#include <optional>

using namespace mlir;
using namespace tilec;

namespace {

/// Returns the warp grid for `policy` on an `m x n` accumulator over
/// `warps` warps, or nullopt if none divides the accumulator into 16 x 8
/// tiles.
std::optional<std::pair<int64_t, int64_t>>
chooseWarpGrid(tile::GemmPolicy policy, int64_t m, int64_t n, int64_t warps) {
  auto fits = [&](int64_t warpsM, int64_t warpsN) {
    return m % (16 * warpsM) == 0 && n % (8 * warpsN) == 0;
  };
  switch (policy) {
  case tile::GemmPolicy::FullRow:
    if (fits(warps, 1))
      return std::make_pair(warps, int64_t(1));
    return std::nullopt;
  case tile::GemmPolicy::FullCol:
    if (fits(1, warps))
      return std::make_pair(int64_t(1), warps);
    return std::nullopt;
  case tile::GemmPolicy::Square:
    break;
  }
  std::optional<std::pair<int64_t, int64_t>> best;
  int64_t bestDistance = 0;
  for (int64_t warpsM = 1; warpsM <= warps; ++warpsM) {
    if (warps % warpsM != 0 || !fits(warpsM, warps / warpsM))
      continue;
    int64_t warpsN = warps / warpsM;
    int64_t distance = std::abs(m / warpsM - n / warpsN);
    // Ties go to more warps along M (taller warp tiles reuse B fragments).
    if (!best || distance < bestDistance ||
        (distance == bestDistance && warpsM > best->first)) {
      best = std::make_pair(warpsM, warpsN);
      bestDistance = distance;
    }
  }
  return best;
}

struct GemmLayoutRule
    : public LayoutRuleOpInterface::ExternalModel<GemmLayoutRule,
                                                  tile::GemmOp> {
  LogicalResult addLayoutConstraints(Operation *op,
                                     LayoutConstraints &constraints) const {
    auto gemm = cast<tile::GemmOp>(op);
    auto a = cast<tile::BufferType>(gemm.getA().getType());
    auto b = cast<tile::BufferType>(gemm.getB().getType());
    auto c = cast<tile::BufferType>(gemm.getC().getType());
    Type input = a.getElementType();
    if (!input.isF16() && !input.isBF16())
      return gemm.emitOpError("with ")
             << input
             << " inputs is not supported by the code generator yet "
                "(mma.sync takes f16 and bf16)";
    if (!a.isShared() || !b.isShared())
      return gemm.emitOpError("with an operand in registers is not "
                              "supported by the code generator yet (A and "
                              "B must be shared tiles)");
    int64_t k = a.getDimSize(gemm.getTransposeA() ? 0 : 1);
    if (k % 16 != 0)
      return gemm.emitOpError("reduction extent ")
             << k << " must be a multiple of 16 (mma.sync m16n8k16)";
    Operation *alloc = gemm.getC().getDefiningOp<tile::AllocFragmentOp>();
    if (!alloc)
      return gemm.emitOpError("accumulator must be a 'tile.alloc_fragment'");
    auto launch = gemm->getParentOfType<tile::LaunchOp>();
    int64_t threads = launch ? launch.getThreads() : 0;
    if (threads % 32 != 0 || threads == 0)
      return gemm.emitOpError("needs whole warps, but the block has ")
             << threads << " threads";
    int64_t m = c.getDimSize(0), n = c.getDimSize(1);
    std::optional<std::pair<int64_t, int64_t>> grid =
        chooseWarpGrid(gemm.getPolicy(), m, n, threads / 32);
    if (!grid)
      return gemm.emitOpError("cannot split the [")
             << m << ", " << n << "] accumulator over " << threads / 32
             << " warps with policy '"
             << tile::stringifyGemmPolicy(gemm.getPolicy())
             << "' into 16 x 8 mma.sync tiles";
    constraints.addHolder(
        alloc,
        tile::MmaLayoutAttr::get(gemm.getContext(), grid->first, grid->second));
    return success();
  }
};

} // namespace

void tilec::registerGemmLayoutRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tile::TileDialect *) {
    tile::GemmOp::attachInterface<GemmLayoutRule>(*context);
  });
}
