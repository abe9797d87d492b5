//===- ArtifactWriter.h - Writing a kernel's files --------------*- C++ -*-===//
//
// Writes what compileKernel produced, for the stages the user asked for
// (`--emit=llvm,ptx,cubin,fatbin,json`), into an output directory:
//
//   <stem>.<arch>.ll      optimized LLVM IR              (llvm)
//   <stem>.<arch>.ptx     PTX                            (ptx)
//   <stem>.<arch>.cubin   cubin                          (cubin)
//   <stem>.<arch>.json    metadata listing the binaries  (json)
//   <stem>.fatbin         every arch's cubin + PTX       (fatbin)
//
// The stem is the kernel's name, or the name of its variant
// (compiler/OutputNames.h: `vector_add-dtype_f16`).
//
// Either every requested file is written or none is: files are written
// under temporary names and renamed at the end.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_ARTIFACTWRITER_H
#define TILEC_CODEGEN_ARTIFACTWRITER_H

#include "codegen/Fatbinary.h"
#include "codegen/KernelCompiler.h"

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tilec {

/// The stages to write.
struct EmitStages {
  bool tileGPU = false;
  bool llvm = false;
  bool ptx = false;
  bool cubin = false;
  bool fatbin = false;
  bool json = false;

  /// True if any stage needs ptxas (cubin or fatbin).
  bool needsCubin() const { return cubin || fatbin; }
  /// True if any stage needs the tile-to-nvvm phase and the back end.
  bool needsLowering() const { return llvm || ptx || cubin || fatbin || json; }
  /// True if any stage is selected.
  bool any() const { return tileGPU || needsLowering(); }
};

/// Where and how to write artifacts.
struct ArtifactOptions {
  /// The stages to write.
  EmitStages stages;
  /// The fatbinary executable; empty to search (see CudaToolkit.h).
  std::string fatbinaryPath;
  /// A CUDA toolkit root searched first for fatbinary.
  std::string cudaPath;
  /// The stem of the file names; empty for the kernel's name.
  std::string fileStem;
  /// List the binaries in each JSON. Off when the artifacts are printed to
  /// standard output: no file is written that the JSON could name, so its
  /// `binaries` is empty.
  bool listBinaries = true;
};

/// One output file.
struct ArtifactFile {
  /// The file name, relative to the output directory.
  std::string name;
  /// The file's bytes.
  std::string contents;
};

/// Returns the images of the fatbin of a kernel compiled for `targets`
/// (without their bytes): every target's cubin, plus the PTX of the newest
/// target that is not architecture-specific (for JIT compilation on newer
/// GPUs). `buildIndex[i]` receives the target image `i` comes from.
std::vector<FatbinImage> planFatbinImages(llvm::ArrayRef<GpuTarget> targets,
                                          std::vector<size_t> &buildIndex);

/// Produces the files of the requested stages for one kernel compiled for
/// one or more architectures (`builds`, one per architecture, all of the
/// same kernel), without writing anything: per architecture in `builds`
/// order its `.ll`, `.cubin`, `.ptx` and `.json`, after a leading `.fatbin`.
/// The JSON of each architecture lists the binaries produced with it
/// (cubin, PTX, fatbin) with their SHA-256. A JSON needs at least one
/// binary stage, and cubin/fatbin need builds that were assembled. Errors
/// (including a failing fatbinary) are reported at `loc`.
mlir::FailureOr<std::vector<ArtifactFile>>
renderKernelArtifacts(mlir::Location loc,
                      llvm::ArrayRef<KernelArtifacts> builds,
                      const ArtifactOptions &options);

/// Writes `files` into `dir` (created if missing), all or nothing: every
/// file is written under a temporary name first and renamed at the end.
llvm::Error writeArtifactFiles(llvm::StringRef dir,
                               llvm::ArrayRef<ArtifactFile> files);

} // namespace tilec

#endif // TILEC_CODEGEN_ARTIFACTWRITER_H
