// RUN: tile-opt %s --convert-tile-to-llvm --split-input-file --verify-diagnostics

tile.kernel @no_layout(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                        %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    // expected-error @below {{'tile.parallel' op has no #tile.flat layout; run -tile-infer-layouts first}}
    tile.parallel (%i) in [128] {
      %x = tile.load %A[%i] : !tile.buffer<?xf32, global>
    }
  }
}

// -----

tile.kernel @bad_width(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                       %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    // expected-error @below {{'tile.parallel' op layout #tile.flat<vec = 4> needs a vector width dividing the innermost extent}}
    tile.parallel (%i) in [6] attributes {layout = #tile.flat<vec = 4>} {
      %x = tile.load %A[%i] : !tile.buffer<?xf32, global>
    }
  }
}

// -----

tile.kernel @fragment_mismatch(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                               %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %F = tile.alloc_fragment : !tile.buffer<128xf32, fragment, #tile.flat<vec = 2>>
    tile.parallel (%i) in [128] attributes {layout = #tile.flat<vec = 4>} {
      // expected-error @below {{'tile.load' op accesses a fragment whose layout differs from its loop's; run -tile-infer-layouts}}
      %x = tile.load %F[%i] : !tile.buffer<128xf32, fragment, #tile.flat<vec = 2>>
    }
  }
}

// -----

// An unrolled loop longer than a kernel may be, even with an empty body.
tile.kernel @endless_unroll(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                            %N: index {tile.name = "N"}) {
  %big = arith.constant 4611686018427387904 : index
  tile.launch grid(%N) threads(32) as (%bx) {
    // expected-error @below {{kernel 'endless_unroll' is too large for the code generator: more than 32768 operations once its loops are unrolled}}
    tile.unroll %u to %big {
    }
  }
}
