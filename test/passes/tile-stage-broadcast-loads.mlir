// RUN: tile-opt %s --pass-pipeline='builtin.module(tile.kernel(tile-infer-layouts,tile-stage-broadcast-loads))' --split-input-file | FileCheck %s

// A GEMM epilogue (a parallel loop over the #tile.mma accumulator) reads a
// column vector bias[bx * 64 + j] and a row vector scale[by * 64 + i]: each
// is copied into a rank-1 shared tile allocated at the launch's start, right
// before the loop (its origin hoisted out of the loop's body), and read there.
// C[by * 64 + i, bx * 64 + j] varies in both dims and stays a global load.
// CHECK-LABEL: tile.kernel @epilogue
// CHECK: tile.launch grid(%{{.*}}, %{{.*}}) threads(128) as (%[[BXV:.*]], %[[BYV:.*]]) {
// CHECK-DAG: %[[SCALE:.*]] = tile.alloc_shared : !tile.buffer<64xf32, shared>
// CHECK-DAG: %[[BIAS:.*]] = tile.alloc_shared : !tile.buffer<64xf16, shared>
// CHECK: tile.pipelined
// CHECK: tile.gemm
// CHECK: %[[BX:.*]] = arith.muli %[[BXV]], %{{.*}} : index
// CHECK-NEXT: tile.copy %bias[%[[BX]]], %[[BIAS]][] : !tile.buffer<?xf16, global>, !tile.buffer<64xf16, shared>
// CHECK: %[[BY:.*]] = arith.muli %[[BYV]], %{{.*}} : index
// CHECK-NEXT: tile.copy %scale[%[[BY]]], %[[SCALE]][] : !tile.buffer<?xf32, global>, !tile.buffer<64xf32, shared>
// CHECK-NEXT: tile.parallel (%[[I:.*]], %[[J:.*]]) in [64, 64] attributes {layout = #tile.mma
// CHECK: tile.load %[[BIAS]][%[[J]]] : !tile.buffer<64xf16, shared>
// CHECK: tile.load %[[SCALE]][%[[I]]] : !tile.buffer<64xf32, shared>
// CHECK: tile.load %C[%{{.*}}, %{{.*}}] : !tile.buffer<?x?xf16, global>
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @epilogue(%A: !tile.buffer<?x?xf16, global> {tile.dtype = "f16", tile.name = "A", tile.shape = ["M", "K"]}, %B: !tile.buffer<?x?xf16, global> {tile.dtype = "f16", tile.name = "B", tile.shape = ["K", "N"]}, %bias: !tile.buffer<?xf16, global> {tile.dtype = "f16", tile.name = "bias", tile.shape = ["N"]}, %scale: !tile.buffer<?xf32, global> {tile.dtype = "f32", tile.name = "scale", tile.shape = ["M"]}, %C: !tile.buffer<?x?xf16, global> {tile.dtype = "f16", tile.name = "C", tile.shape = ["M", "N"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) attributes {tile.constants = {}} {
  %c64 = arith.constant 64 : index
  %0 = arith.ceildivsi %N, %c64 : index
  %c64_0 = arith.constant 64 : index
  %1 = arith.ceildivsi %M, %c64_0 : index
  tile.launch grid(%0, %1) threads(128) as (%bx, %by) {
    %2 = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %3 = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
    %4 = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    tile.clear %4 : !tile.buffer<64x64xf32, fragment>
    %c32 = arith.constant 32 : index
    %5 = arith.ceildivsi %K, %c32 : index
    tile.pipelined %ko to %5 stages 2 {
      %c64_3 = arith.constant 64 : index
      %8 = arith.muli %by, %c64_3 : index
      %c32_4 = arith.constant 32 : index
      %9 = arith.muli %ko, %c32_4 : index
      tile.copy %A[%8, %9], %2[] : !tile.buffer<?x?xf16, global>, !tile.buffer<64x32xf16, shared>
      %c32_5 = arith.constant 32 : index
      %10 = arith.muli %ko, %c32_5 : index
      %c64_6 = arith.constant 64 : index
      %11 = arith.muli %bx, %c64_6 : index
      tile.copy %B[%10, %11], %3[] : !tile.buffer<?x?xf16, global>, !tile.buffer<32x64xf16, shared>
      tile.gemm %2, %3, %4 : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %8 = tile.load %4[%i, %j] : !tile.buffer<64x64xf32, fragment>
      %c64_3 = arith.constant 64 : index
      %9 = arith.muli %bx, %c64_3 : index
      %10 = arith.addi %9, %j : index
      %11 = tile.load %bias[%10] : !tile.buffer<?xf16, global>
      %12 = arith.extf %11 : f16 to f32
      %13 = arith.addf %8, %12 : f32
      %c64_4 = arith.constant 64 : index
      %14 = arith.muli %by, %c64_4 : index
      %15 = arith.addi %14, %i : index
      %16 = tile.load %scale[%15] : !tile.buffer<?xf32, global>
      %17 = arith.mulf %13, %16 : f32
      %c64_5 = arith.constant 64 : index
      %18 = arith.muli %by, %c64_5 : index
      %19 = arith.addi %18, %i : index
      %c64_6 = arith.constant 64 : index
      %20 = arith.muli %bx, %c64_6 : index
      %21 = arith.addi %20, %j : index
      %22 = tile.load %C[%19, %21] : !tile.buffer<?x?xf16, global>
      %23 = arith.extf %22 : f16 to f32
      %24 = arith.addf %17, %23 : f32
      tile.store %24, %4[%i, %j] : !tile.buffer<64x64xf32, fragment>
    }
    %c64_1 = arith.constant 64 : index
    %6 = arith.muli %by, %c64_1 : index
    %c64_2 = arith.constant 64 : index
    %7 = arith.muli %bx, %c64_2 : index
    tile.copy %4[], %C[%6, %7] : !tile.buffer<64x64xf32, fragment>, !tile.buffer<?x?xf16, global>
  }
  tile.return
}
}

// -----

// Outside a GEMM epilogue (a #tile.flat loop) nothing is staged.
// CHECK-LABEL: tile.kernel @elementwise
// CHECK-NOT: tile.alloc_shared
// CHECK: tile.load %X
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @elementwise(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["N"]}, %Y: !tile.buffer<?xf32, global> {tile.name = "Y", tile.shape = ["N"]}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N) threads(128) as (%bx) {
    tile.parallel (%i) in [512] {
      %c512 = arith.constant 512 : index
      %0 = arith.muli %bx, %c512 : index
      %1 = arith.addi %0, %i : index
      %2 = tile.load %X[%1] : !tile.buffer<?xf32, global>
      tile.store %2, %Y[%1] : !tile.buffer<?xf32, global>
    }
  }
  tile.return
}
}

// -----

// A tile that could push the kernel's shared memory past sm_90a's 232448
// bytes is not added: the kernel's tiles take all of them already.
// CHECK-LABEL: tile.kernel @full
// CHECK-NOT: tile.copy %bias
// CHECK: tile.load %bias[%{{.*}}] : !tile.buffer<?xf16, global>
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @full(%A: !tile.buffer<?x?xf16, global> {tile.dtype = "f16", tile.name = "A", tile.shape = ["M", "K"]}, %B: !tile.buffer<?x?xf16, global> {tile.dtype = "f16", tile.name = "B", tile.shape = ["K", "N"]}, %bias: !tile.buffer<?xf16, global> {tile.dtype = "f16", tile.name = "bias", tile.shape = ["N"]}, %scale: !tile.buffer<?xf32, global> {tile.dtype = "f32", tile.name = "scale", tile.shape = ["M"]}, %C: !tile.buffer<?x?xf16, global> {tile.dtype = "f16", tile.name = "C", tile.shape = ["M", "N"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}, %N: index {tile.name = "N"}) attributes {tile.constants = {}} {
  %c64 = arith.constant 64 : index
  %0 = arith.ceildivsi %N, %c64 : index
  %c64_0 = arith.constant 64 : index
  %1 = arith.ceildivsi %M, %c64_0 : index
  tile.launch grid(%0, %1) threads(128) as (%bx, %by) {
    %big = tile.alloc_shared : !tile.buffer<112078xf16, shared>
    %2 = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
    %3 = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
    %4 = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
    tile.clear %4 : !tile.buffer<64x64xf32, fragment>
    %c32 = arith.constant 32 : index
    %5 = arith.ceildivsi %K, %c32 : index
    tile.pipelined %ko to %5 stages 2 {
      %c64_3 = arith.constant 64 : index
      %8 = arith.muli %by, %c64_3 : index
      %c32_4 = arith.constant 32 : index
      %9 = arith.muli %ko, %c32_4 : index
      tile.copy %A[%8, %9], %2[] : !tile.buffer<?x?xf16, global>, !tile.buffer<64x32xf16, shared>
      %c32_5 = arith.constant 32 : index
      %10 = arith.muli %ko, %c32_5 : index
      %c64_6 = arith.constant 64 : index
      %11 = arith.muli %bx, %c64_6 : index
      tile.copy %B[%10, %11], %3[] : !tile.buffer<?x?xf16, global>, !tile.buffer<32x64xf16, shared>
      tile.gemm %2, %3, %4 : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %8 = tile.load %4[%i, %j] : !tile.buffer<64x64xf32, fragment>
      %c64_3 = arith.constant 64 : index
      %9 = arith.muli %bx, %c64_3 : index
      %10 = arith.addi %9, %j : index
      %11 = tile.load %bias[%10] : !tile.buffer<?xf16, global>
      %12 = arith.extf %11 : f16 to f32
      %13 = arith.addf %8, %12 : f32
      %c64_4 = arith.constant 64 : index
      %14 = arith.muli %by, %c64_4 : index
      %15 = arith.addi %14, %i : index
      %16 = tile.load %scale[%15] : !tile.buffer<?xf32, global>
      %17 = arith.mulf %13, %16 : f32
      %c64_5 = arith.constant 64 : index
      %18 = arith.muli %by, %c64_5 : index
      %19 = arith.addi %18, %i : index
      %c64_6 = arith.constant 64 : index
      %20 = arith.muli %bx, %c64_6 : index
      %21 = arith.addi %20, %j : index
      %22 = tile.load %C[%19, %21] : !tile.buffer<?x?xf16, global>
      %23 = arith.extf %22 : f16 to f32
      %24 = arith.addf %17, %23 : f32
      tile.store %24, %4[%i, %j] : !tile.buffer<64x64xf32, fragment>
    }
    %c64_1 = arith.constant 64 : index
    %6 = arith.muli %by, %c64_1 : index
    %c64_2 = arith.constant 64 : index
    %7 = arith.muli %bx, %c64_2 : index
    tile.copy %4[], %C[%6, %7] : !tile.buffer<64x64xf32, fragment>, !tile.buffer<?x?xf16, global>
  }
  tile.return
}
}
