//===- TileAttrs.td - Attributes of the tile dialect -------*- tablegen -*-===//

#ifndef TILEC_DIALECTS_TILE_TILEATTRS_TD
#define TILEC_DIALECTS_TILE_TILEATTRS_TD

include "dialects/Tile/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_MemoryScope : I32EnumAttr<"MemoryScope", "where a buffer lives", [
    I32EnumAttrCase<"Global", 0, "global">,
    I32EnumAttrCase<"Shared", 1, "shared">,
    I32EnumAttrCase<"Fragment", 2, "fragment">,
    I32EnumAttrCase<"Local", 3, "local">]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "combining function of a reduction", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"AbsSum", 3, "abssum">,
    I32EnumAttrCase<"AbsMax", 4, "absmax">]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

def Tile_ReduceKindAttr : EnumAttr<Tile_Dialect, Tile_ReduceKind, "reduce_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

def Tile_GemmPolicy : I32EnumAttr<"GemmPolicy", "how a GEMM's warps split the C tile", [
    I32EnumAttrCase<"Square", 0, "square">,
    I32EnumAttrCase<"FullRow", 1, "full_row">,
    I32EnumAttrCase<"FullCol", 2, "full_col">]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

def Tile_GemmPolicyAttr : EnumAttr<Tile_Dialect, Tile_GemmPolicy, "policy"> {
  let assemblyFormat = "`<` $value `>`";
}

def Tile_LayoutKind : I32EnumAttr<"LayoutKind", "shared/fragment layout family", [
    I32EnumAttrCase<"Linear", 0, "linear">,
    I32EnumAttrCase<"Swizzled", 1, "swizzled">,
    I32EnumAttrCase<"Padded", 2, "padded">]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

def Tile_LayoutAttr : AttrDef<Tile_Dialect, "Layout"> {
  let mnemonic = "layout";
  let summary = "a buffer layout chosen by the user or by layout inference";
  let description = [{
    `#tile.layout<linear>` is row-major; `#tile.layout<swizzled>` is the
    XOR-swizzled shared-memory layout; `#tile.layout<padded>` pads rows to
    avoid bank conflicts. Layout inference refines these later.
  }];
  let parameters = (ins EnumParameter<Tile_LayoutKind>:$kind);
  let assemblyFormat = "`<` $kind `>`";
}

def Tile_TargetAttr : AttrDef<Tile_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "the GPU architecture and PTX ISA version code is made for";
  let description = [{
    `#tile.target<"sm_90a", ptx = 83>` names a row of the target table
    (compiler/Target.h) and the PTX ISA version (two digits). It sits on the
    module as the discardable attribute `tile.target`; every pass that
    depends on the target reads it (`tile::getTarget`) and asks for
    capabilities (`hasFeature(TargetFeature::Wgmma)`), never for names.
  }];
  let parameters = (ins StringRefParameter<"architecture name">:$arch,
                        "unsigned":$ptx);
  let assemblyFormat = "`<` $arch `,` `ptx` `=` $ptx `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The target table's row of the architecture.
    const ::tilec::TargetDescription &getDescription() const;
    /// Returns true if the target has `feature`.
    bool hasFeature(::tilec::TargetFeature feature) const {
      return getDescription().has(feature);
    }
  }];
}

#endif // TILEC_DIALECTS_TILE_TILEATTRS_TD
