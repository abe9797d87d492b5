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
      // expected-error @+1 {{'tile.use_swizzle' op expects parent op 'tile.launch'}}
      tile.use_swizzle 4
    }
  }
}
