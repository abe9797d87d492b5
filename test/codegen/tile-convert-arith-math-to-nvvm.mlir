// RUN: tile-opt %s --tile-convert-arith-math-to-nvvm | FileCheck %s

// Transcendentals become libdevice calls (f16 and bf16 through f32), other
// math and arith ops LLVM instructions or intrinsics, and index is 64 bits.

// CHECK-DAG: llvm.func @__nv_erff(f32) -> f32
// CHECK-DAG: llvm.func @__nv_exp(f64) -> f64
// CHECK-DAG: llvm.func @__nv_tanhf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_expf(f32) -> f32
// CHECK-LABEL: llvm.func @scalar_math(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[H:[^:]*]]: f16, %[[D:[^:]*]]: f64, %[[B:[^:]*]]: bf16, %[[N:[^:]*]]: i64, %[[P:[^:]*]]: !llvm.ptr<1>)
// CHECK: %[[ERF:.*]] = llvm.call @__nv_erff(%[[X]]) : (f32) -> f32
// CHECK: llvm.call @__nv_exp(%[[D]]) : (f64) -> f64
// CHECK: %[[HX:.*]] = llvm.fpext %[[H]] : f16 to f32
// CHECK: %[[TANH:.*]] = llvm.call @__nv_tanhf(%[[HX]]) : (f32) -> f32
// CHECK: llvm.fptrunc %[[TANH]] : f32 to f16
// CHECK: %[[BX:.*]] = llvm.fpext %[[B]] : bf16 to f32
// CHECK: llvm.call @__nv_expf(%[[BX]]) : (f32) -> f32
// CHECK: %[[MAX:.*]] = llvm.intr.maximum(%[[ERF]], %[[X]]) : (f32, f32) -> f32
// CHECK: %[[SUM:.*]] = llvm.fadd %[[MAX]], %[[X]] : f32
// CHECK: llvm.br ^bb1(%[[N]] : i64)
// CHECK: ^bb1(%[[I:.*]]: i64):
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[P]][%[[I]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: llvm.store %[[SUM]], %[[ADDR]] : f32, !llvm.ptr<1>
llvm.func @scalar_math(%x: f32, %h: f16, %d: f64, %b: bf16, %n64: i64, %p: !llvm.ptr<1>) {
  %e = math.erf %x : f32
  %y = math.exp %d : f64
  %t = math.tanh %h : f16
  %tb = math.exp %b : bf16
  %m = arith.maximumf %e, %x : f32
  %s = arith.addf %m, %x : f32
  %n = arith.index_cast %n64 : i64 to index
  cf.br ^bb1(%n : index)
^bb1(%i: index):
  %i64 = arith.index_cast %i : index to i64
  %addr = llvm.getelementptr %p[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %s, %addr : f32, !llvm.ptr<1>
  llvm.return
}
