//===- TileInterfaces.td - Interfaces of the tile dialect --*- tablegen -*-===//
//
// The op and attribute interfaces that passes program against instead of
// enumerating ops: element accesses (`tile.load`, `tile.store`) and
// distributed layouts (how a fragment's or a parallel loop's elements map to
// the block's threads and their registers).
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

#endif // TILEC_DIALECTS_TILE_TILEINTERFACES_TD
