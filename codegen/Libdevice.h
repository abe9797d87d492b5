//===- Libdevice.h - Linking CUDA's libdevice -------------------*- C++ -*-===//
//
// Scalar math (`math.exp`, `math.erf`, ...) lowers to calls of libdevice's
// `__nv_*` functions. They are linked here, from the bitcode of the CUDA
// toolkit, only when the module references one, and everything linked is
// internalized so that unused functions disappear and the rest inline.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_LIBDEVICE_H
#define TILEC_CODEGEN_LIBDEVICE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace tilec {

/// True if `module` declares a libdevice function (`__nv_*`).
bool referencesLibdevice(const llvm::Module &module);

/// Links the libdevice functions `module` needs from the bitcode file
/// `libdevicePath`, internalizes every definition except the kernels, and
/// fixes NVVMReflect's `__CUDA_FTZ` query to 0 (IEEE denormals).
llvm::Error linkLibdevice(llvm::Module &module, llvm::StringRef libdevicePath);

} // namespace tilec

#endif // TILEC_CODEGEN_LIBDEVICE_H
