// RUN: tile-opt %s --pass-pipeline='builtin.module(tile-set-target{arch=sm_80},tile.kernel(tile-check-codegen-support))' --split-input-file --verify-diagnostics

// Every unsupported op gets its own located error.
tile.kernel @gemm(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                  %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1, %c1) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    %B_s = tile.alloc_shared : !tile.buffer<32x128xf16, shared>
    %C = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    %R = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
    tile.use_swizzle 10
    // An annotated shared tile is supported: tile-infer-layouts honours it.
    tile.annotate_layout %A_s {layout = #tile.layout<swizzled>} : !tile.buffer<128x32xf16, shared>
    // A pipelined loop is supported; what it holds is checked.
    tile.pipelined %k to %K stages 3 {
      %c0 = arith.constant 0 : index
      // A copy into shared memory and a GEMM on shared tiles are supported.
      tile.copy %A[%c0, %c0], %A_s[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x32xf16, shared>
      tile.gemm %A_s, %B_s, %C : !tile.buffer<128x32xf16, shared>, !tile.buffer<32x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
    }
    // A reduction is supported.
    tile.reduce %C, %R {kind = #tile.reduce_kind<max>, dim = 1 : i64} : !tile.buffer<128x128xf32, fragment>, !tile.buffer<128xf32, fragment>
    // A print is supported.
    tile.print "done"
  }
}

// -----

// Ops of other dialects are rejected as well.
tile.kernel @foreign(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                     %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(32) as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'scf.execute_region' is not supported by the sm_80 code generator yet}}
    scf.execute_region {
      scf.yield
    }
  }
}

// -----

// Element types without a lowering are rejected where they appear.
// expected-error @below {{element type 'f8E4M3FN' is not supported by the sm_80 code generator yet}}
tile.kernel @fp8(%A: !tile.buffer<?xf8E4M3FN, global> {tile.name = "A", tile.shape = ["N"]},
                 %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(32) as (%bx) {
    // expected-error @below {{element type 'i4' is not supported by the sm_80 code generator yet}}
    %v = tile.alloc_var : !tile.buffer<i4, local>
  }
}

// -----

// Fragments are accessed only inside parallel loops (at any index: those
// not indexed as a loop distributes them are replicated).
tile.kernel @fragments(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                       %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(32) as (%bx) {
    %F = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
    %c0 = arith.constant 0 : index
    tile.parallel (%i) in [64] {
      %x = tile.load %A[%i] : !tile.buffer<?xf32, global>
      tile.store %x, %F[%i] : !tile.buffer<64xf32, fragment>
      %y = tile.load %F[%c0] : !tile.buffer<64xf32, fragment>
    }
    // expected-error @below {{'tile.load' of a fragment outside a 'tile.parallel' loop (shape [64]) is not supported by the sm_80 code generator yet}}
    %z = tile.load %F[%c0] : !tile.buffer<64xf32, fragment>
  }
}

// -----

// Supported kernels pass without diagnostics.
tile.kernel @supported(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                       %N: index {tile.name = "N"}, %s: f32 {tile.name = "s"}) {
  tile.launch grid(%N) threads(32) as (%bx) {
    %F = tile.alloc_fragment : !tile.buffer<32xf32, fragment>
    %L = tile.alloc_local : !tile.buffer<4xf32, local>
    %v = tile.alloc_var : !tile.buffer<i32, local>
    tile.clear %F : !tile.buffer<32xf32, fragment>
    tile.fill %L, %s : !tile.buffer<4xf32, local>, f32
    %c2 = arith.constant 2 : index
    tile.unroll %u to %c2 {
      tile.serial %w to %N {
        %c = arith.cmpi ult, %u, %w : index
        tile.if %c {
          tile.parallel (%i) in [32] {
            %x = tile.load %A[%i] : !tile.buffer<?xf32, global>
            %y = math.exp %x : f32
            tile.store %y, %F[%i] : !tile.buffer<32xf32, fragment>
          }
        }
      }
    }
  }
}
