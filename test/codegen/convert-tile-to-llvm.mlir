// RUN: tile-opt %s --pass-pipeline='builtin.module(convert-tile-to-llvm,cse,canonicalize)' --split-input-file | FileCheck %s

// The kernel ABI: tensors as global pointers, dims as i64, then scalars. A
// contiguous loop gets a fast path with one 16-byte vector per access when
// the whole vector is in bounds, and guarded scalar accesses otherwise.

// CHECK-LABEL: llvm.func @vector_add(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[B:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64},
// CHECK-SAME: %[[C:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[N:[^:]*]]: i64)
// CHECK-SAME: attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>}
// CHECK-DAG: %[[N_IDX:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK-DAG: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 256> : i32
// CHECK-DAG: %[[BID:.*]] = nvvm.read.ptx.sreg.ctaid.x range <i32, 0, 2147483647> : i32
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[FIRST:.*]], %[[N_IDX]] : index
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[FIRST]], %c3 : index
// CHECK: %[[IN3:.*]] = arith.cmpi ult, %[[LAST]], %[[N_IDX]] : index
// CHECK: %[[FAST:.*]] = arith.andi %[[IN0]], %[[IN3]] : i1
// CHECK: scf.if %[[FAST]] {
// CHECK:   %[[PA:.*]] = llvm.getelementptr %[[A]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:   %[[VA:.*]] = llvm.load %[[PA]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-4: llvm.extractelement %[[VA]]
// CHECK:   %[[VB:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-4: llvm.extractelement %[[VB]]
// CHECK-COUNT-4: arith.addf
// CHECK-COUNT-4: llvm.insertelement
// CHECK:   %[[PC:.*]] = llvm.getelementptr %[[C]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:   llvm.store %{{.*}}, %[[PC]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK: } else {
// CHECK:   scf.if %[[IN0]] -> (f32) {
// CHECK:     llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:   } else {
// CHECK:     scf.yield %{{.*}} : f32
// CHECK:   }
// CHECK-COUNT-7: scf.if %{{.*}} -> (f32) {
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
tile.kernel @vector_add(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                        %B: !tile.buffer<?xf32, global> {tile.name = "B", tile.shape = ["N"]},
                        %C: !tile.buffer<?xf32, global> {tile.name = "C", tile.shape = ["N"]},
                        %N: index {tile.name = "N"}) {
  %c1024 = arith.constant 1024 : index
  %g = arith.ceildivsi %N, %c1024 : index
  tile.launch grid(%g) threads(256) as (%bx) {
    tile.parallel (%i) in [1024] attributes {layout = #tile.flat<vec = 4>} {
      %base = arith.muli %bx, %c1024 : index
      %idx = arith.addi %base, %i : index
      %a = tile.load %A[%idx] : !tile.buffer<?xf32, global>
      %b = tile.load %B[%idx] : !tile.buffer<?xf32, global>
      %c = arith.addf %a, %b : f32
      tile.store %c, %C[%idx] : !tile.buffer<?xf32, global>
    }
  }
}

// -----

// A fragment becomes a per-thread array: 30 x 64 elements over 128 threads
// taking 4 each is 4 steps (the last one partial) of 4 elements. Its
// accesses use constant indices, so SROA keeps it in registers. Rows of a
// tensor with a symbolic innermost extent start at a vector boundary only if
// that extent is a multiple of the vector: the fast path checks it.

// CHECK-LABEL: llvm.func @fragment_epilogue(
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{[^:]*}}: i64, %[[N:[^:]*]]: i64, %[[S:[^:]*]]: f32)
// CHECK-SAME: nvvm.maxntid = array<i32: 128, 1, 1>
// CHECK: %[[N_IDX:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: %[[FRAG:.*]] = llvm.alloca %{{.*}} x !llvm.array<16 x f32> {alignment = 4 : i64} : (i64) -> !llvm.ptr
// CHECK: nvvm.read.ptx.sreg.ctaid.y range <i32, 0, 65535> : i32
// CHECK-COUNT-16: llvm.store %[[S]], %{{.*}} : f32, !llvm.ptr
// CHECK: %[[ROWS:.*]] = arith.remui %[[N_IDX]], %c4 : index
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[ROWS]], %c0 : index
// CHECK: %[[FAST:.*]] = arith.andi %{{.*}}, %[[ALIGNED]] : i1
// CHECK: scf.if %[[FAST]] {
// CHECK:   llvm.load %[[FRAG]] : !llvm.ptr -> f32
// CHECK:   %[[P:.*]] = llvm.getelementptr %{{.*}} : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:   llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:   llvm.store %{{.*}}, %[[P]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// The partial last step (elements 1536..1919) is guarded.
// CHECK: %[[IN_RANGE:.*]] = arith.cmpi ult, %{{.*}}, %c1920 : index
// CHECK: scf.if %[[IN_RANGE]] {
// CHECK:   llvm.getelementptr %[[FRAG]][12] : (!llvm.ptr) -> !llvm.ptr, f32
tile.kernel @fragment_epilogue(%C: !tile.buffer<?x?xf32, global> {tile.name = "C", tile.shape = ["M", "N"]},
                               %M: index {tile.name = "M"}, %N: index {tile.name = "N"},
                               %s: f32 {tile.name = "s"}) {
  %c30 = arith.constant 30 : index
  %c64 = arith.constant 64 : index
  %gx = arith.ceildivsi %N, %c64 : index
  %gy = arith.ceildivsi %M, %c30 : index
  tile.launch grid(%gx, %gy) threads(128) as (%bx, %by) {
    %F = tile.alloc_fragment : !tile.buffer<30x64xf32, fragment, #tile.flat<vec = 4>>
    tile.fill %F, %s : !tile.buffer<30x64xf32, fragment, #tile.flat<vec = 4>>, f32
    %r = arith.muli %by, %c30 : index
    %c = arith.muli %bx, %c64 : index
    tile.parallel (%i, %j) in [30, 64] attributes {layout = #tile.flat<vec = 4>} {
      %row = arith.addi %r, %i : index
      %col = arith.addi %c, %j : index
      %f = tile.load %F[%i, %j] : !tile.buffer<30x64xf32, fragment, #tile.flat<vec = 4>>
      %x = tile.load %C[%row, %col] : !tile.buffer<?x?xf32, global>
      %y = arith.addf %x, %f : f32
      tile.store %y, %C[%row, %col] : !tile.buffer<?x?xf32, global>
    }
  }
}

// -----

// Per-thread variables are allocas; serial loops become scf.for, unrolled
// loops are expanded, conditionals become scf.if, and a bool scalar is
// passed as a byte.

// CHECK-LABEL: llvm.func @uniform_code(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[K:[^:]*]]: i64, %[[FLAG:[^:]*]]: i8)
// CHECK: %[[FLAG_I1:.*]] = arith.cmpi ne, %[[FLAG]], %c0_i8 : i8
// CHECK: %[[VAR:.*]] = llvm.alloca %{{.*}} x !llvm.array<1 x f32> {alignment = 4 : i64} : (i64) -> !llvm.ptr
// CHECK: llvm.store %{{.*}}, %[[VAR]] : f32, !llvm.ptr
// CHECK: scf.for %[[KK:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK:   arith.cmpi ult, %[[KK]], %{{.*}} : index
// CHECK:   llvm.load %[[VAR]] : !llvm.ptr -> f32
// CHECK:   llvm.store %{{.*}}, %[[VAR]] : f32, !llvm.ptr
// CHECK: }
// CHECK-COUNT-2: arith.mulf
// CHECK: scf.if %[[FLAG_I1]] {
// CHECK:   llvm.store %{{.*}}, %[[X]] : f32, !llvm.ptr<1>
tile.kernel @uniform_code(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["K"]},
                          %K: index {tile.name = "K"}, %flag: i1 {tile.name = "flag"}) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(32) as (%bx) {
    %v = tile.alloc_var : !tile.buffer<f32, local>
    %zero = arith.constant 0.0 : f32
    tile.store %zero, %v[] : !tile.buffer<f32, local>
    tile.serial %k to %K {
      %x = tile.load %X[%k] : !tile.buffer<?xf32, global>
      %o = tile.load %v[] : !tile.buffer<f32, local>
      %s = arith.addf %o, %x : f32
      tile.store %s, %v[] : !tile.buffer<f32, local>
    }
    %c2 = arith.constant 2 : index
    %total = tile.load %v[] : !tile.buffer<f32, local>
    tile.unroll %u to %c2 {
      %t = tile.load %v[] : !tile.buffer<f32, local>
      %d = arith.mulf %t, %total : f32
      tile.store %d, %v[] : !tile.buffer<f32, local>
    }
    tile.if %flag {
      %r = tile.load %v[] : !tile.buffer<f32, local>
      %c0 = arith.constant 0 : index
      tile.store %r, %X[%c0] : !tile.buffer<?xf32, global>
    }
  }
}
