// RUN: tile-opt %s --pass-pipeline='builtin.module(tile.kernel(tile-plan-reductions))' --split-input-file | FileCheck %s

// A row of 2048 in #tile.flat<vec = 4> over 256 threads: every step lies in
// the one output, so each lane group is a whole warp; the 8 warps exchange
// one slot's partials: 8 scratch elements, allocated at the launch's start.
// CHECK-LABEL: tile.kernel @row
// CHECK: tile.launch
// CHECK-NEXT: %[[S:.*]] = tile.alloc_shared : !tile.buffer<8xf32, shared>
// CHECK: tile.reduce %{{.*}}, %{{.*}} scratch(%[[S]] : !tile.buffer<8xf32, shared>)
tile.kernel @row(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(256) as (%bx) {
    %x = tile.alloc_fragment : !tile.buffer<2048xf32, fragment, #tile.flat<vec = 4>>
    %m = tile.alloc_fragment : !tile.buffer<1xf32, fragment, #tile.replicated>
    tile.reduce %x, %m {kind = #tile.reduce_kind<max>, dim = 0 : i64} : !tile.buffer<2048xf32, fragment, #tile.flat<vec = 4>>, !tile.buffer<1xf32, fragment, #tile.replicated>
  }
}

// -----

// One warp, one output: the butterfly alone reduces; no scratch.
// CHECK-LABEL: tile.kernel @one_warp
// CHECK-NOT: tile.alloc_shared
// CHECK: tile.reduce %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}} {
tile.kernel @one_warp(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(32) as (%bx) {
    %x = tile.alloc_fragment : !tile.buffer<512xf16, fragment, #tile.flat<vec = 8>>
    %m = tile.alloc_fragment : !tile.buffer<1xf32, fragment, #tile.replicated>
    tile.reduce %x, %m {kind = #tile.reduce_kind<sum>, dim = 0 : i64} : !tile.buffer<512xf16, fragment, #tile.flat<vec = 8>>, !tile.buffer<1xf32, fragment, #tile.replicated>
  }
}

// -----

// Rows of a 128x128 mma.sync accumulator over 2x2 warps: lane quads share a
// row; each lane has 8 row slots (4 m-tiles, 2 halves) and the block 32
// quads: 256 f32 of scratch. An f64 target keeps f64 partials.
// CHECK-LABEL: tile.kernel @accumulator_rows
// CHECK: tile.alloc_shared : !tile.buffer<256xf64, shared>
tile.kernel @accumulator_rows(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment, #tile.mma<warps_m = 2, warps_n = 2>>
    %r = tile.alloc_fragment : !tile.buffer<128xf64, fragment, #tile.replicated>
    tile.reduce %c, %r {kind = #tile.reduce_kind<sum>, dim = 1 : i64} : !tile.buffer<128x128xf32, fragment, #tile.mma<warps_m = 2, warps_n = 2>>, !tile.buffer<128xf64, fragment, #tile.replicated>
  }
}

// -----

// A replicated source is reduced by every thread alone; a shared source is
// reduced through shared memory: scratch for its 64 results.
// CHECK-LABEL: tile.kernel @per_thread_and_shared
// CHECK: %[[S:.*]] = tile.alloc_shared : !tile.buffer<64xi32, shared>
// CHECK: tile.reduce %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}} {
// CHECK: tile.reduce %{{.*}} scratch(%[[S]] : !tile.buffer<64xi32, shared>) {clear = false, dim = 0 : i64, kind = #tile.reduce_kind<min>}
tile.kernel @per_thread_and_shared(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(64) as (%bx) {
    %f = tile.alloc_fragment : !tile.buffer<4x8xf32, fragment, #tile.replicated>
    %r = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.replicated>
    tile.reduce %f, %r {kind = #tile.reduce_kind<absmax>, dim = 1 : i64} : !tile.buffer<4x8xf32, fragment, #tile.replicated>, !tile.buffer<4xf32, fragment, #tile.replicated>
    %t = tile.alloc_shared : !tile.buffer<32x64xi16, shared>
    %l = tile.alloc_local : !tile.buffer<64xi32, local>
    tile.reduce %t, %l {kind = #tile.reduce_kind<min>, dim = 0 : i64, clear = false} : !tile.buffer<32x64xi16, shared>, !tile.buffer<64xi32, local>
  }
}

// -----

// Rows of a 128x64 accumulator over 4 warps with whole rows each
// (#tile.mma<4, 1>) into their slice: every row lies in one lane quad, whose
// butterfly leaves the row's result in the registers that hold it; no
// scratch. The same rows into a replicated target are exchanged through
// 4 slots (2 m-tiles, 2 halves) x 32 quads of scratch; a slice source,
// whose elements several threads hold, is staged (64 + 1 output).
// CHECK-LABEL: tile.kernel @accumulator_row_slice
// CHECK: tile.alloc_shared : !tile.buffer<65xf32, shared>
// CHECK: tile.alloc_shared : !tile.buffer<128xf32, shared>
// CHECK: tile.reduce %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}} {
// CHECK: tile.reduce %{{.*}} scratch(
// CHECK: tile.reduce %{{.*}} scratch(
tile.kernel @accumulator_row_slice(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    %c = tile.alloc_fragment : !tile.buffer<128x64xf32, fragment, #tile.mma<warps_m = 4, warps_n = 1>>
    %m = tile.alloc_fragment : !tile.buffer<128xf32, fragment, #tile.slice<#tile.mma<warps_m = 4, warps_n = 1>, dim = 1>>
    %r = tile.alloc_fragment : !tile.buffer<128xf32, fragment, #tile.replicated>
    %v = tile.alloc_fragment : !tile.buffer<64xf32, fragment, #tile.slice<#tile.mma<warps_m = 4, warps_n = 1>, dim = 0>>
    %s = tile.alloc_fragment : !tile.buffer<1xf32, fragment, #tile.replicated>
    tile.reduce %c, %m {kind = #tile.reduce_kind<max>, dim = 1 : i64, clear = false} : !tile.buffer<128x64xf32, fragment, #tile.mma<warps_m = 4, warps_n = 1>>, !tile.buffer<128xf32, fragment, #tile.slice<#tile.mma<warps_m = 4, warps_n = 1>, dim = 1>>
    tile.reduce %c, %r {kind = #tile.reduce_kind<sum>, dim = 1 : i64} : !tile.buffer<128x64xf32, fragment, #tile.mma<warps_m = 4, warps_n = 1>>, !tile.buffer<128xf32, fragment, #tile.replicated>
    tile.reduce %v, %s {kind = #tile.reduce_kind<sum>, dim = 0 : i64} : !tile.buffer<64xf32, fragment, #tile.slice<#tile.mma<warps_m = 4, warps_n = 1>, dim = 0>>, !tile.buffer<1xf32, fragment, #tile.replicated>
  }
}
