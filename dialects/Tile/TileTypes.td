//===- TileTypes.td - Types of the tile dialect ------------*- tablegen -*-===//

#ifndef TILEC_DIALECTS_TILE_TILETYPES_TD
#define TILEC_DIALECTS_TILE_TILETYPES_TD

include "dialects/Tile/TileAttrs.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def Tile_BufferType : TypeDef<Tile_Dialect, "Buffer", [ShapedTypeInterface]> {
  let mnemonic = "buffer";
  let summary = "a tensor or tile with its memory scope";
  let description = [{
    `!tile.buffer<?x128xf16, global>` is a kernel's tensor argument (row-major,
    `?` for a symbolic dim); `!tile.buffer<128x32xf16, shared>` a shared-memory
    tile; `!tile.buffer<128x128xf32, fragment>` a register tile distributed over
    the block's threads; `!tile.buffer<4xf32, local>` a per-thread array and
    `!tile.buffer<f32, local>` a per-thread scalar. An optional layout attribute
    follows the scope. Only global buffers may have symbolic dims.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::tile::MemoryScope":$scope,
                        OptionalParameter<"::mlir::Attribute">:$layout);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType, "::mlir::tile::MemoryScope":$scope,
        CArg<"::mlir::Attribute", "{}">:$layout), [{
      return $_get(elementType.getContext(), shape, elementType, scope, layout);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 0;
  let extraClassDeclaration = [{
    /// Buffers are always ranked (rank 0 for scalars).
    bool hasRank() const { return true; }
    /// Returns a buffer of the same scope and layout with another shape or
    /// element type.
    BufferType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                         ::mlir::Type elementType) const;
    /// Returns true if the buffer lives in global memory.
    bool isGlobal() const { return getScope() == MemoryScope::Global; }
    /// Returns true if the buffer lives in shared memory.
    bool isShared() const { return getScope() == MemoryScope::Shared; }
    /// Returns true if the buffer is a register tile spread over the block.
    bool isFragment() const { return getScope() == MemoryScope::Fragment; }
    /// Returns true if the buffer is a per-thread array or scalar.
    bool isLocal() const { return getScope() == MemoryScope::Local; }
  }];
}

#endif // TILEC_DIALECTS_TILE_TILETYPES_TD
