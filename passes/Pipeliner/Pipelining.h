//===- Pipelining.h - Shared pieces of tile-pipeline-loops ------*- C++ -*-===//
//
// The plan of a pipelined loop (its producers and the tiles they fill) and
// the two schedules `tile-pipeline-loops` chooses from: the cp.async
// schedule of every target (PipelineLoops.cpp) and the warp-specialized
// TMA + mbarrier schedule of targets with TMA and wgmma
// (WarpSpecialize.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PASSES_PIPELINER_PIPELINING_H
#define TILEC_PASSES_PIPELINER_PIPELINING_H

#include "dialects/Tile/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

namespace tilec {

/// The producers of a pipelined loop and the tiles they fill.
struct PipelinePlan {
  llvm::SmallVector<mlir::tile::CopyOp> producers;
  llvm::SetVector<mlir::Value> tiles;
  /// The GEMMs of the body, if each runs on an asynchronous tensor-core
  /// path (wgmma) and nothing else in the loop touches its accumulator;
  /// otherwise empty.
  llvm::SmallVector<mlir::tile::GemmOp> asyncCapableGemms;
};

/// Returns the plan of `loop`, or std::nullopt if it cannot be pipelined.
std::optional<PipelinePlan> planLoop(mlir::tile::PipelinedOp loop);

/// Gives every tile `plan` fills `stages` stages (a new leading dimension).
void stageTiles(const PipelinePlan &plan, int64_t stages);

/// Maps every tile of `plan` to its stage `stage` (a `tile.stage_view`
/// created at `builder`'s insertion point) in `mapping`.
void mapStages(mlir::OpBuilder &builder, mlir::Location loc,
               const PipelinePlan &plan, mlir::IRMapping &mapping,
               mlir::Value stage);

/// Rewrites `loop` (its tiles already staged) into the cp.async schedule:
/// prologue, steady state and drain with `tile.async_commit`,
/// `tile.async_wait` and `tile.barrier`; erases `loop`.
void pipelineWithAsyncCopies(mlir::tile::PipelinedOp loop,
                             const PipelinePlan &plan);

/// Rewrites `loop` into a warp-specialized schedule, staging its tiles, if it
/// qualifies (see WarpSpecialize.cpp): returns false, changing nothing, if
/// it does not. With `allowClusters`, the launch may run in thread-block
/// clusters whose blocks share a producer's loads (TMA multicast).
bool warpSpecialize(mlir::tile::PipelinedOp loop, const PipelinePlan &plan,
                    bool allowClusters);

} // namespace tilec

#endif // TILEC_PASSES_PIPELINER_PIPELINING_H
