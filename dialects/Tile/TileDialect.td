//===- TileDialect.td - The tile dialect -------------------*- tablegen -*-===//
//
// The `tile` dialect: tile-level GPU kernels (TileLang's primitives) before
// layout inference, pipelining and lowering to NVVM.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECTS_TILE_TILEDIALECT_TD
#define TILEC_DIALECTS_TILE_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Tile-level GPU kernels: buffers by memory scope, tile copies, "
                "tensor-core GEMM, reductions and thread-parallel loops";
  let description = [{
    A `tile.kernel` is one GPU kernel written at thread-block level, as in
    TileLang: buffers carry their memory scope (global, shared, fragment,
    local), `tile.copy` moves whole tiles, `tile.gemm` multiplies tiles on
    tensor cores and `tile.parallel` is an elementwise loop nest that the
    compiler maps to the block's threads. Scalar code uses `arith` and `math`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
  let discardableAttrs = (ins
    // Argument attributes of `tile.kernel`: the source name of an argument,
    // the symbolic shape and element type of a tensor, and the byte
    // alignment its base pointer is guaranteed (see docs/abi.md).
    "::mlir::StringAttr":$name,
    "::mlir::ArrayAttr":$shape,
    "::mlir::StringAttr":$dtype,
    "::mlir::IntegerAttr":$alignment,
    // The compile-time parameters a kernel was made with.
    "::mlir::DictionaryAttr":$constants,
    // The target of a module (see #tile.target).
    "::mlir::tile::TargetAttr":$target,
    // What the code generator emitted for a module's kernels, in operations.
    "::mlir::IntegerAttr":$codegen_cost,
    // The bytes of dynamic shared memory a kernel's `tile.alloc_shared`
    // tiles take together (set by tile-allocate-shared-memory).
    "::mlir::IntegerAttr":$shared_memory_bytes
  );
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Registers the dialect's types (defined in TileTypes.cpp).
    void registerTypes();
  }];
}

/// Base class of every op of the tile dialect.
class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILEC_DIALECTS_TILE_TILEDIALECT_TD
