//===- Fatbinary.h - Packaging cubins and PTX into a fatbin -----*- C++ -*-===//

#ifndef TILEC_CODEGEN_FATBINARY_H
#define TILEC_CODEGEN_FATBINARY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tilec {

/// One image of a fatbin.
struct FatbinImage {
  /// True for a cubin (`kind=elf`), false for PTX (`kind=ptx`).
  bool isCubin = true;
  /// The architecture as fatbinary spells it: "80", "90a".
  std::string sm;
  /// The image's bytes.
  std::string bytes;
};

/// Runs `fatbinary -64 --create` on `images` and returns the fatbin.
llvm::Expected<std::string> runFatbinary(llvm::StringRef fatbinaryPath,
                                         llvm::ArrayRef<FatbinImage> images);

} // namespace tilec

#endif // TILEC_CODEGEN_FATBINARY_H
