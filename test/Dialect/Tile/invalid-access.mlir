// RUN: tile-opt %s -split-input-file -verify-diagnostics

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{expected 2 indices for a rank-2 buffer, got 1}}
    %x = tile.load %A[%bx] : !tile.buffer<?x?xf16, global>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %v = arith.constant 1.0 : f16
    // expected-error @+1 {{expected 2 indices for a rank-2 buffer, got 3}}
    tile.store %v, %A[%bx, %bx, %bx] : !tile.buffer<?x?xf16, global>
  }
}
