//===- HostFunctions.h - Functions host code calls --------------*- C++ -*-===//
//
// Host versions of the functions the kernel's code calls that the host
// process does not provide:
//
// * The lowering turns transcendental math into calls of CUDA libdevice's
//   `__nv_*` functions, which exist only as NVPTX bitcode. Each is bound to
//   the C library function that computes the same thing (`__nv_expf` to
//   `expf`, `__nv_erf` to `erf`, ...); results may differ from the GPU's in
//   the last bits.
// * The x86 back end rounds to bf16 by calling `__truncsfbf2` and
//   `__truncdfbf2`, which GCC's runtime library lacks before GCC 13.
// * Device `print` calls CUDA's `vprintf` with its arguments packed in a
//   buffer.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEHOSTRUN_HOSTFUNCTIONS_H
#define TILEC_TOOLS_TILEHOSTRUN_HOSTFUNCTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ExecutionEngine/Orc/Shared/ExecutorAddress.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class FunctionType;
} // namespace llvm

namespace tilehost {

/// Host functions by symbol name.
using HostSymbols =
    std::vector<std::pair<std::string, llvm::orc::ExecutorAddr>>;

/// Returns the address of the host version of the libdevice function `name`
/// declared with `type`. Fails with a message naming the function when there
/// is no host version of it, or when `type` is not the type of that host
/// version.
llvm::Expected<llvm::orc::ExecutorAddr>
findHostLibdeviceFunction(llvm::StringRef name, llvm::FunctionType *type);

/// Returns the code generator's runtime helpers the host code may call
/// (the bf16 conversions, `vprintf`), by symbol name.
HostSymbols getHostRuntimeHelpers();

/// CUDA's `vprintf(format, arguments)` (device `print`): prints to standard
/// output; returns the characters printed.
int32_t hostVprintf(const char *format, const char *arguments);

} // namespace tilehost

#endif // TILEC_TOOLS_TILEHOSTRUN_HOSTFUNCTIONS_H
