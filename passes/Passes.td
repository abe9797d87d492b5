//===- Passes.td - Tile-level transformations --------------*- tablegen -*-===//

#ifndef TILEC_PASSES_PASSES_TD
#define TILEC_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileSetTarget : Pass<"tile-set-target", "::mlir::ModuleOp"> {
  let summary = "Sets the module's target (#tile.target)";
  let description = [{
    Sets the `tile.target` attribute of the module to the architecture and
    PTX ISA version given as options (`ptx = 0` selects the architecture's
    default version). A module that already names another target is an
    error. The target-dependent passes read this attribute.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"sm_90a\"",
           "Target architecture (sm_80, sm_86, sm_89, sm_90, sm_90a)">,
    Option<"ptx", "ptx", "unsigned", /*default=*/"0",
           "PTX ISA version as two digits (0: the architecture's default)">,
  ];
}

def TileInferLayouts : Pass<"tile-infer-layouts", "::mlir::tile::KernelOp"> {
  let summary = "Gives every fragment and parallel loop a thread layout";
  let description = [{
    Every op with a layout rule (LayoutRuleOpInterface, one file per op
    family in passes/Layout/) adds its constraints: which ops hold a layout
    (`tile.alloc_fragment`, `tile.parallel`), which of them must share one,
    and which layout each would prefer. The pass chooses one layout per
    class and records it in the layout slot of every fragment's
    `!tile.buffer` type and in the `layout` attribute of every parallel loop.

    The elementwise rule (ElementwiseRule.cpp) gives a loop and the fragments
    it accesses `#tile.flat<vec>`: a loop over `E0 x ... x En` is flattened
    row-major and distributed over the launch's `T` threads, thread `t` in
    step `s` covering flat elements `(s*T + t)*vec ... (s*T + t)*vec + vec-1`,
    for `ceil(E0*...*En / (T*vec))` steps. `vec` is the widest 16-byte access
    among the loop's contiguous global accesses (`vec` elements of the
    innermost index, which must be the innermost induction variable plus an
    invariant part), provided it divides the innermost extent and the body,
    emitted once per element of the vector, stays short (its estimated cost
    times `vec` at most 4096); loops that write per-thread `local` buffers use
    `vec = 1` because their iterations must not interleave. Loops sharing a
    fragment get the smallest `vec` among them. A fragment accessed other
    than by the induction variables of a loop over its shape (a broadcast
    `m[i]` in a loop over `[i, j]`, a constant index `mx[0]`) and a
    reduction's fragment target are `#tile.replicated`: every thread holds
    the whole tile (ReduceRule.cpp). A fragment copied into another shares
    its layout; one copied from or to memory prefers `#tile.flat` with
    16-byte vectors of the memory operand (CopyRule.cpp). An instruction's
    layout (a GEMM accumulator's `#tile.mma`) and `#tile.replicated` win over
    `#tile.flat`; a class that needs two of them is an error.

    Every shared tile gets the shared layout that makes 16-byte writes
    (cp.async) and ldmatrix reads bank-conflict free
    (passes/Layout/SharedLayoutChoice.h: an XOR swizzle `#tile.swizzled` for
    rows of whole 16-byte chunks), or the family the user asked for with
    `annotate_layout`.
  }];
}

def TileStageBroadcastLoads
    : Pass<"tile-stage-broadcast-loads", "::mlir::tile::KernelOp"> {
  let summary = "Stages the vectors a GEMM epilogue broadcasts in shared "
                "memory";
  let description = [{
    In a `tile.parallel` loop over a GEMM accumulator (`#tile.mma` layout),
    a `tile.load` of a global tensor whose indices are the same in every
    iteration but the last, `x + j` (or `j`) for an induction variable `j`
    of extent E and `x` defined outside the loop (a bias `bias[bx * block_N
    + j]`), reads the same E elements in every thread that holds a column
    (or row). Each thread would keep its elements in registers, which the
    accumulator leaves few of, with a guarded load apiece. The pass
    allocates a rank-1 shared tile of E elements at the start of the launch
    body, copies the region `[x, x + E)` into it right before the loop (a
    block copy: reads outside the tensor give 0, as the guarded loads did)
    and makes the load read `tile[j]`. In a `tile.warp_specialize` whose
    consumer groups take turns (`consumer_groups G > 1`, ping-pong) the tile
    has a stage per group (`[G, E]`) and each group copies into and reads
    its own (`tile.stage_view` at `tile.consumer_group`). Loads of a tensor
    that the loop also writes, loops in a pipelined loop and tiles that
    could push the kernel's shared memory past the target's limit are left
    alone. Runs after `tile-pipeline-loops` and before
    `tile-allocate-shared-memory`.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TilePlanReductions : Pass<"tile-plan-reductions", "::mlir::tile::KernelOp"> {
  let summary = "Gives every reduction that exchanges partial results its "
                "shared scratch tile";
  let description = [{
    Plans every `tile.reduce` of the kernel (passes/Analysis/ReductionPlan.h:
    per thread, in registers with warp shuffles, or through shared memory)
    and, for a plan that exchanges partial results between warps or stages
    the source, allocates a rank-1 `tile.alloc_shared` of the plan's
    accumulator type at the start of the launch body and makes it the
    reduction's `scratch` operand. Runs after `tile-infer-layouts` (the plan
    depends on the source's layout) and before
    `tile-allocate-shared-memory`, which gives every scratch tile bytes of
    its own for the whole launch.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileAllocateSharedMemory
    : Pass<"tile-allocate-shared-memory", "::mlir::tile::KernelOp"> {
  let summary = "Places a kernel's shared tiles in one dynamic shared-memory "
                "arena";
  let description = [{
    Gives every `tile.alloc_shared` of the kernel an `offset` (bytes from the
    start of the kernel's dynamic shared-memory arena) and records the
    arena's size in the kernel's `tile.shared_memory_bytes` attribute. It
    allocates whatever shared tiles exist, so passes that multi-buffer tiles
    (`[stages, 128, 32]`) run before it.

    Alignment: a tile whose byte size is a multiple of 1024 starts at a
    multiple of 1024 (a 128-byte swizzle pattern repeats every 1024 bytes,
    and TMA and wgmma descriptors want that boundary); any other tile starts
    at a multiple of 128.

    Reuse: a tile is live from the first to the last op of the launch body
    that uses it, counting an op that holds regions (a loop, a conditional)
    as one op, so a use inside a loop keeps the tile live for the whole
    loop; a tile without uses is live at its allocation; a reduction's
    scratch tile is live throughout the launch (its bytes are its own). Tiles whose live
    ranges do not overlap may share bytes. Tiles are placed largest first,
    each at the lowest aligned offset that overlaps no tile already placed
    and live at the same time.

    A total above the target's opt-in limit (`tile.target`) is an error at
    the kernel, with a note at every tile giving its bytes.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TilePipelineLoops : Pass<"tile-pipeline-loops", "::mlir::tile::KernelOp"> {
  let summary = "Software-pipelines tile.pipelined loops over multi-buffered "
                "shared tiles";
  let description = [{
    A `tile.pipelined %k to %n stages S` loop (S >= 2) whose body fills
    shared tiles allocated outside it from global tensors (`tile.copy`,
    the "producers") and then only reads them becomes: the filled tiles get
    S stages (a new leading dimension, viewed with `tile.stage_view`); a
    prologue starts the copies of iterations 0..S-2 (each guarded by
    `i < n`, one `tile.async_commit` each); the loop (`tile.serial`) waits
    until at most S-2 groups are in flight (`tile.async_wait`), passes a
    `tile.barrier`, computes on stage `k % S`, starts the copies of
    iteration `k + S - 1` (guarded) into its stage and commits; after the
    loop, everything is awaited and a barrier passed. The copies are marked
    `async`. `n < S`, `n = 0` and `S = 1` (left sequential) are correct.
    Loops that do not have this shape are left as they are.

    On a target with TMA and wgmma, a loop at the top level of its launch
    whose GEMMs all run on wgmma and whose producers copy rank-2 tensor
    regions into tiles a TMA box can fill is warp-specialized instead
    (passes/Pipeliner/WarpSpecialize.cpp): a `tile.warp_specialize` whose
    producer issues the copies as TMA copies completing on `full`
    mbarriers and whose consumers wait on them, compute, and release the
    stage on `empty` mbarriers, with the schedule above as the fallback
    for tensors TMA cannot copy (`tile.tma_ready`); the launch becomes
    persistent (both roles loop over the block's tiles, `tile.tile_loop`).
    With `clusters`, such a launch whose blocks in one column of the grid
    load the same region for a producer runs in clusters of two blocks that
    load it once (TMA multicast).
  }];
  let options = [
    Option<"clusters", "clusters", "bool", /*default=*/"false",
           "Run warp-specialized launches in thread-block clusters with "
           "TMA multicast where they qualify">,
  ];
}

#endif // TILEC_PASSES_PASSES_TD
