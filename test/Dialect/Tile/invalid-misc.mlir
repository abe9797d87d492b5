// RUN: tile-opt %s -split-input-file -verify-diagnostics

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %v = tile.alloc_var : !tile.buffer<f32, local>
    // expected-error @+1 {{'tile.use_swizzle' op panel size must be positive, got 0}}
    tile.use_swizzle 0
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{buffer must be a shared or fragment buffer, got a global buffer}}
    tile.annotate_layout %A {layout = #tile.layout<swizzled>} : !tile.buffer<?x?xf16, global>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    tile.parallel (%i) in [4] {
      // expected-error @+1 {{'tile.use_swizzle' op expects parent op to be one of 'tile.launch, tile.tile_loop'}}
      tile.use_swizzle 4
    }
  }
}

// -----

tile.kernel @k() {
  %c4 = arith.constant 4 : index
  tile.launch grid(%c4) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.use_swizzle' op needs a launch with a y dimension to rasterize, got a 1-D launch}}
    tile.use_swizzle 4
  }
}

// -----

tile.kernel @k() {
  %c4 = arith.constant 4 : index
  tile.launch grid(%c4, %c4) threads(128) as (%bx, %by) {
    %c2 = arith.constant 2 : index
    tile.serial %i to %c2 {
      // expected-note @+1 {{block index 1 used here}}
      %row = arith.muli %by, %c2 : index
    }
    // expected-error @+1 {{'tile.use_swizzle' op must come before every use of the block indices}}
    tile.use_swizzle 4
    %col = arith.muli %bx, %c2 : index
  }
}

// -----

tile.kernel @k() {
  %c4 = arith.constant 4 : index
  tile.launch grid(%c4, %c4) threads(128) as (%bx, %by) {
    // expected-note @+1 {{first given here}}
    tile.use_swizzle 4
    // expected-error @+1 {{'tile.use_swizzle' op is given more than once in a launch}}
    tile.use_swizzle 8
  }
}

// -----

func.func @stage_view(%t: !tile.buffer<3x64x32xf16, shared>, %i: index) {
  // expected-error @+1 {{'tile.stage_view' op result must be one stage of the source (its shape without the leading dimension, with the same element type and layout)}}
  %v = tile.stage_view %t[%i] : !tile.buffer<3x64x32xf16, shared> -> !tile.buffer<64x16xf16, shared>
  return
}
