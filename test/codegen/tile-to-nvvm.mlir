// RUN: tile-opt %s --tile-gpu=arch=sm_90a --tile-to-nvvm | FileCheck %s

// The whole lowering: only LLVM and NVVM ops remain, ready for translation.

// CHECK-LABEL: llvm.func @scale_add(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[B:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64},
// CHECK-SAME: %[[C:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[N:[^:]*]]: i64, %[[ALPHA:[^:]*]]: f32)
// CHECK-SAME: attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>}
// CHECK-NOT: arith.
// CHECK-NOT: scf.
// CHECK-NOT: tile.
// CHECK: nvvm.read.ptx.sreg.tid.x range <i32, 0, 256> : i32
// CHECK: llvm.cond_br %{{.*}}, ^[[FAST:bb[0-9]+]], ^[[SLOW:bb[0-9]+]]
// CHECK: ^[[FAST]]:
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.fmul %[[ALPHA]], %{{.*}} : f32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK: ^[[SLOW]]:
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// CHECK-NOT: arith.
// CHECK-NOT: scf.
tile.kernel @scale_add(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["N"]},
                       %B: !tile.buffer<?xf16, global> {tile.name = "B", tile.shape = ["N"]},
                       %C: !tile.buffer<?xf16, global> {tile.name = "C", tile.shape = ["N"]},
                       %N: index {tile.name = "N"}, %alpha: f32 {tile.name = "alpha"})
    attributes {tile.constants = {block = 2048 : i64, dtype = f16, threads = 256 : i64}} {
  %c2048 = arith.constant 2048 : index
  %g = arith.ceildivsi %N, %c2048 : index
  tile.launch grid(%g) threads(256) as (%bx) {
    tile.parallel (%i) in [2048] {
      %base = arith.muli %bx, %c2048 : index
      %idx = arith.addi %base, %i : index
      %a = tile.load %A[%idx] : !tile.buffer<?xf16, global>
      %b = tile.load %B[%idx] : !tile.buffer<?xf16, global>
      %a32 = arith.extf %a : f16 to f32
      %b32 = arith.extf %b : f16 to f32
      %s = arith.mulf %alpha, %a32 : f32
      %c32 = arith.addf %s, %b32 : f32
      %c = arith.truncf %c32 : f32 to f16
      tile.store %c, %C[%idx] : !tile.buffer<?xf16, global>
    }
  }
}
