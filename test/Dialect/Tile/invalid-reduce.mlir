// RUN: tile-opt %s -split-input-file -verify-diagnostics

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %s = tile.alloc_fragment : !tile.buffer<64x32xf32, fragment>
    %d = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
    // expected-error @+1 {{dim 2 is out of range for a rank-2 source}}
    tile.reduce %s, %d {kind = #tile.reduce_kind<sum>, dim = 2 : i64} : !tile.buffer<64x32xf32, fragment>, !tile.buffer<64xf32, fragment>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %s = tile.alloc_fragment : !tile.buffer<64x32xf32, fragment>
    %d = tile.alloc_fragment : !tile.buffer<32xf32, fragment>
    // expected-error @+1 {{target shape [32] must be [64] (source [64, 32] reduced along dim 1)}}
    tile.reduce %s, %d {kind = #tile.reduce_kind<max>, dim = 1 : i64} : !tile.buffer<64x32xf32, fragment>, !tile.buffer<32xf32, fragment>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %s = tile.alloc_fragment : !tile.buffer<64x32xf32, fragment>
    %d = tile.alloc_fragment : !tile.buffer<64xi32, fragment>
    // expected-error @+1 {{source element type 'f32' and target element type 'i32' must both be float or integer}}
    tile.reduce %s, %d {kind = #tile.reduce_kind<sum>, dim = 1 : i64} : !tile.buffer<64x32xf32, fragment>, !tile.buffer<64xi32, fragment>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %d = tile.alloc_fragment : !tile.buffer<64xf16, fragment>
    // expected-error @+1 {{source must be a fragment or shared buffer, got a global buffer}}
    tile.reduce %A, %d {kind = #tile.reduce_kind<sum>, dim = 1 : i64} : !tile.buffer<?x?xf16, global>, !tile.buffer<64xf16, fragment>
  }
}
