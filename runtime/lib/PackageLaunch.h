//===- PackageLaunch.h - Dispatch to a package's variants -------*- C++ -*-===//
//
// Selects the variant of a package for a device and dims (the tuned best of
// the nearest tuned shape on a device of the tuned name, else the default)
// and launches it. Selections are cached per (device, dims), so a repeated
// shape costs one lookup.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_PACKAGELAUNCH_H
#define TILERT_LIB_PACKAGELAUNCH_H

#include "PackageObject.h"
#include "Status.h"

namespace tilert::detail {

/// Sets `variant` to the index of the variant of `package` selected for
/// CUDA device `device` and `dims` (`count` values, in the kernel's order
/// of dims), loading its binaries if this is its first selection (see
/// tilertPackageSelect).
Status selectVariant(tilertPackage_st &package, int32_t device,
                     const int64_t *dims, size_t count, size_t &variant);

/// Binds the arguments against the package's signature (as
/// tilertKernelLaunch does), selects the variant for the tensors' device
/// and dims and launches it (see tilertPackageLaunch).
Status launchPackage(tilertPackage_st &package, const DLTensor *const *tensors,
                     int32_t numTensors, const tilertScalar *scalars,
                     int32_t numScalars, CUstream stream);

} // namespace tilert::detail

#endif // TILERT_LIB_PACKAGELAUNCH_H
