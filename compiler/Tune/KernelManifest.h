//===- KernelManifest.h - A kernel library described in YAML ----*- C++ -*-===//
//
// A kernel manifest lists what a build compiles: kernels (a .tile file, and
// the kernel of it) × configurations (`-D` values) × architectures
// (docs/cmake.md, "Manifests"). tilec_add_kernels(... MANIFEST file.yaml)
// compiles one, through `tilec-tune manifest`, which reads it, checks every
// configuration with the front end (a problem is reported at its place in
// the YAML) and prints what to compile as JSON.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_TUNE_KERNELMANIFEST_H
#define TILEC_COMPILER_TUNE_KERNELMANIFEST_H

#include "compiler/Diagnostics.h"
#include "compiler/Sema.h"
#include "compiler/Target.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// One compilation of a manifest: a kernel with one configuration, for
/// some architectures.
struct ManifestCompile {
  /// The .tile file (a relative `spec` joined to the manifest's directory).
  std::string Spec;
  /// The kernel (`kernel`; empty when the file has only one).
  std::string Kernel;
  /// The architectures, in the manifest's order.
  std::vector<Arch> Archs;
  /// The configuration's `-D` values, in the manifest's order.
  std::vector<Define> Defines;
  /// The file-name stem tilec gives the variant (`gemm-block_N_256`).
  std::string Stem;
  /// Compiled with `tilec --fast-math` (the entry's `fast_math`).
  bool FastMath = false;
};

/// Reads the manifest `Path` and checks every configuration with the front
/// end. Problems go to `Sink`, located in the YAML; nullopt after any.
std::optional<std::vector<ManifestCompile>>
loadKernelManifest(const std::string &Path, const DiagnosticSink &Sink);

/// The compilations as JSON (schema `tilec.manifest-compiles/1`), what
/// tilec_add_kernels reads: `{"compiles": [{"spec", "kernel", "archs",
/// "defines": ["NAME=VALUE", ...], "stem", "fast_math"}]}`.
nlohmann::json
describeManifestCompiles(const std::vector<ManifestCompile> &Compiles);

} // namespace tilec

#endif // TILEC_COMPILER_TUNE_KERNELMANIFEST_H
