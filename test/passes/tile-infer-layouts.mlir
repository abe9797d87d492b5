// RUN: tile-opt %s --pass-pipeline='builtin.module(tile.kernel(tile-infer-layouts))' --split-input-file | FileCheck %s

// f32 accesses at `bx * 1024 + i` take 16-byte vectors: 4 lanes.
// CHECK-LABEL: tile.kernel @f32_contiguous
// CHECK: tile.parallel (%{{.*}}) in [1024] attributes {layout = #tile.flat<vec = 4>}
tile.kernel @f32_contiguous(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                            %C: !tile.buffer<?xf32, global> {tile.name = "C", tile.shape = ["N"]},
                            %N: index {tile.name = "N"}) {
  %c1024 = arith.constant 1024 : index
  %g = arith.ceildivsi %N, %c1024 : index
  tile.launch grid(%g) threads(256) as (%bx) {
    tile.parallel (%i) in [1024] {
      %base = arith.muli %bx, %c1024 : index
      %idx = arith.addi %base, %i : index
      %a = tile.load %A[%idx] : !tile.buffer<?xf32, global>
      tile.store %a, %C[%idx] : !tile.buffer<?xf32, global>
    }
  }
}

// -----

// An f16 load and an f32 store: the f16 access sets 8 lanes (the f32 store
// is then written as two 16-byte chunks).
// CHECK-LABEL: tile.kernel @mixed_widths
// CHECK: #tile.flat<vec = 8>
tile.kernel @mixed_widths(%X: !tile.buffer<?xf16, global> {tile.name = "X", tile.shape = ["N"]},
                          %Y: !tile.buffer<?xf32, global> {tile.name = "Y", tile.shape = ["N"]},
                          %N: index {tile.name = "N"}) {
  %c512 = arith.constant 512 : index
  %g = arith.ceildivsi %N, %c512 : index
  tile.launch grid(%g) threads(64) as (%bx) {
    tile.parallel (%i) in [512] {
      %base = arith.muli %bx, %c512 : index
      %idx = arith.addi %base, %i : index
      %x = tile.load %X[%idx] : !tile.buffer<?xf16, global>
      %y = arith.extf %x : f16 to f32
      tile.store %y, %Y[%idx] : !tile.buffer<?xf32, global>
    }
  }
}

// -----

// A loop whose only contiguous access reads a shared tile (a row staged in
// shared memory, summed into a fragment) takes 16-byte vectors of it: 8 f16
// lanes, which the fragment shares; a transposed read is not contiguous and
// sets no width.
// CHECK-LABEL: tile.kernel @shared_contiguous
// CHECK: tile.alloc_fragment : !tile.buffer<1x4096xf32, fragment, #tile.flat<vec = 8>>
// CHECK: tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.flat<vec = 1>>
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [1, 4096] attributes {layout = #tile.flat<vec = 8>}
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [64, 64] attributes {layout = #tile.flat<vec = 1>}
tile.kernel @shared_contiguous() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(128) as (%bx) {
    %row = tile.alloc_shared : !tile.buffer<1x4096xf16, shared>
    %square = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
    %part = tile.alloc_fragment : !tile.buffer<1x4096xf32, fragment>
    %t = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    tile.parallel (%i, %j) in [1, 4096] {
      %x = tile.load %row[%i, %j] : !tile.buffer<1x4096xf16, shared>
      %y = arith.extf %x : f16 to f32
      tile.store %y, %part[%i, %j] : !tile.buffer<1x4096xf32, fragment>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %x = tile.load %square[%j, %i] : !tile.buffer<64x64xf16, shared>
      %y = arith.extf %x : f16 to f32
      tile.store %y, %t[%i, %j] : !tile.buffer<64x64xf32, fragment>
    }
  }
}

// -----

// The width must divide the innermost extent: 6 allows 2 lanes.
// CHECK-LABEL: tile.kernel @innermost_extent
// CHECK: #tile.flat<vec = 2>
tile.kernel @innermost_extent(%A: !tile.buffer<?x6xf32, global> {tile.name = "A", tile.shape = ["M", 6]},
                              %M: index {tile.name = "M"}) {
  %c32 = arith.constant 32 : index
  %g = arith.ceildivsi %M, %c32 : index
  tile.launch grid(%g) threads(32) as (%bx) {
    tile.parallel (%i, %j) in [32, 6] {
      %base = arith.muli %bx, %c32 : index
      %row = arith.addi %base, %i : index
      %a = tile.load %A[%row, %j] : !tile.buffer<?x6xf32, global>
      %b = arith.addf %a, %a : f32
      tile.store %b, %A[%row, %j] : !tile.buffer<?x6xf32, global>
    }
  }
}

// -----

// An offset that is not a multiple of the vector (i + 1), a stride (2 * i)
// and an index that is not affine (i % 7) are not contiguous: one lane.
// CHECK-LABEL: tile.kernel @not_vectorizable
// CHECK-COUNT-3: #tile.flat<vec = 1>
tile.kernel @not_vectorizable(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                              %N: index {tile.name = "N"}) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  tile.launch grid(%N) threads(128) as (%bx) {
    tile.parallel (%i) in [128] {
      %idx = arith.addi %i, %c1 : index
      %a = tile.load %A[%idx] : !tile.buffer<?xf32, global>
      %b = arith.addf %a, %a : f32
      tile.store %b, %A[%idx] : !tile.buffer<?xf32, global>
    }
    tile.parallel (%i) in [128] {
      %idx = arith.muli %i, %c2 : index
      %a = tile.load %A[%idx] : !tile.buffer<?xf32, global>
      %b = arith.addf %a, %a : f32
      tile.store %b, %A[%idx] : !tile.buffer<?xf32, global>
    }
    tile.parallel (%i) in [128] {
      %idx = arith.remui %i, %c7 : index
      %a = tile.load %A[%idx] : !tile.buffer<?xf32, global>
      %b = arith.addf %a, %a : f32
      tile.store %b, %A[%idx] : !tile.buffer<?xf32, global>
    }
  }
}

// -----

// A tensor alignment of 8 bytes limits f32 vectors to 2 lanes.
// CHECK-LABEL: tile.kernel @tensor_alignment
// CHECK: #tile.flat<vec = 2>
tile.kernel @tensor_alignment(%A: !tile.buffer<?xf32, global> {tile.alignment = 8 : i64, tile.name = "A", tile.shape = ["N"]},
                              %N: index {tile.name = "N"}) {
  %c256 = arith.constant 256 : index
  tile.launch grid(%N) threads(128) as (%bx) {
    tile.parallel (%i) in [256] {
      %base = arith.muli %bx, %c256 : index
      %idx = arith.addi %base, %i : index
      %a = tile.load %A[%idx] : !tile.buffer<?xf32, global>
      %b = arith.addf %a, %a : f32
      tile.store %b, %A[%idx] : !tile.buffer<?xf32, global>
    }
  }
}

// -----

// A loop that writes a per-thread variable runs its iterations one by one.
// CHECK-LABEL: tile.kernel @local_writes
// CHECK: #tile.flat<vec = 1>
tile.kernel @local_writes(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                          %N: index {tile.name = "N"}) {
  %c256 = arith.constant 256 : index
  tile.launch grid(%N) threads(128) as (%bx) {
    %v = tile.alloc_var : !tile.buffer<f32, local>
    tile.parallel (%i) in [256] {
      %base = arith.muli %bx, %c256 : index
      %idx = arith.addi %base, %i : index
      %a = tile.load %A[%idx] : !tile.buffer<?xf32, global>
      tile.store %a, %v[] : !tile.buffer<f32, local>
      %b = tile.load %v[] : !tile.buffer<f32, local>
      tile.store %b, %A[%idx] : !tile.buffer<?xf32, global>
    }
  }
}

// -----

// Loops sharing a fragment agree on the smallest width (4 from the f32 loop,
// not 8 from the f16 one), and the fragment records it. A fragment no loop
// accesses gets width 1. The fragment's layout is part of its type, so every
// access shows it.
// CHECK-LABEL: tile.kernel @shared_fragment
// CHECK: tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.flat<vec = 4>>
// CHECK: tile.alloc_fragment : !tile.buffer<16xf32, fragment, #tile.flat<vec = 1>>
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [64, 64] attributes {layout = #tile.flat<vec = 4>}
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [64, 64] attributes {layout = #tile.flat<vec = 4>}
tile.kernel @shared_fragment(%A: !tile.buffer<?x?xf32, global> {tile.name = "A", tile.shape = ["M", "N"]},
                             %C: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]},
                             %M: index {tile.name = "M"}, %N: index {tile.name = "N"}) {
  %c64 = arith.constant 64 : index
  %gx = arith.ceildivsi %N, %c64 : index
  %gy = arith.ceildivsi %M, %c64 : index
  tile.launch grid(%gx, %gy) threads(128) as (%bx, %by) {
    %F = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    %unused = tile.alloc_fragment : !tile.buffer<16xf32, fragment>
    tile.clear %unused : !tile.buffer<16xf32, fragment>
    %r = arith.muli %by, %c64 : index
    %c = arith.muli %bx, %c64 : index
    tile.parallel (%i, %j) in [64, 64] {
      %row = arith.addi %r, %i : index
      %col = arith.addi %c, %j : index
      %a = tile.load %A[%row, %col] : !tile.buffer<?x?xf32, global>
      tile.store %a, %F[%i, %j] : !tile.buffer<64x64xf32, fragment>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %row = arith.addi %r, %i : index
      %col = arith.addi %c, %j : index
      %f = tile.load %F[%i, %j] : !tile.buffer<64x64xf32, fragment>
      %h = arith.truncf %f : f32 to f16
      tile.store %h, %C[%row, %col] : !tile.buffer<?x?xf16, global>
    }
  }
}

// -----

// A GEMM's accumulator gets the mma.sync layout; the policy splits the
// warps: square (2 x 2 for 4 warps on 128 x 128), full_row, full_col. A
// parallel loop over the accumulator adopts it.
// CHECK-LABEL: tile.kernel @gemm_policies
// CHECK: tile.alloc_fragment : !tile.buffer<128x128xf32, fragment, #tile.mma<warps_m = 2, warps_n = 2>>
// CHECK: tile.alloc_fragment : !tile.buffer<128x64xf32, fragment, #tile.mma<warps_m = 4, warps_n = 1>>
// CHECK: tile.alloc_fragment : !tile.buffer<64x128xf16, fragment, #tile.mma<warps_m = 1, warps_n = 4>>
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [128, 128] attributes {layout = #tile.mma<warps_m = 2, warps_n = 2>}
tile.kernel @gemm_policies(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "N"]},
                           %M: index {tile.name = "M"}, %N: index {tile.name = "N"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<32x128xf16, shared>
    %bn = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %am = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    %d = tile.alloc_fragment : !tile.buffer<128x64xf32, fragment>
    %e = tile.alloc_fragment : !tile.buffer<64x128xf16, fragment>
    tile.gemm %a, %b, %c : !tile.buffer<128x32xf16, shared>, !tile.buffer<32x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
    tile.gemm %a, %bn, %d {transpose_b = true, policy = #tile.policy<full_row>} : !tile.buffer<128x32xf16, shared>, !tile.buffer<64x32xf16, shared>, !tile.buffer<128x64xf32, fragment>
    tile.gemm %am, %b, %e {policy = #tile.policy<full_col>} : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x128xf16, shared>, !tile.buffer<64x128xf16, fragment>
    tile.parallel (%i, %j) in [128, 128] {
      %x = tile.load %c[%i, %j] : !tile.buffer<128x128xf32, fragment>
      %y = arith.mulf %x, %x : f32
      tile.store %y, %c[%i, %j] : !tile.buffer<128x128xf32, fragment>
    }
  }
}

// -----

// On a target with wgmma (sm_90a), an f32 accumulator over whole
// warpgroups whose shared operands a wgmma descriptor describes gets the
// warpgroup layout: 2 warpgroups side by side on 128 x 256 (square);
// B's 512-byte rows get 128-byte panels. An f16 accumulator, or an operand
// whose layout no descriptor describes (padded), keeps the mma.sync
// layout.
// CHECK-LABEL: tile.kernel @wgmma_selection
// CHECK: tile.alloc_shared : !tile.buffer<128x64xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8>>
// CHECK: tile.alloc_shared : !tile.buffer<64x256xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8, panel = 64>>
// CHECK: tile.alloc_shared : !tile.buffer<64x128xf16, shared, #tile.padded<pad = 8>>
// CHECK: tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8>>
// CHECK: tile.alloc_fragment : !tile.buffer<128x256xf32, fragment, #tile.mma<warps_m = 4, warps_n = 2, warpgroup = true>>
// CHECK: tile.alloc_fragment : !tile.buffer<128x64xf16, fragment, #tile.mma<warps_m = 4, warps_n = 2>>
// CHECK: tile.alloc_fragment : !tile.buffer<128x128xf32, fragment, #tile.mma<warps_m = 4, warps_n = 2>>
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @wgmma_selection(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "N"]},
                             %M: index {tile.name = "M"}, %N: index {tile.name = "N"}) {
  tile.launch grid(%M) threads(256) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x256xf16, shared>
    %bp = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %bq = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
    tile.annotate_layout %bp {layout = #tile.layout<padded>} : !tile.buffer<64x128xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
    %d = tile.alloc_fragment : !tile.buffer<128x64xf16, fragment>
    %e = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    tile.gemm %a, %b, %c : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x256xf16, shared>, !tile.buffer<128x256xf32, fragment>
    tile.gemm %a, %bq, %d {transpose_b = true} : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<128x64xf16, fragment>
    tile.gemm %a, %bp, %e : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
  }
}
}

// -----

// Shared tiles get the bank-conflict-free swizzle for their rows (128-byte
// rows: <8, 1, 8>; 64-byte rows: <8, 2, 4>), or the family annotate_layout
// asks for (padded: rows padded to an odd number of 16-byte chunks).
// CHECK-LABEL: tile.kernel @shared_layouts
// CHECK: tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8>>
// CHECK: tile.alloc_shared : !tile.buffer<128x32xf16, shared, #tile.swizzled<vec = 8, per_phase = 2, max_phase = 4>>
// CHECK: tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.padded<pad = 8>>
// Tiles of fewer than 8 rows (one period of the swizzle) stay plain: no
// ldmatrix or wgmma reads them, and a pipelined loop can stage them.
// CHECK: tile.alloc_shared : !tile.buffer<1x4096xf16, shared, #tile.padded<pad = 0>>
// CHECK: tile.alloc_shared : !tile.buffer<4x1024xf16, shared, #tile.padded<pad = 0>>
// CHECK: tile.alloc_shared : !tile.buffer<8x1024xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8, panel = 64>>
tile.kernel @shared_layouts(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    %c = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
    tile.annotate_layout %c {layout = #tile.layout<padded>} : !tile.buffer<64x64xf16, shared>
    %row = tile.alloc_shared : !tile.buffer<1x4096xf16, shared>
    %rows = tile.alloc_shared : !tile.buffer<4x1024xf16, shared>
    %band = tile.alloc_shared : !tile.buffer<8x1024xf16, shared>
  }
}

// -----

// Row statistics of an accumulator whose rows each lie in one warp
// (full_row: #tile.mma<warps_m = 4, warps_n = 1>) are held as its rows: the
// row maximum, the loop over it and the fragment it feeds take the slice
// along dim 1, as does a row vector read at [i] in the loop over the
// accumulator and a column vector read at [j] the slice along dim 0. The
// row maximum of a square split (warps_n = 2, rows across two warps) and a
// statistic read at a constant index stay replicated.
// CHECK-LABEL: tile.kernel @row_statistics
// CHECK: %[[C:.*]] = tile.alloc_fragment : !tile.buffer<128x64xf32, fragment, #tile.mma<warps_m = 4, warps_n = 1>>
// CHECK: tile.alloc_fragment : !tile.buffer<128xf32, fragment, #tile.slice<#tile.mma<warps_m = 4, warps_n = 1>, dim = 1>>
// CHECK: tile.alloc_fragment : !tile.buffer<128xf32, fragment, #tile.slice<#tile.mma<warps_m = 4, warps_n = 1>, dim = 1>>
// CHECK: tile.alloc_fragment : !tile.buffer<64xf32, fragment, #tile.slice<#tile.mma<warps_m = 4, warps_n = 1>, dim = 0>>
// CHECK: tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.mma<warps_m = 2, warps_n = 2>>
// CHECK: tile.alloc_fragment : !tile.buffer<64xf32, fragment, #tile.replicated>
// CHECK: tile.alloc_fragment : !tile.buffer<128xf32, fragment, #tile.replicated>
// CHECK: tile.parallel (%{{.*}}) in [128] attributes {layout = #tile.slice<#tile.mma<warps_m = 4, warps_n = 1>, dim = 1>}
// CHECK: tile.parallel (%{{.*}}) in [64] attributes {layout = #tile.slice<#tile.mma<warps_m = 4, warps_n = 1>, dim = 0>}
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [128, 64] attributes {layout = #tile.mma<warps_m = 4, warps_n = 1>}
tile.kernel @row_statistics(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                            %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
    %a64 = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x64xf32, fragment>
    %m = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
    %l = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
    %v = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
    %d = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    %n = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
    %r = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
    %c0 = arith.constant 0 : index
    tile.gemm %a, %b, %c {policy = #tile.policy<full_row>} : !tile.buffer<128x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<128x64xf32, fragment>
    tile.gemm %a64, %b, %d : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    tile.reduce %c, %m {kind = #tile.reduce_kind<max>, dim = 1 : i64} : !tile.buffer<128x64xf32, fragment>, !tile.buffer<128xf32, fragment>
    tile.reduce %d, %n {kind = #tile.reduce_kind<max>, dim = 1 : i64} : !tile.buffer<64x64xf32, fragment>, !tile.buffer<64xf32, fragment>
    tile.reduce %c, %r {kind = #tile.reduce_kind<sum>, dim = 1 : i64} : !tile.buffer<128x64xf32, fragment>, !tile.buffer<128xf32, fragment>
    tile.parallel (%i) in [128] {
      %x = tile.load %m[%i] : !tile.buffer<128xf32, fragment>
      %y = arith.addf %x, %x : f32
      tile.store %y, %l[%i] : !tile.buffer<128xf32, fragment>
    }
    tile.parallel (%j) in [64] {
      %x = tile.load %A[%j] : !tile.buffer<?xf32, global>
      tile.store %x, %v[%j] : !tile.buffer<64xf32, fragment>
    }
    tile.parallel (%i, %j) in [128, 64] {
      %x = tile.load %c[%i, %j] : !tile.buffer<128x64xf32, fragment>
      %s = tile.load %l[%i] : !tile.buffer<128xf32, fragment>
      %w = tile.load %v[%j] : !tile.buffer<64xf32, fragment>
      %t = tile.load %r[%c0] : !tile.buffer<128xf32, fragment>
      %p = arith.subf %x, %s : f32
      %q = arith.mulf %p, %w : f32
      %u = arith.addf %q, %t : f32
      tile.store %u, %c[%i, %j] : !tile.buffer<128x64xf32, fragment>
    }
    tile.parallel (%i) in [64] {
      %x = tile.load %n[%i] : !tile.buffer<64xf32, fragment>
      tile.store %x, %A[%i] : !tile.buffer<?xf32, global>
    }
  }
}
