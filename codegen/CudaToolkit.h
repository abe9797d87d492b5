//===- CudaToolkit.h - Locating ptxas, fatbinary and libdevice --*- C++ -*-===//
//
// Search order for a tool: an explicit path (which must exist), then
// `<cudaPath>/bin`, `$CUDA_HOME/bin`, `$CUDA_PATH/bin`, `PATH` and finally the
// default installation, `/usr/local/cuda/bin`: a toolkit the user names wins
// over the default one. libdevice is looked up under the named roots, the
// toolkit of the ptxas that was found, and the default root.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_CUDATOOLKIT_H
#define TILEC_CODEGEN_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tilec {

/// Finds the CUDA tool `name` ("ptxas", "fatbinary"). `explicitPath`, when
/// not empty, is used as is and must name an executable file. `cudaPath` is an
/// optional toolkit root searched first. The error lists where it looked, in
/// search order.
llvm::Expected<std::string> findCudaTool(llvm::StringRef name,
                                         llvm::StringRef explicitPath,
                                         llvm::StringRef cudaPath);

/// Finds `nvvm/libdevice/libdevice.10.bc` under `cudaPath`, the toolkit
/// roots of the environment, the toolkit that contains `ptxasPath` (when not
/// empty) and `/usr/local/cuda`, in this order.
llvm::Expected<std::string> findLibdevice(llvm::StringRef cudaPath,
                                          llvm::StringRef ptxasPath);

} // namespace tilec

#endif // TILEC_CODEGEN_CUDATOOLKIT_H
