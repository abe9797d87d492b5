//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//

#ifndef TILEC_DIALECTS_TILE_TILEOPS_TD
#define TILEC_DIALECTS_TILE_TILEOPS_TD

include "dialects/Tile/TileInterfaces.td"
include "dialects/Tile/TileLayoutAttrs.td"
include "dialects/Tile/TileTypes.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// The block's shared memory as a side-effect resource (TileEffects.h).
def Tile_SharedMemoryResource
    : Resource<"::mlir::tile::SharedMemoryResource">;
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

def Tile_Buffer : Type<CPred<"::llvm::isa<::mlir::tile::BufferType>($_self)">,
                       "tile buffer", "::mlir::tile::BufferType">;

//===----------------------------------------------------------------------===//
// Terminators
//===----------------------------------------------------------------------===//

def Tile_ReturnOp : Tile_Op<"return", [Pure, Terminator, HasParent<"KernelOp">]> {
  let summary = "ends a kernel body";
  let assemblyFormat = "attr-dict";
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator,
    ParentOneOf<["LaunchOp", "ParallelOp", "PipelinedOp", "SerialOp",
                 "UnrollOp", "IfOp", "WarpSpecializeOp", "TileLoopOp"]>]> {
  let summary = "ends the body of a launch, loop, conditional or role";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Kernel and launch
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [FunctionOpInterface, IsolatedFromAbove,
    Symbol, SingleBlockImplicitTerminator<"ReturnOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a GPU kernel";
  let description = [{
    Arguments follow the kernel ABI: tensors (`!tile.buffer<..., global>`,
    declaration order), then symbolic dims (`index`, order of first
    appearance), then runtime scalars. Every argument has a `tile.name`
    attribute; tensors also a `tile.shape` array whose entries are dim names
    (strings) or constant extents (integers). `tile.constants` holds the
    resolved compile-time parameters. The body holds the grid computation and
    one `tile.launch`.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    /// Name of the attribute holding an argument's source name.
    static ::llvm::StringRef getArgNameAttrName() {
      return TileDialect::NameAttrHelper::getNameStr();
    }
    /// Name of the attribute holding a tensor argument's symbolic shape.
    static ::llvm::StringRef getArgShapeAttrName() {
      return TileDialect::ShapeAttrHelper::getNameStr();
    }
    /// Name of the attribute holding the resolved compile-time parameters.
    static ::llvm::StringRef getConstantsAttrName() {
      return TileDialect::ConstantsAttrHelper::getNameStr();
    }

    /// Returns the source name of argument `index`.
    ::llvm::StringRef getArgName(unsigned index);
    /// Returns the kernel's single launch op, or null if it has none.
    LaunchOp getLaunch();

    //===------------------------------------------------------------------===//
    // FunctionOpInterface
    //===------------------------------------------------------------------===//
    /// Returns the argument types of the kernel.
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    /// Returns the result types of the kernel (always empty).
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// Returns the kernel body.
    ::mlir::Region *getCallableRegion() { return &getBody(); }
  }];
}

def Tile_LaunchOp : Tile_Op<"launch", [SingleBlockImplicitTerminator<"YieldOp">,
    HasParent<"KernelOp">]> {
  let summary = "the launch of a kernel's thread blocks";
  let description = [{
    `tile.launch grid(%gx, %gy) threads(128) as (%bx, %by) { ... }` runs its
    body once per thread block of a grid of one to three dimensions; the body
    is written at thread-block level and its arguments are the block indices.
  }];
  let arguments = (ins Variadic<Index>:$grid, I64Attr:$threads);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::mlir::ValueRange":$grid, "int64_t":$threads)>];
  let extraClassDeclaration = [{
    /// Returns the block-index arguments of the body.
    ::mlir::Block::BlockArgListType getBlockIndices() {
      return getBody().front().getArguments();
    }
    /// Returns the body's `tile.warp_specialize`, or null.
    WarpSpecializeOp getWarpSpecialize();
    /// Returns the threads of a block: `threads`, plus the producer threads
    /// of a `tile.warp_specialize`.
    int64_t getBlockThreads();
  }];
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

class Tile_AllocOp<string mnemonic, string summaryText>
    : Tile_Op<mnemonic> {
  let summary = summaryText;
  let results = (outs Tile_Buffer:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_AllocSharedOp
    : Tile_AllocOp<"alloc_shared", "a shared-memory tile"> {
  let description = [{
    A tile in the block's shared memory. `tile-allocate-shared-memory`
    places every shared tile of a kernel in the kernel's one dynamic
    shared-memory arena and records where in the optional `offset`
    attribute (bytes from the start of the arena), e.g.
    `tile.alloc_shared {offset = 1024 : i64} : !tile.buffer<128x32xf16, shared>`.
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset);
}
def Tile_AllocFragmentOp
    : Tile_AllocOp<"alloc_fragment",
                   "a register tile distributed over the block's threads">;
def Tile_AllocLocalOp
    : Tile_AllocOp<"alloc_local", "a per-thread array">;
def Tile_AllocVarOp
    : Tile_AllocOp<"alloc_var", "a per-thread scalar variable">;

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

def Tile_LoadOp : Tile_Op<"load", [Tile_AccessOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"result type is the buffer's element type", "buffer",
                   "result", "::llvm::cast<BufferType>($_self).getElementType()">]> {
  let summary = "reads one element of a buffer";
  let description = [{
    On a global tensor, an index outside the tensor reads 0.
  }];
  let arguments = (ins Tile_Buffer:$buffer, Variadic<Index>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$buffer `[` $indices `]` attr-dict `:` qualified(type($buffer))";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// AccessOpInterface: a load reads.
    bool isWrite() { return false; }
  }];
}

def Tile_StoreOp : Tile_Op<"store", [Tile_AccessOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"value type is the buffer's element type", "buffer",
                   "value", "::llvm::cast<BufferType>($_self).getElementType()">]> {
  let summary = "writes one element of a buffer";
  let description = [{
    On a global tensor, a write outside the tensor is dropped.
  }];
  let arguments = (ins AnyType:$value, Tile_Buffer:$buffer, Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $buffer `[` $indices `]` attr-dict `:` qualified(type($buffer))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// AccessOpInterface: a store writes.
    bool isWrite() { return true; }
  }];
}

//===----------------------------------------------------------------------===//
// Tile operations
//===----------------------------------------------------------------------===//

def Tile_CopyOp : Tile_Op<"copy", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "copies a tile between memory scopes";
  let description = [{
    `tile.copy %A[%i, %j], %A_s[]` copies the region of `%A` whose origin is
    `(%i, %j)` and whose extent is the static shape of `%A_s`, aligned to the
    trailing dims of `%A` (leading dims of the indexed side have extent 1).
    At most one side is indexed; with none, both shapes are equal. Reads
    outside a global tensor give 0; writes outside it are dropped.

    With `async` (set by `tile-pipeline-loops` on copies into shared
    memory), the copy is only started: it completes in the group the next
    `tile.async_commit` closes, which a `tile.async_wait` awaits.

    With a `barrier` (`barrier %full[%s]`, set by `tile-pipeline-loops` in
    the producer of a `tile.warp_specialize`), the copy is a tensor-memory
    (TMA) copy issued by the one thread that runs it: it adds the tile's
    bytes to the transaction count of mbarrier `%s` of the rank-1 tile
    `%full`, arrives on it, and starts the copy, which completes on it
    (a `tile.mbarrier_wait` awaits it). Elements outside the tensor read
    as 0. With `{multicast}` (in a `tile.warp_specialize` with `cluster N`,
    N > 1), the region is the same for every block of the cluster and each
    block loads 1/N of its rows (rank r the r-th band of each TMA box) into
    the tile of every block of the cluster, completing on each block's
    mbarrier `%s`; the arrival adds the whole tile's bytes, as without it.

    With `staged %C_s` (set by `tile-pipeline-loops` on the epilogue of the
    consumers of a `tile.warp_specialize`), a whole rank-2 fragment is
    stored into a rank-2 global tensor region through the shared tile
    `%C_s` and TMA stores: `%C_s` holds a band of the fragment's rows (all
    its columns, in the tensor's element type, in a layout a TMA box reads);
    for each band, the threads wait until the previous TMA store has read
    `%C_s`, write the band into it, and consumer thread 0 starts the TMA
    store, which completes asynchronously (`tile.tma_store_wait`). Elements
    outside the tensor are not written.
  }];
  let arguments = (ins Tile_Buffer:$source, Variadic<Index>:$sourceIndices,
                       Tile_Buffer:$target, Variadic<Index>:$targetIndices,
                       Optional<Tile_Buffer>:$barrier,
                       Optional<Index>:$barrierIndex,
                       Optional<Tile_Buffer>:$staging,
                       UnitAttr:$async, UnitAttr:$multicast);
  let assemblyFormat = [{
    $source `[` $sourceIndices `]` `,` $target `[` $targetIndices `]`
    (`barrier` $barrier^ `[` $barrierIndex `]` `:` qualified(type($barrier)))?
    (`staged` $staging^ `:` qualified(type($staging)))?
    attr-dict `:` qualified(type($source)) `,` qualified(type($target))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Returns the static extent of the copied region.
    ::llvm::ArrayRef<int64_t> getExtent();
    /// Verifies the barrier of a TMA copy.
    ::llvm::LogicalResult verifyBarrier();
    /// Verifies the staging tile of a TMA store.
    ::llvm::LogicalResult verifyStaging();
  }];
}

def Tile_GemmOp : Tile_Op<"gemm", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "C += op(A) x op(B) on tensor cores";
  let description = [{
    A and B are shared or fragment tiles, C a fragment. With `transpose_a`,
    A is [K, M]; with `transpose_b`, B is [N, K]. `clear` zeroes C first.
    `policy` says how the block's warps split C.

    `async` (set by tile-pipeline-loops) lets the GEMM end while its
    tensor-core work is still in flight, where the path allows it (wgmma:
    the GEMM waits for the previous async GEMM of the thread instead of for
    itself); C, and the shared tiles A and B, must not be touched by
    anything but a later GEMM until a later synchronous GEMM has waited for
    it.
  }];
  let arguments = (ins Tile_Buffer:$a, Tile_Buffer:$b, Tile_Buffer:$c,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_b,
                       DefaultValuedAttr<Tile_GemmPolicyAttr,
                           "::mlir::tile::GemmPolicy::Square">:$policy,
                       DefaultValuedAttr<BoolAttr, "false">:$clear,
                       UnitAttr:$async);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` qualified(type($a)) `,` qualified(type($b))
    `,` qualified(type($c))
  }];
  let hasVerifier = 1;
}

def Tile_FillOp : Tile_Op<"fill", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "sets every element of a shared, fragment or local tile";
  let arguments = (ins Tile_Buffer:$buffer, AnyType:$value);
  let assemblyFormat = "$buffer `,` $value attr-dict `:` qualified(type($buffer)) `,` type($value)";
  let hasVerifier = 1;
}

def Tile_ClearOp : Tile_Op<"clear", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "sets every element of a shared, fragment or local tile to 0";
  let arguments = (ins Tile_Buffer:$buffer);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($buffer))";
  let hasVerifier = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "reduces a tile along one dimension";
  let description = [{
    The target's shape is the source's with `dim` removed (or set to 1; a
    rank-1 source reduces into a [1] tile). With `clear = false` the result is
    combined with the target's previous contents.

    `scratch`, added by `tile-plan-reductions`, is the rank-1 shared tile
    where the block's threads exchange partial results (see
    passes/Analysis/ReductionPlan.h); a reduction that needs no exchange has
    none.
  }];
  let arguments = (ins Tile_Buffer:$source, Tile_Buffer:$target,
                       Optional<Tile_Buffer>:$scratch,
                       Tile_ReduceKindAttr:$kind, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "true">:$clear);
  let assemblyFormat = [{
    $source `,` $target (`scratch` `(` $scratch^ `:` qualified(type($scratch)) `)`)?
    attr-dict `:` qualified(type($source)) `,` qualified(type($target))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Software pipelining (made by tile-pipeline-loops)
//===----------------------------------------------------------------------===//

def Tile_StageViewOp : Tile_Op<"stage_view", [Pure]> {
  let summary = "one stage of a multi-buffered shared tile";
  let description = [{
    `%v = tile.stage_view %buf[%i] : !tile.buffer<3x128x32xf16, shared, L>
    -> !tile.buffer<128x32xf16, shared, L>` is stage `%i` of a shared tile
    that `tile-pipeline-loops` multi-buffered along a new leading dimension;
    the stage has the tile's layout.
  }];
  let arguments = (ins Tile_Buffer:$source, Index:$stage);
  let results = (outs Tile_Buffer:$result);
  let assemblyFormat = [{
    $source `[` $stage `]` attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_AsyncCommitOp : Tile_Op<"async_commit",
    [MemoryEffects<[MemWrite<Tile_SharedMemoryResource>]>]> {
  let summary = "closes the group of this thread's started async copies";
  let assemblyFormat = "attr-dict";
}

def Tile_AsyncWaitOp : Tile_Op<"async_wait",
    [MemoryEffects<[MemRead<Tile_SharedMemoryResource>,
                    MemWrite<Tile_SharedMemoryResource>]>]> {
  let summary = "waits until at most `pending` of this thread's async copy "
                "groups are still in flight";
  let description = [{
    Only the calling thread's copies are awaited: a `tile.barrier` must
    follow before other threads read the data.
  }];
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "$pending attr-dict";
}

def Tile_BarrierOp : Tile_Op<"barrier",
    [MemoryEffects<[MemRead<Tile_SharedMemoryResource>,
                    MemWrite<Tile_SharedMemoryResource>]>]> {
  let summary = "waits for every thread of the block (bar.sync 0)";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Warp-specialized pipelines (made by tile-pipeline-loops on TMA targets)
//===----------------------------------------------------------------------===//

def Tile_MbarrierInitOp : Tile_Op<"mbarrier_init",
    [MemoryEffects<[MemWrite<Tile_SharedMemoryResource>]>]> {
  let summary = "initializes a rank-1 shared tile of mbarriers";
  let description = [{
    `tile.mbarrier_init %full count 2 : !tile.buffer<4xi64, shared>` sets
    every mbarrier of the tile to phase 0, expecting `count` arrivals per
    phase. Every thread of the block runs it, at launch level before any
    `tile.warp_specialize` (one thread initializes, then the block waits).
  }];
  let arguments = (ins Tile_Buffer:$barriers, I64Attr:$count);
  let assemblyFormat = [{
    $barriers `count` $count attr-dict `:` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def Tile_MbarrierWaitOp : Tile_Op<"mbarrier_wait",
    [MemoryEffects<[MemRead<Tile_SharedMemoryResource>,
                    MemWrite<Tile_SharedMemoryResource>]>]> {
  let summary = "waits for a phase of an mbarrier to complete";
  let description = [{
    `tile.mbarrier_wait %full[%s], %parity` returns once the phase of
    mbarrier `%s` whose parity is `%parity` (0 or 1) has completed, i.e. the
    barrier's current phase has the other parity: right after
    initialization, parity 1 counts as completed. The copies that completed
    on the barrier are visible to the waiting thread.
  }];
  let arguments = (ins Tile_Buffer:$barriers, Index:$index, Index:$parity);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` $parity attr-dict `:`
    qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def Tile_MbarrierArriveOp : Tile_Op<"mbarrier_arrive",
    [MemoryEffects<[MemRead<Tile_SharedMemoryResource>,
                    MemWrite<Tile_SharedMemoryResource>]>]> {
  let summary = "each warp that runs it arrives on an mbarrier once";
  let description = [{
    `tile.mbarrier_arrive %empty[%s]`: once every thread of a warp has
    reached it, one of them arrives for the warp; the warp's earlier
    accesses of shared memory happen before the completion of the
    barrier's phase. All threads of a warp run it together.

    With `{cluster}` (in a `tile.warp_specialize` with `cluster N`, N > 1),
    the warp arrives on mbarrier `%s` of every block of its cluster.
  }];
  let arguments = (ins Tile_Buffer:$barriers, Index:$index,
                       UnitAttr:$cluster);
  let assemblyFormat = [{
    $barriers `[` $index `]` attr-dict `:` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def Tile_TmaReadyOp : Tile_Op<"tma_ready", [Pure]> {
  let summary = "true if TMA can copy from every given global tensor";
  let description = [{
    `%ok = tile.tma_ready %A, %B : ...` is true when each tensor meets the
    rules of tensor-memory copies (docs/runtime.md): its address is 16-byte
    aligned, every extent is in [1, 2^32] and every row is a multiple of 16
    bytes. Where it is false, the runtime passes no usable tensor map for
    the tensor and the kernel takes its `cp.async` path.
  }];
  let arguments = (ins Variadic<Tile_Buffer>:$tensors);
  let results = (outs I1:$result);
  let assemblyFormat = "$tensors attr-dict `:` qualified(type($tensors))";
  let hasVerifier = 1;
}

def Tile_TmaStoreWaitOp : Tile_Op<"tma_store_wait",
    [MemoryEffects<[MemRead<Tile_SharedMemoryResource>,
                    MemWrite<DefaultResource>]>]> {
  let summary = "waits until the thread's TMA stores have completed";
  let description = [{
    `tile.tma_store_wait` returns once every TMA store that the thread
    started (the `staged` copies) has written global memory and finished
    reading shared memory. The consumers of a persistent
    `tile.warp_specialize` run it before they end.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Tile_WarpSpecializeOp : Tile_Op<"warp_specialize", [
    HasParent<"LaunchOp">, NoRegionArguments,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a producer role and a consumer role of a thread block";
  let description = [{
    `tile.warp_specialize producer_threads 128 { producer } consumer {
    consumer }` adds `producer_threads` threads (whole warpgroups) to the
    launch's block, after the launch's own threads. One thread of them runs
    the producer region (the loads of a pipelined loop: TMA copies and
    mbarrier waits); the others do nothing. The launch's threads run the
    consumer region, the rest of the launch body, as if the producer
    threads did not exist (barriers among them count only them). The two
    roles synchronize through mbarriers only. It ends the launch body.

    With `persistent`, each role loops over the tiles of the launch grid
    that its block takes (`tile.tile_loop`), and the runtime launches at
    most as many blocks as the device keeps resident (metadata
    `launch.persistent`).

    With `consumer_groups G` (default 1), the block has G groups of the
    launch's threads before the producer threads, and each group runs the
    consumer region on its own: inside it, thread indices count from 0 in
    each group, `tile.barrier` waits for the group's threads only (named
    barrier 1 + g of group g), and `tile.consumer_group` is the group's
    number g. Shared tiles are the block's: the region must keep the groups
    apart (`tile.stage_view` of a tile with one stage per group, turns
    taken through `tile.named_barrier`).

    With `cluster N` (default 1; a persistent launch only), the runtime
    launches the blocks in thread-block clusters of N (metadata
    `launch.cluster`), and the N blocks of a cluster take N tiles of one
    column of the grid together: tiles (x, N q + r) for r = 0..N-1, r the
    block's rank in its cluster (`tile.tile_loop`), so that a producer copy
    whose region does not depend on the y block index is the same for all
    of them and is loaded once for the cluster (`tile.copy ... {multicast}`).
    Where the grid has fewer rows than that, a block computes a tile below
    the grid, whose loads read zeros and whose stores write nothing. The
    blocks of a cluster pass a cluster barrier after the mbarriers are
    initialized and again before they exit.
  }];
  let arguments = (ins I64Attr:$producer_threads, UnitAttr:$persistent,
                       DefaultValuedAttr<I64Attr, "1">:$consumer_groups,
                       DefaultValuedAttr<I64Attr, "1">:$cluster_blocks);
  let regions = (region SizedRegion<1>:$producer, SizedRegion<1>:$consumer);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "int64_t":$producerThreads)>];
  let extraClassDeclaration = [{
    /// The consumer threads of the block: the launch's threads per group
    /// times the groups.
    int64_t getConsumerThreads();
  }];
}

def Tile_TileLoopOp : Tile_Op<"tile_loop", [
    ParentOneOf<["WarpSpecializeOp", "IfOp"]>,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "the tiles of a persistent launch that this block takes";
  let description = [{
    `tile.tile_loop %i { ... }` runs its body once for each tile of the
    launch grid that the block takes: tiles b, b + B, b + 2B, ... below the
    grid's size, where b is the block's linear index and B the number of
    blocks launched; `%i` counts them from 0. Inside, the launch's block
    indices are those of the current tile (row-major over the grid: x
    fastest), so that the body may be the body of a non-persistent launch.
    Any number of blocks computes the whole grid.

    `tile.tile_loop %i from %f step 2 { ... }` runs the body for the tiles
    %i = %f, %f + 2, ... of that sequence only (a consumer group's share of
    the block's tiles).
  }];
  let arguments = (ins Optional<Index>:$first,
                       DefaultValuedAttr<I64Attr, "1">:$step);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins)>,
                  OpBuilder<(ins "::mlir::Value":$first, "int64_t":$step)>];
  let extraClassDeclaration = [{
    /// Returns the tile counter.
    ::mlir::BlockArgument getIteration() {
      return getBody().front().getArgument(0);
    }
  }];
}

def Tile_TileCountOp : Tile_Op<"tile_count", [Pure]> {
  let summary = "how many tiles of a persistent launch this block takes";
  let description = [{
    `%n = tile.tile_count` is the number of tiles of the launch grid that
    `tile.tile_loop` gives the block (in all its consumer groups together).
    Only in the roles of a persistent `tile.warp_specialize`.
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Tile_ConsumerGroupOp : Tile_Op<"consumer_group", [Pure]> {
  let summary = "the number of the consumer group running the region";
  let description = [{
    `%g = tile.consumer_group` is g, from 0 to G - 1, in the consumer region
    of a `tile.warp_specialize` with `consumer_groups G` (0 where G is 1).
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Tile_NamedBarrierOp : Tile_Op<"named_barrier",
    [MemoryEffects<[MemRead<Tile_SharedMemoryResource>,
                    MemWrite<Tile_SharedMemoryResource>]>]> {
  let summary = "a hardware barrier among some warps of the block";
  let description = [{
    `tile.named_barrier %id, 256` waits until `threads` threads (whole
    warps, the caller's among them) have reached hardware barrier `%id`;
    with `arrive`, the caller counts towards it and goes on
    (`bar.sync` / `bar.arrive`). Barrier 0 is the block's (`tile.barrier`),
    and 1 + g the one of consumer group g; `tile-pipeline-loops` hands the
    consumer groups their turns through the barriers after those.
  }];
  let arguments = (ins Index:$id, I64Attr:$threads, UnitAttr:$arrive);
  let assemblyFormat = "$id `,` $threads (`arrive` $arrive^)? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Loops and control flow
//===----------------------------------------------------------------------===//

def Tile_ParallelOp : Tile_Op<"parallel", [SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<LoopLikeOpInterface, ["getLoopInductionVars",
        "getLoopLowerBounds", "getLoopUpperBounds", "getLoopSteps"]>]> {
  let summary = "an elementwise loop nest mapped to the block's threads";
  let description = [{
    `tile.parallel (%i, %j) in [128, 64] { ... }` runs its body for every
    point of a static iteration space; iterations are independent and the
    compiler distributes and vectorizes them over the block's threads.
    `tile-infer-layouts` records how in the optional `layout` attribute
    (e.g. `#tile.flat<vec = 4>`), which every fragment the loop accesses
    shares.
  }];
  let arguments = (ins DenseI64ArrayAttr:$extents,
                       OptionalAttr<Tile_DistributedLayoutAttrInterface>:$layout);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::ArrayRef<int64_t>":$extents)>];
  let extraClassDeclaration = [{
    /// Returns the induction variables, outermost first.
    ::mlir::Block::BlockArgListType getInductionVars() {
      return getBody().front().getArguments();
    }
  }];
}

class Tile_CountedLoopOp<string mnemonic, string summaryText,
                         list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat(traits, [SingleBlockImplicitTerminator<"YieldOp">,
        DeclareOpInterfaceMethods<LoopLikeOpInterface, ["getLoopInductionVars",
            "getLoopLowerBounds", "getLoopUpperBounds", "getLoopSteps"]>])> {
  let summary = summaryText;
  let arguments = (ins Index:$upperBound);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$upperBound)>];
  let extraClassDeclaration = [{
    /// Returns the induction variable (counting from 0 by 1).
    ::mlir::BlockArgument getInductionVar() {
      return getBody().front().getArgument(0);
    }
  }];
  // LoopLikeOpInterface: one induction variable from 0 to the upper bound
  // by 1.
  let extraClassDefinition = [{
    ::llvm::SmallVector<::mlir::Region *> $cppClass::getLoopRegions() {
      return {&getBody()};
    }
    std::optional<::llvm::SmallVector<::mlir::Value>>
    $cppClass::getLoopInductionVars() {
      return ::llvm::SmallVector<::mlir::Value>{getInductionVar()};
    }
    std::optional<::llvm::SmallVector<::mlir::OpFoldResult>>
    $cppClass::getLoopLowerBounds() {
      return ::llvm::SmallVector<::mlir::OpFoldResult>{
          ::mlir::Builder(getContext()).getIndexAttr(0)};
    }
    std::optional<::llvm::SmallVector<::mlir::OpFoldResult>>
    $cppClass::getLoopUpperBounds() {
      return ::llvm::SmallVector<::mlir::OpFoldResult>{getUpperBound()};
    }
    std::optional<::llvm::SmallVector<::mlir::OpFoldResult>>
    $cppClass::getLoopSteps() {
      return ::llvm::SmallVector<::mlir::OpFoldResult>{
          ::mlir::Builder(getContext()).getIndexAttr(1)};
    }
  }];
}

def Tile_PipelinedOp : Tile_CountedLoopOp<"pipelined",
    "a software-pipelined loop over tile copies and GEMMs"> {
  let description = [{
    `tile.pipelined %k to %n stages 3 { ... }`: the copies of iteration k+s-1
    overlap the compute of iteration k.
  }];
  let arguments = (ins Index:$upperBound, I64Attr:$stages);
  let builders = [OpBuilder<(ins "::mlir::Value":$upperBound, "int64_t":$stages)>];
  let hasVerifier = 1;
}

def Tile_SerialOp : Tile_CountedLoopOp<"serial", "a sequential loop">;

def Tile_UnrollOp : Tile_CountedLoopOp<"unroll", "a sequential loop to unroll fully"> {
  let hasVerifier = 1;
}

def Tile_IfOp : Tile_Op<"if", [SingleBlockImplicitTerminator<"YieldOp">,
                               NoRegionArguments]> {
  let summary = "a conditional statement";
  let arguments = (ins I1:$condition);
  let regions = (region SizedRegion<1>:$thenRegion, MaxSizedRegion<1>:$elseRegion);
  let hasCustomAssemblyFormat = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$condition, "bool":$withElse)>];
}

//===----------------------------------------------------------------------===//
// Miscellaneous
//===----------------------------------------------------------------------===//

def Tile_PrintOp : Tile_Op<"print"> {
  let summary = "device printf of a message and an optional scalar";
  let arguments = (ins StrAttr:$message, Optional<AnyType>:$value);
  let assemblyFormat = "$message (`,` $value^ `:` type($value))? attr-dict";
  let hasVerifier = 1;
}

def Tile_UseSwizzleOp : Tile_Op<"use_swizzle",
    [ParentOneOf<["LaunchOp", "TileLoopOp"]>]> {
  let summary = "rasterize thread blocks in panels for L2 reuse";
  let description = [{
    `tile.use_swizzle 10` renumbers the blocks of a launch with a y dimension
    from this point on (TileLang's default `rasterization2DRow`): the block
    launched as (bx, by) of a gx x gy grid works on tile (x, y) where, with
    panel k = by / 10 of h = min(10, gy - 10k) rows and o = (by - 10k) * gx +
    bx, x = o / h (gx - 1 - o / h when k is odd) and y = 10k + o % h. It is a
    bijection of the grid; z is left alone. No use of the block indices may
    precede it in its block (the launch body, or the body of a
    `tile.tile_loop`), and a block has at most one.
  }];
  let arguments = (ins I64Attr:$panel);
  let assemblyFormat = "$panel attr-dict";
  let hasVerifier = 1;
}

def Tile_AnnotateLayoutOp : Tile_Op<"annotate_layout"> {
  let summary = "overrides the inferred layout of a shared or fragment tile";
  let arguments = (ins Tile_Buffer:$buffer, Tile_LayoutAttr:$layout);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($buffer))";
  let hasVerifier = 1;
}

#endif // TILEC_DIALECTS_TILE_TILEOPS_TD
