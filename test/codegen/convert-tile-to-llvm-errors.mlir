// RUN: tile-opt %s --convert-tile-to-llvm --split-input-file --verify-diagnostics

tile.kernel @no_mapping(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                        %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    // expected-error @below {{'tile.parallel' op has no thread mapping; run -tile-assign-thread-mapping first}}
    tile.parallel (%i) in [128] {
      %x = tile.load %A[%i] : !tile.buffer<?xf32, global>
    }
  }
}

// -----

tile.kernel @bad_width(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                       %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    // expected-error @below {{'tile.parallel' op vector width 4 must be a power of two dividing the innermost extent}}
    tile.parallel (%i) in [6] attributes {tile.vector_width = 4 : i64} {
      %x = tile.load %A[%i] : !tile.buffer<?xf32, global>
    }
  }
}

// -----

tile.kernel @fragment_mismatch(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                               %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %F = tile.alloc_fragment {tile.vector_width = 2 : i64} : !tile.buffer<128xf32, fragment>
    tile.parallel (%i) in [128] attributes {tile.vector_width = 4 : i64} {
      // expected-error @below {{'tile.load' op accesses a fragment whose thread mapping differs from its loop's; run -tile-assign-thread-mapping}}
      %x = tile.load %F[%i] : !tile.buffer<128xf32, fragment>
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
