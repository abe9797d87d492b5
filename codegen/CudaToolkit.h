//===- CudaToolkit.h - Locating ptxas, fatbinary and libdevice --*- C++ -*-===//
//
// Search order for a tool: an explicit path (which must exist), then
// `<cudaPath>/bin`, `$CUDA_HOME/bin`, `$CUDA_PATH/bin`, `/usr/local/cuda/bin`
// and finally `PATH`. libdevice is looked up under the same roots and next to
// the ptxas that was found.
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
/// optional toolkit root searched first. The error lists where it looked.
llvm::Expected<std::string> findCudaTool(llvm::StringRef name,
                                         llvm::StringRef explicitPath,
                                         llvm::StringRef cudaPath);

/// Finds `nvvm/libdevice/libdevice.10.bc` under `cudaPath`, the toolkit
/// roots of the environment, and the toolkit that contains `ptxasPath` (when
/// not empty).
llvm::Expected<std::string> findLibdevice(llvm::StringRef cudaPath,
                                          llvm::StringRef ptxasPath);

} // namespace tilec

#endif // TILEC_CODEGEN_CUDATOOLKIT_H
