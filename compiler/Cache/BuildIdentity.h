//===- BuildIdentity.h - What identifies a tilec build and a file -*- C++
//-*-===//
//
// The compile cache must never hand a compilation the output of another
// tilec: a rebuilt tilec, even one of the same version and commit, may
// generate other code. The GNU build IDs the linker gives every ELF object
// are hashes of its contents, so the build IDs of the executable and of the
// LLVM and MLIR libraries it runs with identify the code generator exactly,
// at the cost of reading the program headers already in memory.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_CACHE_BUILDIDENTITY_H
#define TILEC_COMPILER_CACHE_BUILDIDENTITY_H

#include <string>

namespace tilec {

/// Returns the build IDs of the running executable and of the loaded
/// libLLVM and libMLIR (`exe:<hex>;libLLVM.so.22.1:<hex>;...`). An object
/// without a build ID is identified by its path and getFileStamp instead.
std::string getBuildIdentity();

/// Returns the size, modification time (in nanoseconds) and file identity
/// (device and inode) of the file `Path` as `<size>:<mtime>:<id>`, or an
/// empty string if it cannot be read.
std::string getFileStamp(const std::string &Path);

} // namespace tilec

#endif // TILEC_COMPILER_CACHE_BUILDIDENTITY_H
