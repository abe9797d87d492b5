// RUN: tile-opt %s --pass-pipeline='builtin.module(tile.kernel(tile-infer-layouts))' --split-input-file --verify-diagnostics

tile.kernel @fragment_outside_parallel(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %F = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
    %c0 = arith.constant 0 : index
    // expected-error @below {{'tile.load' op of a fragment outside a 'tile.parallel' loop is not supported by the code generator}}
    %x = tile.load %F[%c0] : !tile.buffer<128xf32, fragment>
  }
}

// -----

tile.kernel @accumulator_broadcast(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    // expected-note @below {{the layout #tile.mma<warps_m = 2, warps_n = 2> is needed here}}
    tile.gemm %a, %b, %c : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    tile.parallel (%i) in [64] {
      // expected-error @below {{'tile.load' op needs the layout #tile.replicated for a fragment, which conflicts with the layout #tile.mma<warps_m = 2, warps_n = 2> that another use needs}}
      %x = tile.load %c[%i, %i] : !tile.buffer<64x64xf32, fragment>
      tile.store %x, %A[%i] : !tile.buffer<?xf32, global>
    }
  }
}

// -----

tile.kernel @nested_parallel(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    tile.parallel (%i) in [128] {
      // expected-error @below {{'tile.parallel' op nested inside another 'tile.parallel' is not supported by the code generator}}
      tile.parallel (%j) in [4] {
      }
    }
  }
}

// -----

tile.kernel @gemm_split(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<16x32xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<16x64xf32, fragment>
    // expected-error @below {{'tile.gemm' op cannot split the [16, 64] accumulator over 4 warps with policy 'full_row' into 16 x 8 mma.sync tiles}}
    tile.gemm %a, %b, %c {policy = #tile.policy<full_row>} : !tile.buffer<16x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<16x64xf32, fragment>
  }
}

// -----

tile.kernel @gemm_k(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x8xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<8x64xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    // expected-error @below {{'tile.gemm' op reduction extent 8 must be a multiple of 16 (mma.sync m16n8k16)}}
    tile.gemm %a, %b, %c : !tile.buffer<64x8xf16, shared>, !tile.buffer<8x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  }
}

// -----

tile.kernel @gemm_types(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x32xf32, shared>
    %b = tile.alloc_shared : !tile.buffer<32x64xf32, shared>
    %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    // expected-error @below {{'tile.gemm' op with 'f32' inputs is not supported by the code generator yet (mma.sync takes f16 and bf16)}}
    tile.gemm %a, %b, %c : !tile.buffer<64x32xf32, shared>, !tile.buffer<32x64xf32, shared>, !tile.buffer<64x64xf32, fragment>
  }
}

// -----

tile.kernel @gemm_b_registers(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %b = tile.alloc_fragment : !tile.buffer<32x64xf16, fragment>
    %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    // expected-error @below {{'tile.gemm' op with B in registers is not supported by the code generator (B must be a shared tile)}}
    tile.gemm %a, %b, %c : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, fragment>, !tile.buffer<64x64xf32, fragment>
  }
}

// -----

tile.kernel @gemm_a_registers_transposed(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %a = tile.alloc_fragment : !tile.buffer<32x64xf16, fragment>
    %b = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    // expected-error @below {{'tile.gemm' op with A in registers cannot transpose A}}
    tile.gemm %a, %b, %c {transpose_a = true} : !tile.buffer<32x64xf16, fragment>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  }
}

// -----

// A in registers needs whole rows per warp; the GEMM that produced it split
// its accumulator 2 x 2 (policy square), so the two layouts conflict.
tile.kernel @gemm_a_registers_square(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %q = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %k = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
    %v = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
    %s = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    %p = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment>
    %o = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    // expected-note @below {{the layout #tile.mma<warps_m = 2, warps_n = 2> is needed here}}
    tile.gemm %q, %k, %s : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    tile.copy %s[], %p[] : !tile.buffer<64x64xf32, fragment>, !tile.buffer<64x64xf16, fragment>
    // expected-error @below {{'tile.gemm' op needs the layout #tile.mma<warps_m = 4, warps_n = 1> for a fragment, which conflicts with the layout #tile.mma<warps_m = 2, warps_n = 2> that another use needs}}
    tile.gemm %p, %v, %o : !tile.buffer<64x64xf16, fragment>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  }
}
