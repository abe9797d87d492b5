// RUN: tile-opt %s -split-input-file -verify-diagnostics

tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<16x64xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    // expected-error @+1 {{reduction extents differ: A [64, 32] has K = 32, B [16, 64] has K = 16}}
    tile.gemm %a, %b, %c : !tile.buffer<64x32xf16, shared>, !tile.buffer<16x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<64x32xf32, fragment>
    // expected-error @+1 {{C has shape [64, 32] but A x B is [64, 64]}}
    tile.gemm %a, %b, %c : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x32xf32, fragment>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<32x64xbf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    // expected-error @+1 {{A and B element types differ: 'f16' vs 'bf16'}}
    tile.gemm %a, %b, %c : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xbf16, shared>, !tile.buffer<64x64xf32, fragment>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x32xf64, shared>
    %b = tile.alloc_shared : !tile.buffer<32x64xf64, shared>
    %c = tile.alloc_fragment : !tile.buffer<64x64xf64, fragment>
    // expected-error @+1 {{unsupported input element type 'f64' (expected f16, bf16, f32, i8, f8E4M3FN or f8E5M2)}}
    tile.gemm %a, %b, %c : !tile.buffer<64x32xf64, shared>, !tile.buffer<32x64xf64, shared>, !tile.buffer<64x64xf64, fragment>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x32xi8, shared>
    %b = tile.alloc_shared : !tile.buffer<32x64xi8, shared>
    %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    // expected-error @+1 {{accumulator element type 'f32' does not match inputs of type 'i8' (expected i32)}}
    tile.gemm %a, %b, %c : !tile.buffer<64x32xi8, shared>, !tile.buffer<32x64xi8, shared>, !tile.buffer<64x64xf32, fragment>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    // expected-error @+1 {{reduction extents differ: A [64, 32] has K = 32, B [64, 32] has K = 64}}
    tile.gemm %a, %b, %c : !tile.buffer<64x32xf16, shared>, !tile.buffer<64x32xf16, shared>, !tile.buffer<64x64xf32, fragment>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x32x2xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    // expected-error @+1 {{A, B and C must be rank-2 tiles, got shapes [64, 32, 2], [32, 64] and [64, 64]}}
    tile.gemm %a, %b, %c : !tile.buffer<64x32x2xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %c = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
    // expected-error @+1 {{C must be a fragment buffer, got a shared buffer}}
    tile.gemm %a, %a, %c {transpose_b = true} : !tile.buffer<64x32xf16, shared>, !tile.buffer<64x32xf16, shared>, !tile.buffer<64x64xf32, shared>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    // expected-error @+1 {{A must be a shared or fragment buffer, got a global buffer}}
    tile.gemm %A, %A, %c : !tile.buffer<?x?xf16, global>, !tile.buffer<?x?xf16, global>, !tile.buffer<64x64xf32, fragment>
  }
}
