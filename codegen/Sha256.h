//===- Sha256.h - SHA-256 digests of artifacts ------------------*- C++ -*-===//

#ifndef TILEC_CODEGEN_SHA256_H
#define TILEC_CODEGEN_SHA256_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilec {

/// Returns the SHA-256 digest of `bytes` as 64 lowercase hex digits, the form
/// the metadata uses for binaries and sources.
std::string sha256Hex(llvm::StringRef bytes);

} // namespace tilec

#endif // TILEC_CODEGEN_SHA256_H
