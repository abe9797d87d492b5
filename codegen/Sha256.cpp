//===- Sha256.cpp - SHA-256 digests of artifacts --------------------------===//

#include "codegen/Sha256.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

std::string tilec::sha256Hex(llvm::StringRef bytes) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(bytes)),
                     /*LowerCase=*/true);
}
