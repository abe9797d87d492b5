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
// whose A is a fragment has whole rows per warp (warpgroup), A laid out as
// C; it takes wgmma's RS form if every GEMM of its launch can take wgmma
// with whole rows per warpgroup (the fragment comes from one of them), and
// the mma.sync path with all of them otherwise.
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
/// registers: its fragment must be laid out as the accumulators of the
/// launch are, so all of them take one path.
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
/// f32 accumulator over `threads` threads on its own, or nullopt if it
/// cannot take that path: with A a shared tile (SS), the grid its policy
/// chooses; with A a fragment (RS: A from registers, as FlashAttention's
/// P·V), whole rows per warpgroup, A laid out as the accumulator.
std::optional<std::pair<int64_t, int64_t>>
chooseOwnWarpgroupGrid(tile::GemmOp gemm, int64_t m, int64_t n,
                       int64_t threads) {
  tile::TargetAttr target = tile::getTarget(gemm);
  auto c = cast<tile::BufferType>(gemm.getC().getType());
  if (!target || !target.hasFeature(TargetFeature::Wgmma) ||
      !c.getElementType().isF32() || threads % 128 != 0)
    return std::nullopt;
  bool registerA = cast<tile::BufferType>(gemm.getA().getType()).isFragment();
  // A is K-major unless transposed; B is K-major only when transposed.
  std::optional<tile::WgmmaOperandLayout> a;
  if (!registerA) {
    a = describeOperand(gemm.getA(), !gemm.getTransposeA());
    if (!a)
      return std::nullopt;
  }
  std::optional<tile::WgmmaOperandLayout> b =
      describeOperand(gemm.getB(), gemm.getTransposeB());
  if (!b)
    return std::nullopt;
  // An M- or N-major operand's wgmma tiles must start at its panels (one
  // swizzle span of M or N each).
  int64_t elementBytes = cast<tile::BufferType>(gemm.getA().getType())
                             .getElementType()
                             .getIntOrFloatBitWidth() /
                         8;
  int64_t bPanel = gemm.getTransposeB() ? 0 : b->swizzleBytes / elementBytes;
  int64_t aPanel =
      a && gemm.getTransposeA() ? a->swizzleBytes / elementBytes : 0;
  if (aPanel && 64 % aPanel != 0)
    return std::nullopt;
  return chooseGrid(registerA ? tile::GemmPolicy::FullRow : gemm.getPolicy(), m,
                    n, threads / 128, [&](int64_t groupsM, int64_t groupsN) {
                      int64_t groupN = n / groupsN;
                      return m % (64 * groupsM) == 0 && n % groupsN == 0 &&
                             groupN % 8 == 0 && groupN <= 256 &&
                             (!bPanel || groupN % bPanel == 0);
                    });
}

/// Returns the warpgroup grid of the wgmma path for `gemm` with an `m x n`
/// f32 accumulator over `threads` threads, or nullopt if the GEMM must take
/// the mma.sync path. In a launch where a GEMM reads A from registers, the
/// fragment is another GEMM's accumulator (through a copy), so either every
/// GEMM of the launch takes wgmma with whole rows per warpgroup, or none.
std::optional<std::pair<int64_t, int64_t>>
chooseWarpgroupGrid(tile::GemmOp gemm, int64_t m, int64_t n, int64_t threads) {
  if (!launchHasRegisterOperand(gemm))
    return chooseOwnWarpgroupGrid(gemm, m, n, threads);
  bool allWholeRows = true;
  gemm->getParentOfType<tile::LaunchOp>().walk([&](tile::GemmOp other) {
    auto c = cast<tile::BufferType>(other.getC().getType());
    std::optional<std::pair<int64_t, int64_t>> grid = chooseOwnWarpgroupGrid(
        other, c.getDimSize(0), c.getDimSize(1), threads);
    allWholeRows &= grid && grid->second == 1;
  });
  if (!allWholeRows)
    return std::nullopt;
  return chooseOwnWarpgroupGrid(gemm, m, n, threads);
}

/// The layouts of a GEMM whose A is a fragment (FlashAttention's P·V): the
/// warps split C along M only (each owns whole rows), and A is laid out as
/// an accumulator with the same split, so that the registers of two
/// adjacent 16 x 8 tiles of A are the A operand of one k step: of
/// mma.sync (TENSORCORES.md §1) or, with `warpgroup`, of wgmma's RS form
/// (§5). The GEMM that produces A (through a copy) must give its
/// accumulator the same layout: `policy = full_row`.
LogicalResult addRegisterOperandConstraints(tile::GemmOp gemm, Operation *c,
                                            int64_t m, int64_t warps,
                                            bool warpgroup,
                                            LayoutConstraints &constraints) {
  Operation *a = gemm.getA().getDefiningOp<tile::AllocFragmentOp>();
  if (!a)
    return gemm.emitOpError("A in registers must be a 'tile.alloc_fragment'");
  if (m % (16 * warps) != 0)
    return gemm.emitOpError("with A in registers splits the ")
           << m << " rows over " << warps
           << " warps, which needs 16-row tiles per warp";
  auto layout =
      tile::MmaLayoutAttr::get(gemm.getContext(), warps, 1, warpgroup);
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
    std::optional<std::pair<int64_t, int64_t>> groups =
        chooseWarpgroupGrid(gemm, m, n, threads);
    if (a.isFragment())
      return addRegisterOperandConstraints(gemm, alloc, m, threads / 32,
                                           groups.has_value(), constraints);
    if (groups) {
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
