//===- Fatbinary.h - Packaging cubins and PTX into a fatbin -----*- C++ -*-===//

#ifndef TILEC_CODEGEN_FATBINARY_H
#define TILEC_CODEGEN_FATBINARY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

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

/// Returns the file name under which image `index` of a fatbin is handed
/// to fatbinary: `image<index>.cubin` or `image<index>.ptx`.
std::string getFatbinImageName(size_t index, bool isCubin);

/// Returns the arguments (without the program) with which fatbinary packs
/// `images`, stored at `imagePaths`, into `fatbinPath`:
/// `-64 --create <fatbin> --image3=kind=elf|ptx,sm=<sm>,file=<path>...`.
std::vector<std::string>
getFatbinaryArguments(llvm::StringRef fatbinPath,
                      llvm::ArrayRef<FatbinImage> images,
                      llvm::ArrayRef<std::string> imagePaths);

/// Runs fatbinary on `images` (getFatbinaryArguments) and returns the
/// fatbin.
llvm::Expected<std::string> runFatbinary(llvm::StringRef fatbinaryPath,
                                         llvm::ArrayRef<FatbinImage> images);

} // namespace tilec

#endif // TILEC_CODEGEN_FATBINARY_H
