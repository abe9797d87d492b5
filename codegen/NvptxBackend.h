//===- NvptxBackend.h - LLVM IR to PTX with the NVPTX back end --*- C++ -*-===//
//
// The in-process half of code generation: an LLVM module is optimized with
// the standard O0..O3 pipeline of `llvm::PassBuilder` (which also runs the
// NVPTX passes NVVMReflect and NVVMIntrRange) and printed as PTX by the
// NVPTX target machine (triple nvptx64-nvidia-cuda, cpu = arch,
// features = +ptxNN).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_NVPTXBACKEND_H
#define TILEC_CODEGEN_NVPTXBACKEND_H

#include "codegen/GpuTarget.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tilec {

/// Creates the NVPTX target machine for `target` at `optLevel` (0..3),
/// initializing the NVPTX back end on first use. With `contractFloatOps` a
/// floating-point multiply and the add of its product become one `fma`
/// (nvcc's `--fmad=true`; `tilec --fast-math`); otherwise they stay two
/// correctly rounded operations (`mul.rn`, `add.rn`, which ptxas keeps
/// apart).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNvptxTargetMachine(const GpuTarget &target, unsigned optLevel,
                         bool contractFloatOps);

/// Gives `module` the triple and data layout of `machine`.
void setModuleTarget(llvm::Module &module, llvm::TargetMachine &machine);

/// Runs the default O`optLevel` optimization pipeline on `module`.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                    unsigned optLevel);

/// Translates `module` to PTX assembly.
llvm::Expected<std::string> emitPtx(llvm::Module &module,
                                    llvm::TargetMachine &machine);

} // namespace tilec

#endif // TILEC_CODEGEN_NVPTXBACKEND_H
