//===- TileInterfaces.td - Interfaces of the tile dialect --*- tablegen -*-===//
//
// The op and attribute interfaces that passes program against instead of
// enumerating ops: element accesses (`tile.load`, `tile.store`), distributed
// layouts (how a fragment's or a parallel loop's elements map to the block's
// threads and their registers) and shared-memory layouts (where a shared
// tile's elements lie in its buffer).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECTS_TILE_TILEINTERFACES_TD
#define TILEC_DIALECTS_TILE_TILEINTERFACES_TD

include "mlir/IR/OpBase.td"

def Tile_AccessOpInterface : OpInterface<"AccessOpInterface"> {
  let cppNamespace = "::mlir::tile";
  let description = [{
    An op that reads or writes one element of a buffer, addressed by one
    index per dimension of the buffer.
  }];
  let methods = [
    InterfaceMethod<"Returns the accessed buffer.", "::mlir::Value",
                    "getBuffer">,
    InterfaceMethod<"Returns the element's indices, outermost first.",
                    "::mlir::OperandRange", "getIndices">,
    InterfaceMethod<"Returns true if the op writes the element.", "bool",
                    "isWrite">,
  ];
}

def Tile_DistributedLayoutAttrInterface
    : AttrInterface<"DistributedLayoutAttrInterface"> {
  let cppNamespace = "::mlir::tile";
  let description = [{
    A layout that distributes the elements of a tile of a given shape over
    the `threads` threads of a block: thread `t` holds
    `getElementsPerThread(shape, threads)` registers, and register `r` of
    thread `t` is the element at `getElementCoordinates(...)`, or no element
    (a padding register of a partial step).
  }];
  let methods = [
    InterfaceMethod<"Returns how many registers each thread needs.",
                    "int64_t", "getElementsPerThread",
                    (ins "::llvm::ArrayRef<int64_t>":$shape,
                         "int64_t":$threads)>,
    InterfaceMethod<[{
        Returns the coordinates (outermost first) of the element that
        register `reg` of thread `thread` holds, or std::nullopt if it holds
        none.
      }], "std::optional<::llvm::SmallVector<int64_t>>",
      "getElementCoordinates",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "int64_t":$threads,
           "int64_t":$thread, "int64_t":$reg)>,
  ];
}

def Tile_SharedLayoutAttrInterface
    : AttrInterface<"SharedLayoutAttrInterface"> {
  let cppNamespace = "::mlir::tile";
  let description = [{
    A layout of a shared-memory tile: where element `(c0, ..., cn)` of a
    tile of a given static shape lies in the tile's buffer, as an element
    offset. The tile is seen as rows of its innermost extent `W` (the leading
    dimensions flattened row-major into the row index), each row contiguous.
    The offset is computed once in C++ (`getElementOffset`, for passes and
    tests) and once as `arith` ops on `index` values (`emitElementOffset`,
    for the lowering); both compute the same function.
  }];
  let methods = [
    InterfaceMethod<[{
        Checks that the layout can hold a tile of `shape`; reports why not
        through `emitError`.
      }], "::llvm::LogicalResult", "verifyShape",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
           "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<[{
        Returns how many elements the buffer of a tile of `shape` spans
        (padding included).
      }], "int64_t", "getBufferSize", (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<[{
        Returns the offset, in elements from the start of the buffer, of the
        element at `coords` (outermost first, inside `shape`).
      }], "int64_t", "getElementOffset",
      (ins "::llvm::ArrayRef<int64_t>":$shape,
           "::llvm::ArrayRef<int64_t>":$coords)>,
    InterfaceMethod<[{
        Emits at the builder's insertion point the `index` arithmetic that
        computes `getElementOffset(shape, coords)` from the `index` values
        `coords` (outermost first); ops on constants are folded.
      }], "::mlir::Value", "emitElementOffset",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::llvm::ArrayRef<int64_t>":$shape, "::mlir::ValueRange":$coords)>,
  ];
}

#endif // TILEC_DIALECTS_TILE_TILEINTERFACES_TD
