//===- Passes.td - Lowering of tile kernels to LLVM/NVVM ---*- tablegen -*-===//

#ifndef TILEC_CODEGEN_CONVERSION_PASSES_TD
#define TILEC_CODEGEN_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileCheckCodegenSupport
    : Pass<"tile-check-codegen-support", "::mlir::tile::KernelOp"> {
  let summary = "Reports the ops the code generator cannot lower yet";
  let description = [{
    Runs before any lowering so that an unsupported program gets one located
    error per offending op (`'tile.gemm' is not supported by the sm_90a code
    generator yet`) instead of a failure half-way through the pipeline. The
    pass asks the registry of lowerings of `convert-tile-to-llvm`
    (TileToLLVM/Lowerings.h) which tile ops it lowers, so the two cannot
    disagree, and accepts scalar `arith`/`math` code on the element types
    f16, bf16, f32, f64, i1, i8, i16, i32 and i64. The target named in the
    messages is the module's `tile.target`.
  }];
}

def ConvertTileToLLVM : Pass<"convert-tile-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lowers tile kernels to NVVM kernel functions";
  let description = [{
    Replaces every `tile.kernel` by an `llvm.func` with the `nvvm.kernel`
    and `nvvm.maxntid` attributes and the kernel ABI of docs/abi.md: one
    `!llvm.ptr<1>` per tensor, one `i64` per symbolic dim, then the scalars.
    The body becomes per-thread code: block and thread indices are NVVM
    special registers; each `tile.parallel` is distributed over the threads
    as its `#tile.flat` layout says (set by `tile-infer-layouts`, which must
    run first), with
    16-byte vector accesses of contiguous global tensors in a fast path
    taken when every vector is in bounds and guarded scalar accesses
    otherwise; fragments and local buffers become per-thread `llvm.alloca`s
    that SROA turns into registers; loops and conditionals become `scf`.
    Scalar `arith`/`math` code is kept for `tile-convert-arith-math-to-nvvm`.
    What is emitted for each tile op comes from one lowering per op family
    (TileToLLVM/Lowerings.h).

    A kernel whose loops unroll to more code than the back end compiles in
    a few seconds is a located error; what the module's kernels cost is
    recorded in its `tile.codegen_cost` attribute.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def TileLowerSCFToCF : Pass<"tile-lower-scf-to-cf", "::mlir::ModuleOp"> {
  let summary = "Lowers structured control flow to branches in linear time";
  let description = [{
    Applies upstream's `scf` to `cf` patterns, but visits the structured
    ops of a block from the last to the first (and nested ops before the
    ops that hold them). Lowering an op splits its block and moves the ops
    after it into a new block; upstream's `convert-scf-to-cf` visits ops in
    program order, so every split moves the whole rest of the block, which
    is quadratic in the number of guarded accesses of a fully unrolled loop
    (16K guarded stores took minutes and 20 GB). Backwards, only the ops
    up to the next, already lowered, structured op move. Ops that patterns
    create (`scf.parallel` becomes `scf.for`) are lowered in another round.
  }];
  let dependentDialects = [
    "::mlir::cf::ControlFlowDialect",
  ];
}

def TileConvertArithMathToNVVM
    : Pass<"tile-convert-arith-math-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lowers arith, math, cf, index and ub ops in LLVM functions";
  let description = [{
    The final conversion of kernel bodies: `arith`, `cf`, `index` and `ub`
    to the LLVM dialect, and `math` to calls of libdevice's `__nv_*`
    functions (transcendentals; linked later by the code generator) or LLVM
    intrinsics. `index` is 64 bits wide. Expects structured control flow to
    be lowered to `cf` already (`tile-lower-scf-to-cf`). `arith.ceildivsi`,
    `ceildivui` and `floordivsi`, which have no LLVM counterpart, are expanded
    into divisions and selects first.

    With `fast-math`, f32 `math.exp`, `exp2`, `log`, `log2`, `sqrt`,
    `rsqrt`, `tanh`, `sin`, `cos` and `arith.divf` become the PTX
    approximations instead (`ex2.approx.ftz` of `x * log2(e)`,
    `lg2.approx.ftz` times `ln(2)`, `sqrt.approx.ftz`, `rsqrt.approx.ftz`,
    `tanh.approx.f32` as inline PTX, `sin.approx.ftz`, `cos.approx.ftz`,
    `a * rcp.approx.ftz(b)`), as `nvcc --use_fast_math` makes them; other
    types and functions keep the exact lowering.
  }];
  let options = [
    Option<"fastMath", "fast-math", "bool", /*default=*/"false",
           "Lower f32 transcendentals and division to PTX approximations">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
  ];
}

#endif // TILEC_CODEGEN_CONVERSION_PASSES_TD
