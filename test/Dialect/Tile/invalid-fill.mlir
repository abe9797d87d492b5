// RUN: tile-opt %s -split-input-file -verify-diagnostics

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %v = arith.constant 1.0 : f16
    // expected-error @+1 {{buffer must be a shared or fragment or local buffer, got a global buffer}}
    tile.fill %A, %v : !tile.buffer<?x?xf16, global>, f16
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %f = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
    %v = arith.constant 1.0 : f16
    // expected-error @+1 {{value type 'f16' differs from the element type 'f32'}}
    tile.fill %f, %v : !tile.buffer<4xf32, fragment>, f16
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{buffer must be a shared or fragment or local buffer, got a global buffer}}
    tile.clear %A : !tile.buffer<?x?xf16, global>
  }
}
