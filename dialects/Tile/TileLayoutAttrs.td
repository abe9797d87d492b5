//===- TileLayoutAttrs.td - Layouts of the tile dialect ----*- tablegen -*-===//
//
// Layout attributes: where the elements of a fragment live (which thread,
// which register), set by `tile-infer-layouts` in the layout slot of the
// fragment's `!tile.buffer` type and on the `tile.parallel` loops that
// access it; and where the elements of a shared tile lie in its buffer
// (swizzled or padded rows), in the layout slot of the shared buffer's type.
// The layout maths is in TileLayouts.cpp; heuristics (which layout to
// choose) belong to the passes, never to these attributes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECTS_TILE_TILELAYOUTATTRS_TD
#define TILEC_DIALECTS_TILE_TILELAYOUTATTRS_TD

include "dialects/Tile/TileDialect.td"
include "dialects/Tile/TileInterfaces.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_FlatLayoutAttr : AttrDef<Tile_Dialect, "FlatLayout",
    [DeclareAttrInterfaceMethods<Tile_DistributedLayoutAttrInterface>]> {
  let mnemonic = "flat";
  let summary = "the elementwise layout: row-major, vec consecutive elements "
                "per thread and step";
  let description = [{
    `#tile.flat<vec = 4>` flattens a tile (or a parallel loop's iteration
    space) of `N` elements row-major and distributes it over the block's `T`
    threads in steps: in step `s` thread `t` holds the `vec` consecutive
    elements `(s*T + t)*vec ... (s*T + t)*vec + vec-1`, in its registers
    `s*vec ... s*vec + vec-1`; there are `ceil(N / (T*vec))` steps. `vec` is a
    power of two; on a tile it must divide the innermost extent.
  }];
  let parameters = (ins "int64_t":$vec);
  let assemblyFormat = "`<` `vec` `=` $vec `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The distribution of `numElements` flat elements over `threads`
    /// threads.
    FlatDistribution distribute(int64_t numElements, int64_t threads) const;
  }];
}

def Tile_MmaLayoutAttr : AttrDef<Tile_Dialect, "MmaLayout",
    [DeclareAttrInterfaceMethods<Tile_DistributedLayoutAttrInterface>]> {
  let mnemonic = "mma";
  let summary = "the accumulator layout of mma.sync m16n8k16 over a grid of "
                "warps";
  let description = [{
    `#tile.mma<warps_m = 2, warps_n = 2>` splits an `M x N` tile over a
    `warps_m x warps_n` grid of warps (warp `w` at row `w / warps_n`, column
    `w % warps_n`), each owning an `(M / warps_m) x (N / warps_n)` warp tile
    of `16 x 8` mma.sync accumulator tiles. Register `r` of a lane is element
    `i = r % 4` of accumulator tile `r / 4` (row-major over the warp tile's
    `16 x 8` tiles); with `g = lane / 4` and `t = lane % 4` it holds row
    `16 * m + g + 8 * (i / 2)`, column `8 * n + 2 * t + i % 2` of the warp
    tile (PTX ISA, mma.m16n8k16 fragment C). The tile's shape must divide
    into `16 warps_m x 8 warps_n` pieces and the block must have
    `32 * warps_m * warps_n` threads.

    `#tile.mma<warps_m = 4, warps_n = 2, warpgroup = true>` is the
    accumulator layout of wgmma (sm_90a): the warps are numbered down the
    columns of the grid (warp `w` at row `w % warps_m`, column
    `w / warps_m`, so that each group of 4 consecutive warps, a warpgroup,
    covers 64 consecutive rows) and the 16-row accumulator tiles of a warp
    are interleaved with those of the other warps of its column: accumulator
    tile `m` of the warp at row `r` holds tile rows `16 * (m * warps_m + r)`
    to `16 * (m * warps_m + r) + 15`. A warpgroup's `m`-th tiles together
    are the `64 x (N / warps_n)` result of one `wgmma.mma_async.m64nNk16`,
    whose fragment D has this register order (PTX ISA, wgmma register
    fragments). `warps_m` must be a multiple of 4.
  }];
  let parameters = (ins "int64_t":$warpsM, "int64_t":$warpsN,
                        DefaultValuedParameter<"bool", "false">:$warpgroup);
  let assemblyFormat = [{
    `<` `warps_m` `=` $warpsM `,` `warps_n` `=` $warpsN
    (`,` `warpgroup` `=` $warpgroup^)? `>`
  }];
  let builders = [
    AttrBuilder<(ins "int64_t":$warpsM, "int64_t":$warpsN), [{
      return $_get($_ctxt, warpsM, warpsN, /*warpgroup=*/false);
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The warp tiles of a tile of `shape`, or failure if the layout does
    /// not apply to it (the shape does not divide into 16 x 8 tiles per
    /// warp).
    ::mlir::FailureOr<MmaTiling> getTiling(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

def Tile_ReplicatedLayoutAttr : AttrDef<Tile_Dialect, "ReplicatedLayout",
    [DeclareAttrInterfaceMethods<Tile_DistributedLayoutAttrInterface>]> {
  let mnemonic = "replicated";
  let summary = "every thread holds the whole tile";
  let description = [{
    `#tile.replicated` gives every thread of the block its own copy of the
    whole tile: register `r` of every thread holds the element whose
    row-major index is `r`. It is the layout of small fragments that every
    thread reads at any index, such as a reduction's result (`m[0]` in a
    loop over the row being normalized): the threads keep their copies
    equal by computing the same values. A `tile.parallel` loop in this
    layout runs every iteration in every thread, and an element it stores
    into shared or global memory is stored by one thread only.
  }];
}

def Tile_SliceLayoutAttr : AttrDef<Tile_Dialect, "SliceLayout",
    [DeclareAttrInterfaceMethods<Tile_DistributedLayoutAttrInterface>]> {
  let mnemonic = "slice";
  let summary = "a row or column vector laid out as the rows or columns of "
                "an accumulator";
  let description = [{
    `#tile.slice<#tile.mma<warps_m = 8, warps_n = 1>, dim = 1>` lays out a
    rank-1 tile as the result of reducing a rank-2 tile in the parent
    `#tile.mma` layout along `dim`: every thread holds the elements of the
    rows (`dim = 1`) or columns (`dim = 0`) its parent registers hold, once
    each. With `g = lane / 4` and `t = lane % 4` (MmaTiling), register `r`
    of a lane holds, for `dim = 1`, row `g + 8 * (r % 2)` of the warp's
    `m = r / 2`-th 16-row accumulator tile (2 registers per 16-row tile),
    and for `dim = 0` column `2 * t + r % 2` of its `n = r / 2`-th 8-column
    tile (2 per 8-column tile). Register `r` of the
    parent holds, in the slice, register `2 * m + (r % 4) / 2` (`dim = 1`)
    or `2 * n + r % 2` (`dim = 0`) of its accumulator tile `(m, n)`. So a
    parallel loop over the parent's tile reads a row statistic `m[i]` (or a
    column vector `v[j]`) from the thread's own registers, as
    FlashAttention's row maximum and sum are held. An element is held by
    several threads (the 4 lanes of a quad and every warp column for
    `dim = 1`); they keep their copies equal by computing the same values,
    and one of them stores it to memory.
  }];
  let parameters = (ins "MmaLayoutAttr":$parent, "int64_t":$dim);
  let assemblyFormat = "`<` qualified($parent) `,` `dim` `=` $dim `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The parent's tiling of the rank-2 tiles whose slice along `dim` is a
    /// tile of `shape` (their other extent does not matter), or failure if
    /// the layout does not apply to it.
    ::mlir::FailureOr<MmaTiling> getParentTiling(::llvm::ArrayRef<int64_t> shape) const;
    /// The slice register that register `parentReg` of a tile in the
    /// parent layout, cut as `tiling`, reads its row (column) from.
    int64_t getSliceRegister(const MmaTiling &tiling, int64_t parentReg) const;
    /// True if `shape` is the slice along `dim` of `parentShape`.
    bool isSliceOf(::llvm::ArrayRef<int64_t> shape,
                   ::llvm::ArrayRef<int64_t> parentShape) const;
  }];
}

def Tile_SwizzledLayoutAttr : AttrDef<Tile_Dialect, "SwizzledLayout",
    [DeclareAttrInterfaceMethods<Tile_SharedLayoutAttrInterface>]> {
  let mnemonic = "swizzled";
  let summary = "a shared-memory tile whose vectors are XOR-swizzled per row";
  let description = [{
    `#tile.swizzled<vec = 8, per_phase = 1, max_phase = 8>` stores a tile as
    rows of its innermost extent `W` (leading dimensions flattened row-major
    into the row `r`), each row contiguous and dense, with the vectors of
    `vec` elements of each row permuted: element `(r, c)` is stored at row
    `r`, column `((c / vec) ^ ((r / per_phase) % max_phase)) * vec + c % vec`,
    i.e. at element offset `r * W + (c ^ (((r / per_phase) % max_phase) *
    vec))`. This is Triton's `swizzled_shared` layout and CuTe's
    `Swizzle<log2 max_phase, log2 vec, log2(W * per_phase / vec)>`. All three
    parameters are powers of two; `W` must be a multiple of
    `vec * max_phase`, so that every row is permuted within itself.

    With `panel = P` (a multiple of `vec * max_phase` that divides `W`), the
    last two dimensions `R x W` are cut into `W / P` column panels of
    `R x P`, stored one after the other (leading dimensions outermost), each
    swizzled as above with rows of `P`: element `(b, r, c)` is at offset
    `b * R * W + (c / P) * R * P + r * P + (c % P ^ (((r / per_phase) %
    max_phase) * vec))`. With 128-byte panels this is the layout that TMA
    boxes of 128-byte rows write and wgmma descriptors describe (the
    128-byte swizzle mode, `addr[6:4] ^= addr[9:7]`).
  }];
  let parameters = (ins "int64_t":$vec, "int64_t":$per_phase,
                        "int64_t":$max_phase,
                        DefaultValuedParameter<"int64_t", "0">:$panel);
  let assemblyFormat = [{
    `<` `vec` `=` $vec `,` `per_phase` `=` $per_phase `,` `max_phase` `=`
    $max_phase (`,` `panel` `=` $panel^)? `>`
  }];
  let builders = [
    AttrBuilder<(ins "int64_t":$vec, "int64_t":$per_phase,
                     "int64_t":$max_phase), [{
      return $_get($_ctxt, vec, per_phase, max_phase, /*panel=*/0);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The panel width for a tile whose rows are `rowWidth` elements: the
    /// whole row without a `panel` parameter.
    int64_t getPanelWidth(int64_t rowWidth) const {
      return getPanel() ? getPanel() : rowWidth;
    }
    /// How a wgmma descriptor describes a `rows x width` tile of
    /// `elementBytes`-byte elements in this layout (rows of K when
    /// `contiguousIsK` is false, rows of M or N otherwise), or std::nullopt
    /// if no descriptor can: the panels must be one swizzle span (32, 64
    /// or 128 bytes) wide, swizzled in 16-byte vectors as that mode does,
    /// with a multiple of 8 rows.
    std::optional<WgmmaOperandLayout>
    describeForWgmma(int64_t rows, int64_t width, int64_t elementBytes,
                     bool contiguousIsK) const;
  }];
  let genVerifyDecl = 1;
}

def Tile_PaddedLayoutAttr : AttrDef<Tile_Dialect, "PaddedLayout",
    [DeclareAttrInterfaceMethods<Tile_SharedLayoutAttrInterface>]> {
  let mnemonic = "padded";
  let summary = "a shared-memory tile whose rows are padded";
  let description = [{
    `#tile.padded<pad = 8>` stores a tile as rows of its innermost extent `W`
    (leading dimensions flattened row-major into the row `r`), `pad` unused
    elements after each row: element `(r, c)` is at offset `r * (W + pad) +
    c`. `pad = 0` is the plain row-major layout.
  }];
  let parameters = (ins "int64_t":$pad);
  let assemblyFormat = "`<` `pad` `=` $pad `>`";
  let genVerifyDecl = 1;
}

#endif // TILEC_DIALECTS_TILE_TILELAYOUTATTRS_TD
