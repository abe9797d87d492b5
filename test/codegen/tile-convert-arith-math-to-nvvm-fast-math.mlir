// RUN: tile-opt %s --tile-convert-arith-math-to-nvvm=fast-math=true | FileCheck %s
// RUN: tile-opt %s --tile-convert-arith-math-to-nvvm | FileCheck %s --check-prefix=EXACT

// With fast-math, f32 transcendentals and division become PTX
// approximations (with the scale factors that make ex2 an exp and lg2 a
// log; tanh as inline PTX, LLVM 22 having no intrinsic for it); f16 and f64
// keep their exact lowering.
// Without it, the f32 square root is llvm.sqrt (sqrt.rn.f32), not
// libdevice's (sqrt.approx.f32 once NVVMReflect has answered 0 for
// __CUDA_PREC_SQRT).

// CHECK-LABEL: llvm.func @fast_math(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32, %[[H:[^:]*]]: f16, %[[D:[^:]*]]: f64)
// CHECK: %[[LOG2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
// CHECK: %[[XS:.*]] = llvm.fmul %[[X]], %[[LOG2E]] : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz"(%[[XS]]) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz"(%[[X]]) : (f32) -> f32
// CHECK: %[[LG:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK: %[[LN2:.*]] = llvm.mlir.constant(0.693147182 : f32) : f32
// CHECK: llvm.fmul %[[LG]], %[[LN2]] : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK: llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %[[X]] : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.sin.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.cos.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK: %[[RCP:.*]] = llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.f"(%[[Y]]) : (f32) -> f32
// CHECK: llvm.fmul %[[X]], %[[RCP]] : f32
// CHECK: llvm.call @__nv_expf(
// CHECK: llvm.fdiv %[[D]], %[[D]] : f64

// EXACT-LABEL: llvm.func @fast_math(
// EXACT-NOT: approx
// EXACT: llvm.call @__nv_expf(
// EXACT: llvm.intr.sqrt(%{{.*}}) : (f32) -> f32
// EXACT: llvm.fdiv {{.*}} : f32
llvm.func @fast_math(%x: f32, %y: f32, %h: f16, %d: f64) {
  %0 = math.exp %x : f32
  %1 = math.exp2 %x : f32
  %2 = math.log %x : f32
  %3 = math.log2 %x : f32
  %4 = math.sqrt %x : f32
  %5 = math.rsqrt %x : f32
  %6 = math.tanh %x : f32
  %7 = math.sin %x : f32
  %8 = math.cos %x : f32
  %9 = arith.divf %x, %y : f32
  %10 = math.exp %h : f16
  %11 = arith.divf %d, %d : f64
  llvm.return
}
