// RUN: tile-opt %s --pass-pipeline='builtin.module(tile-gpu,convert-tile-to-llvm)' | FileCheck %s

// Shared tiles lowered: the kernel's arena is one external, zero-sized,
// 1024-byte aligned global in address space 3; every tile is a pointer at
// its offset into it (the 16 x 16 f32 tile at 0, the 1-element tile at
// 1024), elements are addressed row-major (the tile is given the plain
// #tile.padded<pad = 0> layout; swizzles are tested elsewhere). The block's threads share a
// fill (thread t sets elements t, t + 64, ...) and wait for each other
// after it, after each parallel loop that accesses a tile and after each
// access outside parallel loops. A parallel loop's row of a shared tile
// (s[i, j] in a loop over [i, j], 4 lanes per step) is one 16-byte access
// per step on both of its paths (the global access's bounds choose the
// path; the tile's are known); its transpose (s[i, j] in a loop over
// [j, i]) is accessed element by element.

// CHECK: llvm.mlir.global external @stage$smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @stage(
// CHECK: %[[ARENA:.*]] = llvm.mlir.addressof @stage$smem : !llvm.ptr<3>
// CHECK: %[[S:.*]] = llvm.getelementptr %[[ARENA]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[TOTAL:.*]] = llvm.getelementptr %[[ARENA]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[TID:.*]] = arith.index_castui %{{.*}} : i32 to index
// The fill.
// CHECK: scf.for %[[E:.*]] = %[[TID]] to %{{.*}} step %[[C64:.*]] {
// CHECK:   %[[COL:.*]] = arith.remui %[[E]], %[[C16:.*]] : index
// CHECK:   %[[ROW:.*]] = arith.divui %[[E]], %[[C16]] : index
// CHECK:   %[[R:.*]] = arith.muli %[[ROW]], %{{.*}} : index
// CHECK:   %[[FLAT:.*]] = arith.addi %[[R]], %[[COL]] : index
// CHECK:   %[[FLAT64:.*]] = arith.index_cast %[[FLAT]] : index to i64
// CHECK:   %[[P:.*]] = llvm.getelementptr %[[S]][%[[FLAT64]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK:   llvm.store %{{.*}}, %[[P]] : f32, !llvm.ptr<3>
// CHECK: }
// CHECK-NEXT: nvvm.barrier0
// The first loop stores into the tile, in both paths.
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: } else {
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: }
// CHECK-NEXT: nvvm.barrier0
// The accesses outside parallel loops.
// CHECK: llvm.getelementptr %[[S]][%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.getelementptr %[[TOTAL]][%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// The second loop reads the tile transposed: element (i, j) is at i * 16 + j.
// CHECK: %[[TI:.*]] = arith.muli %{{.*}}, %c16_{{[0-9]+}} : index
// CHECK-NEXT: %[[TFLAT:.*]] = arith.addi %[[TI]], %{{.*}} : index
// CHECK: %[[TFLAT64:.*]] = arith.index_cast %[[TFLAT]] : index to i64
// CHECK: %[[TP:.*]] = llvm.getelementptr %[[S]][%[[TFLAT64]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK: llvm.load %[[TP]] : !llvm.ptr<3> -> f32
// CHECK: llvm.getelementptr %[[TOTAL]][%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK: nvvm.barrier0
// CHECK-NEXT: llvm.return
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @stage(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["N"]},
                   %Y: !tile.buffer<?xf32, global> {tile.name = "Y", tile.shape = ["N"]},
                   %N: index {tile.name = "N"}) {
  %c256 = arith.constant 256 : index
  %c16 = arith.constant 16 : index
  %g = arith.ceildivsi %N, %c256 : index
  tile.launch grid(%g) threads(64) as (%bx) {
    %s = tile.alloc_shared : !tile.buffer<16x16xf32, shared, #tile.padded<pad = 0>>
    %total = tile.alloc_shared : !tile.buffer<1xf32, shared>
    %one = arith.constant 1.0 : f32
    tile.fill %s, %one : !tile.buffer<16x16xf32, shared, #tile.padded<pad = 0>>, f32
    tile.parallel (%i, %j) in [16, 16] {
      %r = arith.muli %i, %c16 : index
      %base = arith.muli %bx, %c256 : index
      %o = arith.addi %base, %r : index
      %idx = arith.addi %o, %j : index
      %x = tile.load %X[%idx] : !tile.buffer<?xf32, global>
      tile.store %x, %s[%i, %j] : !tile.buffer<16x16xf32, shared, #tile.padded<pad = 0>>
    }
    %c0 = arith.constant 0 : index
    %c15 = arith.constant 15 : index
    %first = tile.load %s[%c0, %c0] : !tile.buffer<16x16xf32, shared, #tile.padded<pad = 0>>
    tile.store %first, %total[%c0] : !tile.buffer<1xf32, shared>
    tile.parallel (%j, %i) in [16, 16] {
      %v = tile.load %s[%i, %j] : !tile.buffer<16x16xf32, shared, #tile.padded<pad = 0>>
      %t = tile.load %total[%c0] : !tile.buffer<1xf32, shared>
      %sum = arith.addf %v, %t : f32
      %r = arith.muli %j, %c16 : index
      %base = arith.muli %bx, %c256 : index
      %o = arith.addi %base, %r : index
      %idx = arith.addi %o, %i : index
      tile.store %sum, %Y[%idx] : !tile.buffer<?xf32, global>
    }
  }
}
}
