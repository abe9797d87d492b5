//===- GemmRule.cpp - The accumulator layout of tensor-core GEMMs ---------===//
//
// The layout rule of `tile.gemm`, which also selects the instruction: on a
// target with wgmma (sm_90a), a GEMM whose block is whole warpgroups, whose
// accumulator is f32 and whose shared operands a wgmma descriptor can
// describe gets `#tile.mma<4 * groups_m, groups_n, warpgroup = true>`, the
// warpgroups split over C as the policy says; every other GEMM takes the
// mma.sync path, `#tile.mma<warps_m, warps_n>`, the warps split over C:
// `full_row` gives every warp (warpgroup) whole rows, `full_col` whole
// columns, `square` the split whose tiles are closest to square. A GEMM
// whose A is a fragment takes the mma.sync path with whole rows per warp,
// and so do the other GEMMs of its launch (the fragment comes from one).
// Everything the lowering cannot do is reported here, at the GEMM, before
// any lowering.
//
//===----------------------------------------------------------------------===//

#include "passes/Layout/LayoutConstraints.h"
#include "passes/Layout/LayoutRules.h"

#include "dialects/Tile/TileTarget.h"

#include <cstdlib>
#include <optional>

using namespace mlir;
using namespace tilec;

namespace {

/// Returns the warp grid for `policy` on an `m x n` accumulator over
/// `warps` warps, or nullopt if none divides the accumulator into 16 x 8
/// tiles.
/// Returns the grid of `units` (warps or warpgroups) for `policy` on an
/// `m x n` accumulator, or nullopt if none `fits`.
std::optional<std::pair<int64_t, int64_t>>
chooseGrid(tile::GemmPolicy policy, int64_t m, int64_t n, int64_t warps,
           llvm::function_ref<bool(int64_t, int64_t)> fits) {
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
    // Ties go to more along M (taller tiles reuse B fragments).
    if (!best || distance < bestDistance ||
        (distance == bestDistance && warpsM > best->first)) {
      best = std::make_pair(warpsM, warpsN);
      bestDistance = distance;
    }
  }
  return best;
}

/// Returns the warp grid of the mma.sync path.
std::optional<std::pair<int64_t, int64_t>>
chooseWarpGrid(tile::GemmPolicy policy, int64_t m, int64_t n, int64_t warps) {
  return chooseGrid(policy, m, n, warps, [&](int64_t warpsM, int64_t warpsN) {
    return m % (16 * warpsM) == 0 && n % (8 * warpsN) == 0;
  });
}

/// How a wgmma descriptor describes `operand` (a shared tile of the GEMM,
/// laid out by tile-infer-layouts before the rules run), or nullopt.
std::optional<tile::WgmmaOperandLayout> describeOperand(Value operand,
                                                        bool contiguousIsK) {
  auto type = cast<tile::BufferType>(operand.getType());
  auto layout = dyn_cast_or_null<tile::SwizzledLayoutAttr>(type.getLayout());
  if (type.getRank() != 2 || !layout)
    return std::nullopt;
  return layout.describeForWgmma(
      type.getDimSize(0), type.getDimSize(1),
      type.getElementType().getIntOrFloatBitWidth() / 8, contiguousIsK);
}

/// True if a GEMM of the launch around `gemm` reads an operand from
/// registers: its fragment must be laid out as the mma.sync accumulators of
/// the launch are, so all of them take that path.
bool launchHasRegisterOperand(tile::GemmOp gemm) {
  auto launch = gemm->getParentOfType<tile::LaunchOp>();
  if (!launch)
    return false;
  WalkResult result = launch.walk([](tile::GemmOp other) {
    return cast<tile::BufferType>(other.getA().getType()).isFragment()
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Returns the warpgroup grid of the wgmma path for `gemm` with an `m x n`
/// f32 accumulator over `threads` threads, or nullopt if the GEMM must take
/// the mma.sync path.
std::optional<std::pair<int64_t, int64_t>>
chooseWarpgroupGrid(tile::GemmOp gemm, int64_t m, int64_t n, int64_t threads) {
  tile::TargetAttr target = tile::getTarget(gemm);
  auto c = cast<tile::BufferType>(gemm.getC().getType());
  if (!target || !target.hasFeature(TargetFeature::Wgmma) ||
      !c.getElementType().isF32() || threads % 128 != 0 ||
      launchHasRegisterOperand(gemm))
    return std::nullopt;
  // A is K-major unless transposed; B is K-major only when transposed.
  std::optional<tile::WgmmaOperandLayout> a =
      describeOperand(gemm.getA(), !gemm.getTransposeA());
  std::optional<tile::WgmmaOperandLayout> b =
      describeOperand(gemm.getB(), gemm.getTransposeB());
  if (!a || !b)
    return std::nullopt;
  // An M- or N-major operand's wgmma tiles must start at its panels (one
  // swizzle span of M or N each).
  int64_t elementBytes = cast<tile::BufferType>(gemm.getA().getType())
                             .getElementType()
                             .getIntOrFloatBitWidth() /
                         8;
  int64_t bPanel = gemm.getTransposeB() ? 0 : b->swizzleBytes / elementBytes;
  int64_t aPanel = gemm.getTransposeA() ? a->swizzleBytes / elementBytes : 0;
  if (aPanel && 64 % aPanel != 0)
    return std::nullopt;
  return chooseGrid(gemm.getPolicy(), m, n, threads / 128,
                    [&](int64_t groupsM, int64_t groupsN) {
                      int64_t groupN = n / groupsN;
                      return m % (64 * groupsM) == 0 && n % groupsN == 0 &&
                             groupN % 8 == 0 && groupN <= 256 &&
                             (!bPanel || groupN % bPanel == 0);
                    });
}

/// The layouts of a GEMM whose A is a fragment (FlashAttention's P·V): the
/// warps split C along M only (each owns whole rows), and A is laid out as
/// an mma.sync accumulator with the same split, so that the registers of
/// two adjacent 16 x 8 tiles of A are the A operand of one k step
/// (TENSORCORES.md §1). The GEMM that produces A (through a copy) must give
/// its accumulator the same layout: `policy = full_row`.
LogicalResult addRegisterOperandConstraints(tile::GemmOp gemm, Operation *c,
                                            int64_t m, int64_t warps,
                                            LayoutConstraints &constraints) {
  Operation *a = gemm.getA().getDefiningOp<tile::AllocFragmentOp>();
  if (!a)
    return gemm.emitOpError("A in registers must be a 'tile.alloc_fragment'");
  if (m % (16 * warps) != 0)
    return gemm.emitOpError("with A in registers splits the ")
           << m << " rows over " << warps
           << " warps, which needs 16-row tiles per warp";
  auto layout = tile::MmaLayoutAttr::get(gemm.getContext(), warps, 1);
  constraints.addHolder(a, layout, gemm);
  constraints.addHolder(c, layout, gemm);
  return success();
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
    if (!b.isShared())
      return gemm.emitOpError("with B in registers is not supported by the "
                              "code generator (B must be a shared tile)");
    if (a.isFragment() && gemm.getTransposeA())
      return gemm.emitOpError("with A in registers cannot transpose A");
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
    if (a.isFragment())
      return addRegisterOperandConstraints(gemm, alloc, m, threads / 32,
                                           constraints);
    if (std::optional<std::pair<int64_t, int64_t>> groups =
            chooseWarpgroupGrid(gemm, m, n, threads)) {
      constraints.addHolder(
          alloc,
          tile::MmaLayoutAttr::get(gemm.getContext(), 4 * groups->first,
                                   groups->second, /*warpgroup=*/true),
          gemm);
      return success();
    }
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
        tile::MmaLayoutAttr::get(gemm.getContext(), grid->first, grid->second),
        gemm);
    return success();
  }
};

} // namespace

void tilec::registerGemmLayoutRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tile::TileDialect *) {
    tile::GemmOp::attachInterface<GemmLayoutRule>(*context);
  });
}
