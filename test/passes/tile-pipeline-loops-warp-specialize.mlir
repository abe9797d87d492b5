// RUN: tile-opt %s --pass-pipeline='builtin.module(tile.kernel(tile-infer-layouts,tile-pipeline-loops))' --split-input-file | FileCheck %s

// Without clusters (tile-pipeline-loops-clusters.mlir has them).
// On sm_90a a GEMM loop whose GEMMs run on wgmma and whose copies TMA can
// do is warp-specialized and the launch made persistent: full and empty
// mbarriers per stage (full: one arrival per TMA copy; empty: one per
// consumer warp), the TMA rules checked at run time, a producer that loops
// over the block's tiles (rasterized as the launch was) and, counting
// iterations g across them, waits until stage g % 4 is free and refills it
// with TMA copies completing on its full barrier; consumers that loop over
// the same tiles, wait for the stage to be full, compute (async GEMMs, the
// last iteration of a tile peeled), release the previous iteration's stage
// (and after the last, their own); the cp.async schedule is the fallback.
// The allocations stay before the roles; clear(C) and the epilogue run in
// the consumers' tile loop, the epilogue's store of C as a TMA store through
// a staging tile (the whole 128x128 tile fits next to the stages), and the
// consumers wait for their stores before they end.
// CHECK-LABEL: tile.kernel @gemm
// CHECK: %[[A:.*]] = tile.alloc_shared : !tile.buffer<4x128x64xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8>>
// CHECK: %[[B:.*]] = tile.alloc_shared : !tile.buffer<4x64x128xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8, panel = 64>>
// CHECK: %[[C:.*]] = tile.alloc_fragment
// CHECK: %[[FULL:.*]] = tile.alloc_shared : !tile.buffer<4xi64, shared>
// CHECK: %[[EMPTY:.*]] = tile.alloc_shared : !tile.buffer<4xi64, shared>
// CHECK: tile.mbarrier_init %[[FULL]] count 2 : !tile.buffer<4xi64, shared>
// CHECK: tile.mbarrier_init %[[EMPTY]] count 8 : !tile.buffer<4xi64, shared>
// CHECK: %[[CS:.*]] = tile.alloc_shared : !tile.buffer<128x128xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8, panel = 64>>
// CHECK: %[[OK:.*]] = tile.tma_ready %A, %B, %C : !tile.buffer<?x?xf16, global>, !tile.buffer<?x?xf16, global>, !tile.buffer<?x?xf16, global>
// CHECK: tile.warp_specialize producer_threads 128 persistent {
// CHECK:   tile.if %[[OK]] {
// CHECK:     tile.tile_loop %[[T:.*]] {
// CHECK-NEXT:  tile.use_swizzle 8
// CHECK:       %[[N:.*]] = arith.ceildivsi
// CHECK:       tile.serial %[[K:.*]] to %[[N]] {
// CHECK:         %[[BASE:.*]] = arith.muli %[[T]], %[[N]] : index
// CHECK:         %[[G:.*]] = arith.addi %[[BASE]], %[[K]] : index
// CHECK:         %[[S:.*]] = arith.remui %[[G]], %{{.*}} : index
// CHECK:         %[[R:.*]] = arith.divui %[[G]], %{{.*}} : index
// CHECK:         %[[J:.*]] = arith.remui %[[R]], %{{.*}} : index
// CHECK:         %[[FREE:.*]] = arith.subi %{{.*}}, %[[J]] : index
// CHECK:         tile.mbarrier_wait %[[EMPTY]][%[[S]]], %[[FREE]]
// CHECK:         %[[VA:.*]] = tile.stage_view %[[A]][%[[S]]]
// CHECK:         %[[VB:.*]] = tile.stage_view %[[B]][%[[S]]]
// CHECK:         tile.copy %A[%{{.*}}, %{{.*}}], %[[VA]][] barrier %[[FULL]][%[[S]]]
// CHECK:         tile.copy %B[%{{.*}}, %{{.*}}], %[[VB]][] barrier %[[FULL]][%[[S]]]
// CHECK-NOT:     async
// CHECK:       }
// CHECK:     }
// CHECK:   }
// CHECK: } consumer {
// CHECK:   tile.tile_loop %[[T2:.*]] {
// CHECK-NEXT: tile.use_swizzle 8
// CHECK-NEXT: tile.clear %[[C]]
// CHECK:     tile.if %[[OK]] {
// CHECK:       tile.if %{{.*}} {
// CHECK:         %[[LAST:.*]] = arith.subi %[[N2:.*]], %{{.*}} : index
// CHECK:         tile.serial %[[K2:.*]] to %[[LAST]] {
// CHECK:           %[[BASE2:.*]] = arith.muli %[[T2]], %[[N2]] : index
// CHECK:           %[[G2:.*]] = arith.addi %[[BASE2]], %[[K2]] : index
// CHECK:           %[[S2:.*]] = arith.remui %[[G2]]
// CHECK:           tile.mbarrier_wait %[[FULL]][%[[S2]]], %{{.*}}
// CHECK:           tile.gemm {{.*}} {async}
// CHECK:           %[[LATER:.*]] = arith.cmpi ult, %{{.*}}, %[[K2]] : index
// CHECK:           tile.if %[[LATER]] {
// CHECK:             %[[GP:.*]] = arith.subi %[[G2]], %{{.*}} : index
// CHECK:             %[[PREV:.*]] = arith.remui %[[GP]]
// CHECK:             tile.mbarrier_arrive %[[EMPTY]][%[[PREV]]]
// CHECK:           }
// CHECK:         }
// CHECK:         %[[S3:.*]] = arith.remui
// CHECK:         tile.mbarrier_wait %[[FULL]][%[[S3]]]
// CHECK:         tile.gemm
// CHECK-NOT:       async
// CHECK:         tile.if
// CHECK:           tile.mbarrier_arrive %[[EMPTY]]
// CHECK:         }
// CHECK-NEXT:    tile.mbarrier_arrive %[[EMPTY]][%[[S3]]]
// CHECK:       }
// CHECK:       tile.barrier
// CHECK:     } else {
// CHECK:       tile.async_commit
// CHECK:       tile.copy {{.*}} {async}
// CHECK:       tile.async_wait 0
// CHECK-NEXT:  tile.barrier
// CHECK:     }
// CHECK:     tile.if %[[OK]] {
// CHECK-NEXT:  tile.copy %[[C]][], %C[%{{.*}}, %{{.*}}] staged %[[CS]]
// CHECK-NEXT: } else {
// CHECK-NEXT:  tile.copy %[[C]][], %C[%{{.*}}, %{{.*}}] :
// CHECK-NEXT: }
// CHECK:   }
// CHECK-NEXT: tile.tma_store_wait
// CHECK: }
// CHECK-NOT: tile.pipelined
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @gemm(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                  %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                  %Cg: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]},
                  %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tile.launch grid(%N, %M) threads(256) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    tile.use_swizzle 8
    tile.clear %c : !tile.buffer<128x128xf32, fragment>
    %n = arith.ceildivsi %K, %c64 : index
    tile.pipelined %k to %n stages 4 {
      %row = arith.muli %by, %c128 : index
      %col = arith.muli %k, %c64 : index
      %bcol = arith.muli %bx, %c128 : index
      tile.copy %A[%row, %col], %a[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x64xf16, shared>
      tile.copy %B[%col, %bcol], %b[] : !tile.buffer<?x?xf16, global>, !tile.buffer<64x128xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
    }
    %row = arith.muli %by, %c128 : index
    %bcol = arith.muli %bx, %c128 : index
    tile.copy %c[], %Cg[%row, %bcol] : !tile.buffer<128x128xf32, fragment>, !tile.buffer<?x?xf16, global>
  }
}
}

// -----

// Not on sm_90 (no wgmma): the cp.async schedule.
// CHECK-LABEL: tile.kernel @no_wgmma
// CHECK-NOT: tile.warp_specialize
// CHECK: tile.async_commit
module attributes {tile.target = #tile.target<"sm_90", ptx = 80>} {
tile.kernel @no_wgmma(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                      %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                      %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) {
  %c64 = arith.constant 64 : index
  tile.launch grid(%N, %M) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    %n = arith.ceildivsi %K, %c64 : index
    tile.pipelined %k to %n stages 3 {
      %col = arith.muli %k, %c64 : index
      tile.copy %A[%by, %col], %a[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x64xf16, shared>
      tile.copy %B[%col, %bx], %b[] : !tile.buffer<?x?xf16, global>, !tile.buffer<64x128xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
    }
  }
}
}

// -----

// A loop whose producer's index needs an op with effects after the split
// (a load from a global tensor) cannot be computed by the producer: the
// cp.async schedule.
// CHECK-LABEL: tile.kernel @impure_index
// CHECK-NOT: tile.warp_specialize
// CHECK: tile.async_commit
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @impure_index(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                          %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                          %O: !tile.buffer<?xi32, global> {tile.name = "O", tile.shape = ["M"]},
                          %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  tile.launch grid(%N, %M) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    %o = tile.load %O[%by] : !tile.buffer<?xi32, global>
    %row = arith.index_cast %o : i32 to index
    %n = arith.ceildivsi %K, %c64 : index
    tile.pipelined %k to %n stages 3 {
      %col = arith.muli %k, %c64 : index
      tile.copy %A[%row, %col], %a[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x64xf16, shared>
      tile.copy %B[%col, %bx], %b[] : !tile.buffer<?x?xf16, global>, !tile.buffer<64x128xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
    }
  }
}
}

// -----

// A 128x256 accumulator on 512 threads next to four 48 KiB stages: only a
// band of 64 rows fits in shared memory, so the TMA store goes out in two
// bands.
// CHECK-LABEL: tile.kernel @banded_epilogue
// CHECK: %[[CS:.*]] = tile.alloc_shared : !tile.buffer<64x256xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8, panel = 64>>
// CHECK: tile.copy %{{.*}}[], %C[%{{.*}}, %{{.*}}] staged %[[CS]]
// CHECK: tile.tma_store_wait
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @banded_epilogue(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                             %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                             %Cg: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]},
                             %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  tile.launch grid(%N, %M) threads(512) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x256xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
    tile.clear %c : !tile.buffer<128x256xf32, fragment>
    %n = arith.ceildivsi %K, %c64 : index
    tile.pipelined %k to %n stages 4 {
      %row = arith.muli %by, %c128 : index
      %col = arith.muli %k, %c64 : index
      %bcol = arith.muli %bx, %c256 : index
      tile.copy %A[%row, %col], %a[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x64xf16, shared>
      tile.copy %B[%col, %bcol], %b[] : !tile.buffer<?x?xf16, global>, !tile.buffer<64x256xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x256xf16, shared>, !tile.buffer<128x256xf32, fragment>
    }
    %row = arith.muli %by, %c128 : index
    %bcol = arith.muli %bx, %c256 : index
    tile.copy %c[], %Cg[%row, %bcol] : !tile.buffer<128x256xf32, fragment>, !tile.buffer<?x?xf16, global>
  }
}
}

// -----

// The same accumulator on 256 threads (128 elements per thread, one block
// per multiprocessor) is staged too, whole.
// CHECK-LABEL: tile.kernel @large_accumulator
// CHECK: %[[CS:.*]] = tile.alloc_shared : !tile.buffer<128x256xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8, panel = 64>>
// CHECK: tile.copy %{{.*}}[], %C[%{{.*}}, %{{.*}}] staged %[[CS]]
// CHECK: tile.tma_store_wait
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @large_accumulator(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                             %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                             %Cg: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]},
                             %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  tile.launch grid(%N, %M) threads(256) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x256xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
    tile.clear %c : !tile.buffer<128x256xf32, fragment>
    %n = arith.ceildivsi %K, %c64 : index
    tile.pipelined %k to %n stages 3 {
      %row = arith.muli %by, %c128 : index
      %col = arith.muli %k, %c64 : index
      %bcol = arith.muli %bx, %c256 : index
      tile.copy %A[%row, %col], %a[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x64xf16, shared>
      tile.copy %B[%col, %bcol], %b[] : !tile.buffer<?x?xf16, global>, !tile.buffer<64x256xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x256xf16, shared>, !tile.buffer<128x256xf32, fragment>
    }
    %row = arith.muli %by, %c128 : index
    %bcol = arith.muli %bx, %c256 : index
    tile.copy %c[], %Cg[%row, %bcol] : !tile.buffer<128x256xf32, fragment>, !tile.buffer<?x?xf16, global>
  }
}
}

// -----

// 128 elements per thread on one consumer warpgroup whose block, staging
// tile included, fits twice on a multiprocessor: its consumers get 216
// registers, too few for the staging code beside the accumulator, so the
// stores stay in registers. Two such blocks, not consumer ping-pong.
// CHECK-LABEL: tile.kernel @two_blocks_per_multiprocessor
// CHECK-NOT: consumer_groups
// CHECK-NOT: staged
// CHECK-NOT: tile.tma_store_wait
// CHECK: tile.tma_ready %A, %B :
// CHECK-NOT: staged
// CHECK-NOT: tile.tma_store_wait
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @two_blocks_per_multiprocessor(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                             %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                             %Cg: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]},
                             %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) {
  %cbk = arith.constant 32 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 128 : index
  tile.launch grid(%N, %M) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<32x128xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    tile.clear %c : !tile.buffer<128x128xf32, fragment>
    %n = arith.ceildivsi %K, %cbk : index
    tile.pipelined %k to %n stages 3 {
      %row = arith.muli %by, %cbm : index
      %col = arith.muli %k, %cbk : index
      %bcol = arith.muli %bx, %cbn : index
      tile.copy %A[%row, %col], %a[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x32xf16, shared>
      tile.copy %B[%col, %bcol], %b[] : !tile.buffer<?x?xf16, global>, !tile.buffer<32x128xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<128x32xf16, shared>, !tile.buffer<32x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
    }
    %row = arith.muli %by, %cbm : index
    %bcol = arith.muli %bx, %cbn : index
    tile.copy %c[], %Cg[%row, %bcol] : !tile.buffer<128x128xf32, fragment>, !tile.buffer<?x?xf16, global>
  }
}
}

// -----

// One consumer warpgroup whose shared tiles are all the producers':
// consumer ping-pong. Two groups of 128 threads (empty barriers count one
// group's 4 warps) take alternate tiles of the block; each has its own
// stage of the staging tile and waits for its turn at the main loop
// (named barrier 3 + g, both groups' 256 threads) unless it has the
// block's first tile. If the block has a tile after this one, the group
// hands the turn on (3 + (g + 1) % 2): on the TMA path once it has waited
// for its last full stage, before that iteration's GEMM (or at once
// without iterations); on the cp.async path after the barrier that ends
// its drain, since the next group's copies overwrite the stages.
// CHECK-LABEL: tile.kernel @ping_pong
// CHECK: tile.mbarrier_init %{{.*}} count 4 :
// CHECK: %[[CS:.*]] = tile.alloc_shared : !tile.buffer<2x128x128xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8, panel = 64>>
// CHECK: %[[OK:.*]] = tile.tma_ready %A, %B, %C :
// CHECK: tile.warp_specialize producer_threads 128 persistent consumer_groups 2 {
// CHECK:   tile.tile_loop %{{.*}} {
// CHECK: } consumer {
// CHECK:   %[[G:.*]] = tile.consumer_group
// CHECK:   tile.tile_loop %[[T:.*]] from %[[G]] step 2 {
// CHECK:     %[[LATER:.*]] = arith.cmpi ult, %{{.*}}, %[[T]] : index
// CHECK:     tile.if %[[LATER]] {
// CHECK-NEXT:  %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:  %[[WAIT:.*]] = arith.addi %[[G]], %[[C3]] : index
// CHECK-NEXT:  tile.named_barrier %[[WAIT]], 256{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[T]], %[[C1]] : index
// CHECK-NEXT: %[[COUNT:.*]] = tile.tile_count
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi ult, %[[NEXT]], %[[COUNT]] : index
// CHECK-NEXT: tile.if %[[OK]] {
// CHECK:       tile.serial
// CHECK:         tile.gemm {{.*}} {async}
// CHECK:       }
// CHECK:       tile.mbarrier_wait
// CHECK-NEXT:  tile.if %[[MORE]] {
// CHECK:         %[[G1:.*]] = arith.addi %[[G]], %{{.*}} : index
// CHECK:         %[[OTHER:.*]] = arith.remui %[[G1]], %{{.*}} : index
// CHECK:         %[[PASS:.*]] = arith.addi %[[OTHER]], %{{.*}} : index
// CHECK-NEXT:    tile.named_barrier %[[PASS]], 256 arrive
// CHECK-NEXT:  }
// CHECK:       tile.gemm
// CHECK-NOT:   async
// CHECK:       } else {
// CHECK-NEXT:    tile.if %[[MORE]] {
// CHECK:           tile.named_barrier %{{.*}}, 256 arrive
// CHECK:       tile.barrier
// CHECK:     } else {
// CHECK:       tile.async_commit
// CHECK:       tile.async_wait 0
// CHECK-NEXT:  tile.barrier
// CHECK-NEXT:  tile.if %[[MORE]] {
// CHECK:         tile.named_barrier %{{.*}}, 256 arrive
// CHECK:     tile.if %[[OK]] {
// CHECK-NEXT:  %[[MINE:.*]] = tile.stage_view %[[CS]][%[[G]]]
// CHECK-NEXT:  tile.copy %{{.*}}[], %C[%{{.*}}, %{{.*}}] staged %[[MINE]]
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @ping_pong(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                             %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                             %Cg: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]},
                             %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) {
  %cbk = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 128 : index
  tile.launch grid(%N, %M) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    tile.clear %c : !tile.buffer<128x128xf32, fragment>
    %n = arith.ceildivsi %K, %cbk : index
    tile.pipelined %k to %n stages 4 {
      %row = arith.muli %by, %cbm : index
      %col = arith.muli %k, %cbk : index
      %bcol = arith.muli %bx, %cbn : index
      tile.copy %A[%row, %col], %a[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x64xf16, shared>
      tile.copy %B[%col, %bcol], %b[] : !tile.buffer<?x?xf16, global>, !tile.buffer<64x128xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
    }
    %row = arith.muli %by, %cbm : index
    %bcol = arith.muli %bx, %cbn : index
    tile.copy %c[], %Cg[%row, %bcol] : !tile.buffer<128x128xf32, fragment>, !tile.buffer<?x?xf16, global>
  }
}
}

// -----

// The same launch with a shared tile that the producers do not fill: the
// groups would share it, so no ping-pong.
// CHECK-LABEL: tile.kernel @shared_scratch
// CHECK: tile.warp_specialize producer_threads 128 persistent {
// CHECK-NOT: consumer_groups
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @shared_scratch(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                             %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                             %Cg: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]},
                             %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) {
  %cbk = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 128 : index
  tile.launch grid(%N, %M) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    %scratch = tile.alloc_shared : !tile.buffer<128xf32, shared>
    tile.clear %c : !tile.buffer<128x128xf32, fragment>
    tile.clear %scratch : !tile.buffer<128xf32, shared>
    %n = arith.ceildivsi %K, %cbk : index
    tile.pipelined %k to %n stages 4 {
      %row = arith.muli %by, %cbm : index
      %col = arith.muli %k, %cbk : index
      %bcol = arith.muli %bx, %cbn : index
      tile.copy %A[%row, %col], %a[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x64xf16, shared>
      tile.copy %B[%col, %bcol], %b[] : !tile.buffer<?x?xf16, global>, !tile.buffer<64x128xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
    }
    %row = arith.muli %by, %cbm : index
    %bcol = arith.muli %bx, %cbn : index
    tile.copy %c[], %Cg[%row, %bcol] : !tile.buffer<128x128xf32, fragment>, !tile.buffer<?x?xf16, global>
  }
}
}

// -----

// 256 accumulator elements per thread keep their stores in registers.
// CHECK-LABEL: tile.kernel @oversized_accumulator
// CHECK-NOT: staged
// CHECK-NOT: tile.tma_store_wait
// CHECK: tile.tma_ready %A, %B :
// CHECK-NOT: staged
// CHECK-NOT: tile.tma_store_wait
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @oversized_accumulator(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                             %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                             %Cg: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]},
                             %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) {
  %cbk = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  tile.launch grid(%N, %M) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x256xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
    tile.clear %c : !tile.buffer<128x256xf32, fragment>
    %n = arith.ceildivsi %K, %cbk : index
    tile.pipelined %k to %n stages 2 {
      %row = arith.muli %by, %cbm : index
      %col = arith.muli %k, %cbk : index
      %bcol = arith.muli %bx, %cbn : index
      tile.copy %A[%row, %col], %a[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x64xf16, shared>
      tile.copy %B[%col, %bcol], %b[] : !tile.buffer<?x?xf16, global>, !tile.buffer<64x256xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x256xf16, shared>, !tile.buffer<128x256xf32, fragment>
    }
    %row = arith.muli %by, %cbm : index
    %bcol = arith.muli %bx, %cbn : index
    tile.copy %c[], %Cg[%row, %bcol] : !tile.buffer<128x256xf32, fragment>, !tile.buffer<?x?xf16, global>
  }
}
}
