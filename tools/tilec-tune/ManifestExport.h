//===- ManifestExport.h - A tuned package's winners as a manifest -*- C++
//-*-===//
//
// `tilec-tune export PKG -o kernels.yaml` writes the kernel manifest
// (docs/cmake.md, "Manifests") of the variants a tuned package's database
// selects: every device's best variant at every tuned shape, and the
// default variant, each as a configuration of the package's spec for its
// architecture. tilec_add_kernels(... MANIFEST kernels.yaml) then builds
// exactly what the tuning chose (docs/tuning.md).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILECTUNE_MANIFESTEXPORT_H
#define TILEC_TOOLS_TILECTUNE_MANIFESTEXPORT_H

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilec {

/// Writes the manifest of `PackageDir`'s tuned variants to `OutputPath`.
/// The package's spec (index.json's `source.path`, relative to the current
/// directory, as `tilec-tune compile` was given it) must still have the
/// bytes it was compiled from. Errors go to `Err`; returns 0 or 1.
int exportTunedManifest(const std::string &PackageDir,
                        const std::string &OutputPath, llvm::raw_ostream &Err);

} // namespace tilec

#endif // TILEC_TOOLS_TILECTUNE_MANIFESTEXPORT_H
