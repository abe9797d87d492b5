// RUN: tile-opt %s --tile-lower-scf-to-cf | FileCheck %s

// Structured control flow becomes branches (upstream's patterns, applied from
// the last op of a block to the first, so that each split moves only the ops
// up to the next, already lowered, structured op).

// CHECK-LABEL: llvm.func @sequence(
// CHECK-SAME: %[[C:.*]]: i1, %{{.*}}: i64, %[[P:.*]]: !llvm.ptr
// CHECK-NOT: scf.
// CHECK: %[[N:.*]] = arith.index_cast
// CHECK: cf.cond_br %[[C]], ^[[THEN0:.*]], ^[[CONT0:.*]]
// CHECK: ^[[THEN0]]:
// CHECK: llvm.store %{{.*}}, %[[P]] : i32, !llvm.ptr
// CHECK: cf.br ^[[CONT0]]
// CHECK: ^[[CONT0]]:
// CHECK: cf.cond_br %[[C]], ^[[THEN1:.*]], ^[[ELSE1:.*]]
// CHECK: ^[[THEN1]]:
// CHECK: cf.br ^[[JOIN1:.*]](%{{.*}} : i32)
// CHECK: ^[[ELSE1]]:
// CHECK: cf.br ^[[JOIN1]](%{{.*}} : i32)
// CHECK: ^[[JOIN1]](%[[V:.*]]: i32):
// CHECK: cf.br ^[[HEADER:.*]](%{{.*}} : index)
// CHECK: ^[[HEADER]](%[[I:.*]]: index):
// CHECK: %[[MORE:.*]] = arith.cmpi slt, %[[I]], %[[N]] : index
// CHECK: cf.cond_br %[[MORE]], ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK: ^[[BODY]]:
// CHECK: cf.cond_br %[[C]], ^[[INNER:.*]], ^[[LATCH:.*]]
// CHECK: ^[[INNER]]:
// CHECK: llvm.store %[[V]], %[[P]] : i32, !llvm.ptr
// CHECK: cf.br ^[[LATCH]]
// CHECK: ^[[LATCH]]:
// CHECK: cf.br ^[[HEADER]]
// CHECK: ^[[EXIT]]:
// CHECK: llvm.return
llvm.func @sequence(%c: i1, %n64: i64, %p: !llvm.ptr) {
  %n = arith.index_cast %n64 : i64 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  scf.if %c {
    llvm.store %one, %p : i32, !llvm.ptr
  }
  %v = scf.if %c -> (i32) {
    scf.yield %one : i32
  } else {
    scf.yield %two : i32
  }
  scf.for %i = %c0 to %n step %c1 {
    scf.if %c {
      llvm.store %v, %p : i32, !llvm.ptr
    }
  }
  llvm.return
}

// Ops whose patterns make other structured ops (scf.parallel becomes
// scf.for) are lowered to the end.
// CHECK-LABEL: llvm.func @others(
// CHECK-NOT: scf.
// CHECK: llvm.return
llvm.func @others(%n64: i64, %p: !llvm.ptr) {
  %n = arith.index_cast %n64 : i64 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    llvm.store %one, %p : i32, !llvm.ptr
    scf.reduce
  }
  %r = scf.while (%a = %c0) : (index) -> index {
    %c = arith.cmpi slt, %a, %n : index
    scf.condition(%c) %a : index
  } do {
  ^bb0(%b: index):
    %b1 = arith.addi %b, %c1 : index
    scf.yield %b1 : index
  }
  %s = scf.index_switch %r -> i32
  case 2 {
    scf.yield %one : i32
  }
  default {
    scf.yield %one : i32
  }
  llvm.store %s, %p : i32, !llvm.ptr
  llvm.return
}
