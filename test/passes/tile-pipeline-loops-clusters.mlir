// RUN: tile-opt %s --pass-pipeline='builtin.module(tile.kernel(tile-infer-layouts,tile-pipeline-loops{clusters=true}))' --split-input-file | FileCheck %s

// A warp-specialized GEMM whose B region is the same for every row of the
// grid runs in clusters of two blocks: B's TMA copy is multicast (each block
// loads half of each box's rows into both blocks' stage), A's is each
// block's own, and the consumers release a stage on the empty barriers of
// both blocks, which count the warps of both.
// CHECK-LABEL: tile.kernel @gemm
// CHECK: %[[FULL:.*]] = tile.alloc_shared : !tile.buffer<4xi64, shared>
// CHECK: %[[EMPTY:.*]] = tile.alloc_shared : !tile.buffer<4xi64, shared>
// CHECK: tile.mbarrier_init %[[FULL]] count 2 : !tile.buffer<4xi64, shared>
// CHECK: tile.mbarrier_init %[[EMPTY]] count 16 : !tile.buffer<4xi64, shared>
// CHECK: tile.warp_specialize producer_threads 128 persistent cluster 2 {
// CHECK:   tile.copy %A[%{{.*}}, %{{.*}}], %{{.*}}[] barrier %[[FULL]][%{{.*}}] : !tile.buffer<4xi64, shared> :
// CHECK:   tile.copy %B[%{{.*}}, %{{.*}}], %{{.*}}[] barrier %[[FULL]][%{{.*}}] : !tile.buffer<4xi64, shared> {multicast} :
// CHECK: } consumer {
// CHECK:   tile.mbarrier_arrive %[[EMPTY]][%{{.*}}] {cluster}
// CHECK:   tile.mbarrier_arrive %[[EMPTY]][%{{.*}}] {cluster}
// CHECK:   tile.mbarrier_arrive %[[EMPTY]][%{{.*}}] {cluster}
// CHECK-NOT: tile.mbarrier_arrive
// CHECK: }
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

// A trip count that depends on the y block index (a triangular loop) would
// give the blocks of a cluster different iterations: no cluster.
// CHECK-LABEL: tile.kernel @row_trips
// CHECK: tile.warp_specialize producer_threads 128 persistent {
// CHECK-NOT: multicast
// CHECK-NOT: {cluster}
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @row_trips(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                       %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                       %Cg: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]},
                       %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tile.launch grid(%N, %M) threads(256) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    tile.clear %c : !tile.buffer<128x128xf32, fragment>
    %n = arith.addi %by, %c1 : index
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

// The y block index decides more than a copy's region (a branch here): a
// block of a cluster past the grid's last row must not run it. No cluster.
// CHECK-LABEL: tile.kernel @row_branch
// CHECK: tile.warp_specialize producer_threads 128 persistent {
// CHECK-NOT: multicast
// CHECK-NOT: {cluster}
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @row_branch(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                        %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                        %Cg: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]},
                        %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tile.launch grid(%N, %M) threads(256) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
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
    %first = arith.cmpi eq, %by, %bx : index
    tile.if %first {
      tile.copy %c[], %Cg[%row, %bcol] : !tile.buffer<128x128xf32, fragment>, !tile.buffer<?x?xf16, global>
    }
  }
}
}

// -----

// Every producer's region depends on the y block index: nothing for a
// cluster to share.
// CHECK-LABEL: tile.kernel @no_shared_region
// CHECK: tile.warp_specialize producer_threads 128 persistent {
// CHECK-NOT: multicast
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @no_shared_region(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                              %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                              %Cg: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]},
                              %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tile.launch grid(%N, %M) threads(256) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    tile.clear %c : !tile.buffer<128x128xf32, fragment>
    %n = arith.ceildivsi %K, %c64 : index
    tile.pipelined %k to %n stages 4 {
      %row = arith.muli %by, %c128 : index
      %col = arith.muli %k, %c64 : index
      %bcol = arith.addi %by, %bx : index
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

// A grid of one row: every cluster's second block would have no tile.
// CHECK-LABEL: tile.kernel @one_row
// CHECK: tile.warp_specialize producer_threads 128 persistent {
// CHECK-NOT: multicast
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @one_row(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                     %B: !tile.buffer<?x?xf16, global> {tile.name = "B", tile.shape = ["K", "N"]},
                     %Cg: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]},
                     %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tile.launch grid(%N, %c1) threads(256) as (%bx, %by) {
    %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
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
