// RUN: tile-opt %s -split-input-file -verify-diagnostics

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{extent 1 must be positive, got 0}}
    tile.parallel (%i, %j) in [4, 0] {
    }
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{body must have one index per extent}}
    "tile.parallel"() <{extents = array<i64: 4, 4>}> ({
    ^bb0(%i: index):
      "tile.yield"() : () -> ()
    }) : () -> ()
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{stages must be between 1 and 8, got 0}}
    tile.pipelined %k to %M stages 0 {
    }
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{trip count must be a compile-time constant}}
    tile.unroll %u to %M {
    }
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-note @+1 {{prior use here}}
    %c = arith.constant 1 : i32
    // expected-error @+1 {{use of value '%c' expects different type than prior uses: 'i1' vs 'i32'}}
    tile.if %c {
    }
  }
}
