// RUN: tile-opt %s --pass-pipeline='builtin.module(tile-gpu,convert-tile-to-llvm,canonicalize,cse)' | FileCheck %s

// The mma.sync lowering's addresses, exactly. Two warps (full_row: warps_m =
// 2), a 16 x 16 warp tile of a 32 x 16 accumulator, one k step. The tiles
// are given the plain row-major layout (#tile.padded<pad = 0>) so that an
// address is row * 16 + column.
// A (M x K, K contiguous): lane l reads row warp*16 + (l & 15), column
// 8 * ((l >> 4) & 1), without .trans.
// CHECK: %[[TID:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32 : index
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32 : index
// CHECK: %[[WROW:.*]] = arith.muli %[[WARP]], %c16 : index
// CHECK: %[[L15:.*]] = arith.andi %[[LANE]], %c15 : index
// CHECK: %[[AROW:.*]] = arith.addi %[[WROW]], %[[L15]] : index
// CHECK: %[[L4:.*]] = arith.shrui %[[LANE]], %c4 : index
// CHECK: %[[HALF:.*]] = arith.andi %[[L4]], %c1 : index
// CHECK: %[[ACOL:.*]] = arith.muli %[[HALF]], %c8 : index
// CHECK: %[[AROWOFF:.*]] = arith.muli %[[AROW]], %c16 : index
// CHECK: %[[AOFF:.*]] = arith.addi %[[AROWOFF]], %[[ACOL]] : index
// CHECK: %[[AOFF64:.*]] = arith.index_cast %[[AOFF]] : index to i64
// CHECK: %[[APTR:.*]] = llvm.getelementptr %[[ARENA:.*]][%[[AOFF64]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK: %[[AREGS:.*]] = nvvm.ldmatrix %[[APTR]] {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// B (K x N, N contiguous): lane l reads k row (l & 7) + 8 * ((l >> 3) & 1),
// column 8 * ((l >> 4) & 1) (two n8 tiles), with .trans.
// CHECK: %[[L3:.*]] = arith.shrui %[[LANE]], %c3 : index
// CHECK: %[[KHALF:.*]] = arith.andi %[[L3]], %c1 : index
// CHECK: %[[KOFF:.*]] = arith.muli %[[KHALF]], %c8 : index
// CHECK: %[[L7:.*]] = arith.andi %[[LANE]], %c7 : index
// CHECK: %[[BROW:.*]] = arith.addi %[[L7]], %[[KOFF]] : index
// CHECK: %[[BROWOFF:.*]] = arith.muli %[[BROW]], %c16 : index
// CHECK: %[[BOFF:.*]] = arith.addi %[[BROWOFF]], %[[ACOL]] : index
// CHECK: %[[BOFF64:.*]] = arith.index_cast %[[BOFF]] : index to i64
// CHECK: %[[BPTR:.*]] = llvm.getelementptr %{{.*}}[%[[BOFF64]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK: %[[BREGS:.*]] = nvvm.ldmatrix %[[BPTR]] {{.*}}layout = #nvvm.mma_layout<col>, num = 4 : i32
// CHECK-DAG: %[[B0:.*]] = llvm.extractvalue %[[BREGS]][0]
// CHECK-DAG: %[[B1:.*]] = llvm.extractvalue %[[BREGS]][1]
// CHECK-DAG: %[[B2:.*]] = llvm.extractvalue %[[BREGS]][2]
// CHECK-DAG: %[[B3:.*]] = llvm.extractvalue %[[BREGS]][3]
// Tile n = 0 takes B registers 0 and 1, tile n = 1 registers 2 and 3.
// CHECK-DAG: %[[V0:.*]] = llvm.bitcast %[[B0]] : i32 to vector<2xf16>
// CHECK-DAG: %[[V1:.*]] = llvm.bitcast %[[B1]] : i32 to vector<2xf16>
// CHECK: nvvm.mma.sync A[{{.*}}]  B[%[[V0]], %[[V1]]]
// CHECK-DAG: %[[V2:.*]] = llvm.bitcast %[[B2]] : i32 to vector<2xf16>
// CHECK-DAG: %[[V3:.*]] = llvm.bitcast %[[B3]] : i32 to vector<2xf16>
// CHECK: nvvm.mma.sync A[{{.*}}]  B[%[[V2]], %[[V3]]]
// CHECK-NOT: nvvm.mma.sync
module attributes {tile.target = #tile.target<"sm_90", ptx = 80>} {
tile.kernel @mma(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]},
                 %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(64) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<32x16xf16, shared, #tile.padded<pad = 0>>
    %b = tile.alloc_shared : !tile.buffer<16x16xf16, shared, #tile.padded<pad = 0>>
    %c = tile.alloc_fragment : !tile.buffer<32x16xf32, fragment>
    tile.gemm %a, %b, %c {policy = #tile.policy<full_row>} : !tile.buffer<32x16xf16, shared, #tile.padded<pad = 0>>, !tile.buffer<16x16xf16, shared, #tile.padded<pad = 0>>, !tile.buffer<32x16xf32, fragment>
  }
}
}
