// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// CHECK-LABEL: tile.kernel @gemm
// CHECK-SAME: (%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}
// CHECK-SAME: %M: index {tile.name = "M"}
// CHECK-SAME: attributes {tile.constants = {block_K = 32 : i64, dtype = f16}}
tile.kernel @gemm(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                  %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                  %C: !tile.buffer<?x?xf32, global> {tile.name = "C", tile.shape = ["M", "N"]},
                  %M: index {tile.name = "M"}, %K: index {tile.name = "K"},
                  %N: index {tile.name = "N"}, %scale: f32 {tile.name = "scale"})
    attributes {tile.constants = {block_K = 32 : i64, dtype = f16}} {
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %gx = arith.ceildivsi %N, %c128 : index
  %gy = arith.ceildivsi %M, %c128 : index
  // CHECK: tile.launch grid(%{{.*}}, %{{.*}}) threads(128) as (%[[BX:.*]], %[[BY:.*]]) {
  tile.launch grid(%gx, %gy) threads(128) as (%bx, %by) {
    // CHECK: tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    %A_s = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    // CHECK: tile.alloc_shared {offset = 8192 : i64} : !tile.buffer<32x128xf16, shared, #tile.layout<swizzled>>
    %B_s = tile.alloc_shared {offset = 8192 : i64} : !tile.buffer<32x128xf16, shared, #tile.layout<swizzled>>
    // CHECK: tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    %C_f = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    %row = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
    %v = tile.alloc_var : !tile.buffer<f32, local>
    %l = tile.alloc_local : !tile.buffer<4xf32, local>
    // CHECK: tile.use_swizzle 10
    tile.use_swizzle 10
    // CHECK: tile.annotate_layout %{{.*}} {layout = #tile.layout<swizzled>}
    tile.annotate_layout %A_s {layout = #tile.layout<swizzled>} : !tile.buffer<128x32xf16, shared>
    // CHECK: tile.clear %{{.*}} : !tile.buffer<128x128xf32, fragment>
    tile.clear %C_f : !tile.buffer<128x128xf32, fragment>
    %zero = arith.constant 0.0 : f32
    // CHECK: tile.fill %{{.*}}, %{{.*}} : !tile.buffer<4xf32, local>, f32
    tile.fill %l, %zero : !tile.buffer<4xf32, local>, f32
    %nk = arith.ceildivsi %K, %c32 : index
    // CHECK: tile.pipelined %[[KO:.*]] to %{{.*}} stages 3 {
    tile.pipelined %ko to %nk stages 3 {
      %m0 = arith.muli %by, %c128 : index
      %k0 = arith.muli %ko, %c32 : index
      // CHECK: tile.copy %A[%{{.*}}, %{{.*}}], %{{.*}}[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x32xf16, shared>
      tile.copy %A[%m0, %k0], %A_s[] : !tile.buffer<?x?xf16, global>, !tile.buffer<128x32xf16, shared>
      tile.copy %B[%k0, %m0], %B_s[] : !tile.buffer<?x?xf16, global>, !tile.buffer<32x128xf16, shared, #tile.layout<swizzled>>
      // CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} {policy = #tile.policy<full_row>}
      tile.gemm %A_s, %B_s, %C_f {policy = #tile.policy<full_row>} : !tile.buffer<128x32xf16, shared>, !tile.buffer<32x128xf16, shared, #tile.layout<swizzled>>, !tile.buffer<128x128xf32, fragment>
    }
    // CHECK: tile.reduce %{{.*}}, %{{.*}} {clear = false, dim = 1 : i64, kind = #tile.reduce_kind<max>}
    tile.reduce %C_f, %row {kind = #tile.reduce_kind<max>, dim = 1 : i64, clear = false} : !tile.buffer<128x128xf32, fragment>, !tile.buffer<128xf32, fragment>
    // CHECK: tile.parallel (%[[I:.*]], %[[J:.*]]) in [128, 128] {
    tile.parallel (%i, %j) in [128, 128] {
      // CHECK: tile.load %{{.*}}[%[[I]], %[[J]]] : !tile.buffer<128x128xf32, fragment>
      %x = tile.load %C_f[%i, %j] : !tile.buffer<128x128xf32, fragment>
      %y = math.exp %x : f32
      %s = arith.mulf %y, %scale : f32
      tile.store %s, %C_f[%i, %j] : !tile.buffer<128x128xf32, fragment>
    }
    %c4 = arith.constant 4 : index
    // CHECK: tile.unroll %{{.*}} to %{{.*}} {
    tile.unroll %u to %c4 {
      // CHECK: tile.serial
      tile.serial %w to %nk {
        %cond = arith.cmpi slt, %u, %w : index
        // CHECK: tile.if %{{.*}} {
        tile.if %cond {
          // CHECK: tile.print "k", %{{.*}} : index
          tile.print "k", %w : index
        // CHECK: } else {
        } else {
          tile.print "none"
        }
      }
    }
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c128 : index
    tile.copy %C_f[], %C[%m0, %n0] : !tile.buffer<128x128xf32, fragment>, !tile.buffer<?x?xf32, global>
  }
  // CHECK: tile.return
}

// CHECK-LABEL: tile.kernel @attention_like
// CHECK: tile.copy %Q[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[] : !tile.buffer<?x?x?x128xf16, global>, !tile.buffer<64x128xf16, shared>
tile.kernel @attention_like(%Q: !tile.buffer<?x?x?x128xf16, global> {tile.name = "Q", tile.shape = ["B", "H", "S", 128]},
                            %B: index {tile.name = "B"}, %H: index {tile.name = "H"}, %S: index {tile.name = "S"}) {
  tile.launch grid(%S, %H, %B) threads(256) as (%bx, %by, %bz) {
    %Q_s = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %S_f = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    %P_f = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment>
    %c0 = arith.constant 0 : index
    tile.copy %Q[%bz, %by, %bx, %c0], %Q_s[] : !tile.buffer<?x?x?x128xf16, global>, !tile.buffer<64x128xf16, shared>
    tile.gemm %Q_s, %Q_s, %S_f {transpose_b = true, clear = true} : !tile.buffer<64x128xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<64x64xf32, fragment>
    // CHECK: tile.copy %{{.*}}[], %{{.*}}[] : !tile.buffer<64x64xf32, fragment>, !tile.buffer<64x64xf16, fragment>
    tile.copy %S_f[], %P_f[] : !tile.buffer<64x64xf32, fragment>, !tile.buffer<64x64xf16, fragment>
  }
}

// Consumer groups: the group's number, its share of the tiles, the block's
// tile count and named barriers print and parse back.
// CHECK-LABEL: tile.kernel @consumer_groups
// CHECK: tile.warp_specialize producer_threads 128 persistent consumer_groups 2 {
// CHECK:   tile.tile_loop %{{.*}} {
// CHECK: } consumer {
// CHECK:   %[[G:.*]] = tile.consumer_group
// CHECK:   tile.tile_loop %[[T:.*]] from %[[G]] step 2 {
// CHECK:     %[[N:.*]] = tile.tile_count
// CHECK:     tile.named_barrier %[[G]], 256{{$}}
// CHECK:     tile.named_barrier %[[N]], 256 arrive
tile.kernel @consumer_groups(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    tile.warp_specialize producer_threads 128 persistent consumer_groups 2 {
      tile.tile_loop %t {
      }
    } consumer {
      %g = tile.consumer_group
      tile.tile_loop %t from %g step 2 {
        %n = tile.tile_count
        tile.named_barrier %g, 256
        tile.named_barrier %n, 256 arrive
      }
    }
  }
}

// Clusters: the roles' cluster size, a multicast TMA copy and an arrival on
// the cluster's mbarriers print and parse back.
// CHECK-LABEL: tile.kernel @clusters
// CHECK: tile.warp_specialize producer_threads 128 persistent consumer_groups 2 cluster 2 {
// CHECK:   tile.copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[] barrier %{{.*}}[%{{.*}}] : !tile.buffer<2xi64, shared> {multicast} :
// CHECK: } consumer {
// CHECK:   tile.mbarrier_arrive %{{.*}}[%{{.*}}] {cluster} : !tile.buffer<2xi64, shared>
tile.kernel @clusters(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
    %bars = tile.alloc_shared : !tile.buffer<2xi64, shared>
    %c0 = arith.constant 0 : index
    tile.warp_specialize producer_threads 128 persistent consumer_groups 2 cluster 2 {
      tile.copy %A[%c0, %c0], %a[] barrier %bars[%c0] : !tile.buffer<2xi64, shared> {multicast} : !tile.buffer<?x?xf16, global>, !tile.buffer<64x64xf16, shared>
    } consumer {
      tile.mbarrier_arrive %bars[%c0] {cluster} : !tile.buffer<2xi64, shared>
    }
  }
}

// The ops of the warp-specialized schedule print and parse back.
// CHECK-LABEL: tile.kernel @warp_specialized
// CHECK: tile.mbarrier_init %[[FULL:.*]] count 1 : !tile.buffer<2xi64, shared>
// CHECK: %[[OK:.*]] = tile.tma_ready %{{.*}} : !tile.buffer<?x?xf16, global>
// CHECK: tile.warp_specialize producer_threads 128 persistent {
// CHECK:   tile.tile_loop %[[T:.*]] {
// CHECK-NEXT: tile.use_swizzle 4
// CHECK:   tile.mbarrier_wait %[[FULL]][%[[T]]], %{{.*}} : !tile.buffer<2xi64, shared>
// CHECK:   tile.copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[] barrier %[[FULL]][%{{.*}}] : !tile.buffer<2xi64, shared> : !tile.buffer<?x?xf16, global>, !tile.buffer<64x64xf16, shared>
// CHECK: } consumer {
// CHECK:   tile.mbarrier_arrive %[[FULL]][%{{.*}}] : !tile.buffer<2xi64, shared>
// CHECK:   tile.copy %{{.*}}[], %{{.*}}[%{{.*}}, %{{.*}}] staged %{{.*}} : !tile.buffer<32x64xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8>> : !tile.buffer<64x64xf32, fragment>, !tile.buffer<?x?xf16, global>
// CHECK:   tile.tma_store_wait
// CHECK: }
tile.kernel @warp_specialized(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M, %K) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
    %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    %band = tile.alloc_shared : !tile.buffer<32x64xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8>>
    %full = tile.alloc_shared : !tile.buffer<2xi64, shared>
    %c0 = arith.constant 0 : index
    tile.mbarrier_init %full count 1 : !tile.buffer<2xi64, shared>
    %ok = tile.tma_ready %A : !tile.buffer<?x?xf16, global>
    tile.warp_specialize producer_threads 128 persistent {
      tile.tile_loop %t {
        tile.use_swizzle 4
        tile.mbarrier_wait %full[%t], %c0 : !tile.buffer<2xi64, shared>
        tile.copy %A[%bx, %by], %a[] barrier %full[%c0] : !tile.buffer<2xi64, shared> : !tile.buffer<?x?xf16, global>, !tile.buffer<64x64xf16, shared>
      }
    } consumer {
      tile.mbarrier_arrive %full[%c0] : !tile.buffer<2xi64, shared>
      tile.copy %acc[], %A[%bx, %by] staged %band : !tile.buffer<32x64xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8>> : !tile.buffer<64x64xf32, fragment>, !tile.buffer<?x?xf16, global>
      tile.tma_store_wait
    }
  }
}
