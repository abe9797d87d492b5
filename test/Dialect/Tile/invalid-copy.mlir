// RUN: tile-opt %s -split-input-file -verify-diagnostics

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %s = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    // expected-error @+1 {{at most one operand may be indexed with a region origin}}
    tile.copy %A[%bx, %bx], %s[%bx, %bx] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x32xf16, shared>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{cannot copy from global to global memory}}
    tile.copy %A[%bx, %bx], %A[] : !tile.buffer<?x?xf16, global>, !tile.buffer<?x?xf16, global>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %s = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    // expected-error @+1 {{source region origin needs 2 indices, got 1}}
    tile.copy %A[%bx], %s[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x32xf16, shared>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %s = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    // expected-error @+1 {{target region origin needs 2 indices, got 3}}
    tile.copy %s[], %A[%bx, %bx, %bx] : !tile.buffer<128x32xf16, shared>, !tile.buffer<?x?xf16, global>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %s = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    // expected-error @+1 {{copy extent must be static; index the global tensor with the region origin}}
    tile.copy %A[], %s[%bx, %bx] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x32xf16, shared>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %s = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    %f = tile.alloc_fragment : !tile.buffer<32x128xf16, fragment>
    // expected-error @+1 {{source shape [128, 32] and target shape [32, 128] differ}}
    tile.copy %s[], %f[] : !tile.buffer<128x32xf16, shared>, !tile.buffer<32x128xf16, fragment>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %s = tile.alloc_shared : !tile.buffer<2x128x32xf16, shared>
    // expected-error @+1 {{region rank 3 exceeds the rank 2 of the indexed operand}}
    tile.copy %A[%bx, %bx], %s[] : !tile.buffer<?x?xf16, global>, !tile.buffer<2x128x32xf16, shared>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %s = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    %f = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment>
    // expected-error @+1 {{region extent [64, 64] does not fit the indexed operand of shape [128, 32]}}
    tile.copy %s[%bx, %bx], %f[] : !tile.buffer<128x32xf16, shared>, !tile.buffer<64x64xf16, fragment>
  }
}
