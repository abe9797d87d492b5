// RUN: tile-opt %s --pass-pipeline='builtin.module(tile.kernel(tile-pipeline-loops))' --split-input-file | FileCheck %s

// Three stages: the tiles get a stage dimension, the prologue starts
// iterations 0 and 1 (guarded, one group each), the loop waits for all but
// one group, passes a barrier, starts iteration k + 2 into its stage (last
// read in iteration k - 1) and then computes on stage k % 3; everything is
// awaited after the loop. Stages are computed in 32 bits.
// CHECK-LABEL: tile.kernel @three_stages
// CHECK: %[[A:.*]] = tile.alloc_shared : !tile.buffer<3x64x32xf16, shared>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[G0:.*]] = arith.cmpi ult, %[[C0]], %[[N:.*]] : index
// CHECK: tile.if %[[G0]] {
// CHECK:   %[[N0:.*]] = arith.index_castui %[[C0]] : index to i32
// CHECK:   %[[C3:.*]] = arith.constant 3 : i32
// CHECK:   %[[R0:.*]] = arith.remui %[[N0]], %[[C3]] : i32
// CHECK:   %[[S0:.*]] = arith.index_castui %[[R0]] : i32 to index
// CHECK:   %[[V0:.*]] = tile.stage_view %[[A]][%[[S0]]] : !tile.buffer<3x64x32xf16, shared> -> !tile.buffer<64x32xf16, shared>
// CHECK:   tile.copy %{{.*}}[%{{.*}}, %{{.*}}], %[[V0]][] {async}
// CHECK: }
// CHECK-NEXT: tile.async_commit
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: arith.cmpi ult, %[[C1]], %[[N]] : index
// CHECK: tile.copy {{.*}} {async}
// CHECK: tile.async_commit
// CHECK: tile.serial %[[K:.*]] to %[[N]] {
// CHECK-NEXT: tile.async_wait 1
// CHECK-NEXT: tile.barrier
// CHECK: %[[NEXT:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK: %[[G:.*]] = arith.cmpi ult, %[[NEXT]], %[[N]] : index
// CHECK: tile.if %[[G]] {
// CHECK:   %[[NN:.*]] = arith.index_castui %[[NEXT]] : index to i32
// CHECK:   arith.remui %[[NN]], %{{.*}} : i32
// CHECK:   tile.copy {{.*}} {async}
// CHECK: }
// CHECK-NEXT: tile.async_commit
// CHECK-NOT: tile.copy
// CHECK: %[[NK:.*]] = arith.index_castui %[[K]] : index to i32
// CHECK: %[[RK:.*]] = arith.remui %[[NK]], %{{.*}} : i32
// CHECK: %[[S:.*]] = arith.index_castui %[[RK]] : i32 to index
// CHECK: %[[V:.*]] = tile.stage_view %[[A]][%[[S]]]
// CHECK: tile.gemm %[[V]], %{{.*}}, %{{.*}}
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
// CHECK-NEXT: tile.barrier
// CHECK-NOT: tile.pipelined
tile.kernel @three_stages(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                          %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  %c32 = arith.constant 32 : index
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    %n = arith.ceildivsi %K, %c32 : index
    tile.pipelined %k to %n stages 3 {
      %col = arith.muli %k, %c32 : index
      tile.copy %A[%bx, %col], %a[] : !tile.buffer<?x?xf16, global>, !tile.buffer<64x32xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    }
  }
}

// -----

// One stage, and a tile also used after the loop: left sequential.
// CHECK-LABEL: tile.kernel @not_pipelined
// CHECK: tile.pipelined %{{.*}} to %{{.*}} stages 1 {
// CHECK-NOT: {async}
// CHECK: tile.pipelined %{{.*}} to %{{.*}} stages 2 {
// CHECK-NOT: {async}
// CHECK-NOT: tile.stage_view
tile.kernel @not_pipelined(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                           %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    tile.pipelined %k to %K stages 1 {
      tile.copy %A[%bx, %k], %a[] : !tile.buffer<?x?xf16, global>, !tile.buffer<64x32xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    }
    tile.pipelined %k to %K stages 2 {
      tile.copy %A[%bx, %k], %b[] : !tile.buffer<?x?xf16, global>, !tile.buffer<32x64xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    }
    tile.gemm %a, %b, %c : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  }
}

// -----

// A GEMM on the asynchronous wgmma path (warpgroup accumulator) with 4
// stages becomes `async` and may still read its stage after its iteration:
// the copies run S - 2 = 2 iterations ahead, the stage refilled in
// iteration k is (k + 2) % 4 = (k - 2) % 4. The last iteration is peeled
// with a synchronous GEMM (which waits for all), and everything is guarded
// by 0 < n.
// CHECK-LABEL: tile.kernel @async_gemm
// CHECK: %[[A:.*]] = tile.alloc_shared : !tile.buffer<4x128x64xf16, shared>
// CHECK: %[[RUNS:.*]] = arith.cmpi ult, %{{.*}}, %[[N:.*]] : index
// CHECK-NEXT: tile.if %[[RUNS]] {
// CHECK: tile.async_commit
// CHECK: tile.async_commit
// CHECK-NOT: tile.async_commit
// CHECK: %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK-NEXT: tile.serial %[[K:.*]] to %[[LAST]] {
// CHECK-NEXT: tile.async_wait 1
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K]], %[[TWO]] : index
// CHECK: tile.async_commit
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} {async}
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 1
// CHECK-NEXT: tile.barrier
// CHECK-NOT: tile.copy
// CHECK: %[[NL:.*]] = arith.index_castui %[[LAST]] : index to i32
// CHECK: arith.remui %[[NL]], %{{.*}} : i32
// CHECK: tile.gemm %{{[^ ]*}}, %{{[^ ]*}}, %{{[^ ]*}} : !tile.buffer
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
// CHECK-NEXT: tile.barrier
tile.kernel @async_gemm(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                        %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  %c64 = arith.constant 64 : index
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment, #tile.mma<warps_m = 4, warps_n = 1, warpgroup = true>>
    %n = arith.ceildivsi %K, %c64 : index
    tile.pipelined %k to %n stages 4 {
      %col = arith.muli %k, %c64 : index
      tile.copy %A[%bx, %col], %a[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x64xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment, #tile.mma<warps_m = 4, warps_n = 1, warpgroup = true>>
    }
  }
}

// -----

// The same GEMM with its accumulator read in the loop stays synchronous:
// 3 copies ahead of 4 stages, nothing peeled.
// CHECK-LABEL: tile.kernel @sync_gemm
// CHECK: tile.serial
// CHECK-NEXT: tile.async_wait 2
// CHECK: tile.gemm %{{[^ ]*}}, %{{[^ ]*}}, %{{[^ ]*}} : !tile.buffer
// CHECK: tile.clear
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
tile.kernel @sync_gemm(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                       %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment, #tile.mma<warps_m = 4, warps_n = 1, warpgroup = true>>
    %n = arith.ceildivsi %K, %c64 : index
    tile.pipelined %k to %n stages 4 {
      %col = arith.muli %k, %c64 : index
      tile.copy %A[%bx, %col], %a[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x64xf16, shared>
      tile.gemm %a, %b, %c : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment, #tile.mma<warps_m = 4, warps_n = 1, warpgroup = true>>
      tile.clear %c : !tile.buffer<128x128xf32, fragment, #tile.mma<warps_m = 4, warps_n = 1, warpgroup = true>>
    }
  }
}
