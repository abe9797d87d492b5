//===- KernelCompiler.h - tile kernel -> PTX, cubin, metadata ---*- C++ -*-===//
//
// The code generator's entry point for the driver. For one `tile.kernel` and
// one architecture, compileKernel
//   1. validates the target (architecture, PTX ISA version, ptxas release),
//   2. runs the tile-gpu phase on a copy of the kernel in a module whose
//      #tile.target is the target (optionally stopping there), then the
//      tile-to-nvvm phase (Pipeline.h),
//   3. describes the kernel for the metadata (params, grid expressions),
//   4. translates it to LLVM IR, links libdevice if needed, optimizes it at
//      O0..O3 and prints PTX with the NVPTX back end,
//   5. assembles the PTX with ptxas (optional) and reads its resource report.
// Errors are reported through the MLIR diagnostic engine at the offending
// op (or the kernel), so a SourceMgrDiagnosticHandler prints them as
// `file:line:col: error: ...` with the source line.
//
// Typical use (per kernel, per --arch):
//
//   tilec::CodegenOptions options;
//   options.arch = "sm_90a";
//   mlir::FailureOr<tilec::KernelArtifacts> built =
//       tilec::compileKernel(kernel, options, {path, tilec::sha256Hex(text)});
//   if (failed(built)) return failure();
//   ... collect one KernelArtifacts per arch, then renderKernelArtifacts.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_KERNELCOMPILER_H
#define TILEC_CODEGEN_KERNELCOMPILER_H

#include "codegen/CodegenLimits.h"
#include "codegen/GpuTarget.h"
#include "codegen/Metadata.h"
#include "codegen/PtxasReport.h"

#include "mlir/Support/LLVM.h"

#include <nlohmann/json.hpp>

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::tile {
class KernelOp;
} // namespace mlir::tile

namespace tilec {

/// Options of compileKernel.
struct CodegenOptions {
  /// Target architecture: sm_80, sm_86, sm_89, sm_90 or sm_90a.
  std::string arch = "sm_90a";
  /// PTX ISA version as two digits (83 is 8.3); 0 selects the
  /// architecture's default (defaultPtxVersion).
  PtxVersion ptxVersion = 0;
  /// Optimization level (0..3) of the LLVM pipeline, the NVPTX back end and
  /// ptxas.
  unsigned optLevel = 3;
  /// Run ptxas to produce a cubin and its resource usage. Without it only
  /// PTX is produced, and no ptxas is needed.
  bool assemble = true;
  /// Keep the tile IR after the tile-gpu phase (KernelArtifacts::tileGPU).
  bool keepTileGPU = false;
  /// Stop after the tile-gpu phase: produce no LLVM IR, PTX, cubin or
  /// metadata.
  bool stopAfterTileGPU = false;
  /// The ptxas executable; empty to search for it (see CudaToolkit.h).
  std::string ptxasPath;
  /// A CUDA toolkit root searched first for ptxas and libdevice; empty to
  /// use CUDA_HOME, CUDA_PATH, /usr/local/cuda and PATH.
  std::string cudaPath;
  /// Emit line information: PTX `.file`/`.loc` directives mapping the code
  /// to the `.tile` source (the kernel's MLIR locations, as line-table-only
  /// debug info), and `ptxas -lineinfo` so that the cubin keeps them.
  bool lineInfo = false;
  /// Lower f32 exp, exp2, log, log2, sqrt, rsqrt, tanh, sin, cos and
  /// division to PTX approximations (`tilec --fast-math`, docs/codegen.md).
  bool fastMath = false;
  /// Let warp-specialized sm_90a launches run in thread-block clusters whose
  /// blocks share loads (TMA multicast; `tilec --clusters`).
  bool clusters = false;
  /// Print the IR after every MLIR pass, then the LLVM IR after
  /// translation, after linking libdevice and after optimization.
  bool printIRAfterAll = false;
  /// Where the IR dumps go; null means llvm::errs().
  llvm::raw_ostream *irDumpStream = nullptr;
};

/// What compileKernel produces for one kernel and one architecture.
struct KernelArtifacts {
  /// The kernel's name, which is also its entry symbol.
  std::string kernelName;
  /// The validated target.
  GpuTarget target;
  /// The tile IR after the tile-gpu phase, as text; empty unless kept.
  std::string tileGPU;
  /// The optimized LLVM IR, as text.
  std::string llvmIR;
  /// The PTX assembly.
  std::string ptx;
  /// The cubin; empty unless the kernel was assembled.
  std::string cubin;
  /// The release of the ptxas that assembled it ("13.0.88"); empty unless
  /// assembled.
  std::string ptxasVersion;
  /// Resource usage from `ptxas -v`; zeros unless assembled.
  PtxasResources resources;
  /// The metadata (docs/metadata.md) except for `binaries`, which
  /// renderKernelArtifacts fills in.
  nlohmann::ordered_json metadata;
  /// What generating the code cost: the operations the lowering emitted
  /// (`tile.codegen_cost`) plus a fixed cost for the back end and ptxas.
  uint64_t cost = 0;
};

/// Returns one line (without newline) describing what `artifacts` uses, as
/// `tilec --stats` prints it: `<kernel> <arch>: <n> registers, <n> B spill
/// stores, <n> B spill loads, <n> B stack, <n> B shared (<n> static +
/// <n> dynamic), <n> barriers, grid (<x>, <y>, <z>) x <n> threads, <n>
/// resident blocks per multiprocessor` (codegen/Occupancy.h). The
/// register, spill, stack and barrier counts come from ptxas, so the
/// kernel must have been assembled.
std::string formatResourceReport(const KernelArtifacts &artifacts);

/// Compiles `kernel` (which is left unchanged) for `options.arch`. `source`
/// identifies the `.tile` file for the metadata.
mlir::FailureOr<KernelArtifacts> compileKernel(mlir::tile::KernelOp kernel,
                                               const CodegenOptions &options,
                                               const KernelSource &source);

} // namespace tilec

#endif // TILEC_CODEGEN_KERNELCOMPILER_H
