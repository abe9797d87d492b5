//===- TileLayoutAttrs.td - Layouts of the tile dialect ----*- tablegen -*-===//
//
// Layout attributes: where the elements of a fragment live (which thread,
// which register), set by `tile-infer-layouts` in the layout slot of the
// fragment's `!tile.buffer` type and on the `tile.parallel` loops that
// access it. The layout maths is in TileLayouts.cpp; heuristics (which
// layout to choose) belong to the passes, never to these attributes.
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

#endif // TILEC_DIALECTS_TILE_TILELAYOUTATTRS_TD
