//===- Launch.h - Validated kernel launches ---------------------*- C++ -*-===//

#ifndef TILERT_LIB_LAUNCH_H
#define TILERT_LIB_LAUNCH_H

#include "ArgBinding.h"
#include "KernelObject.h"
#include "Status.h"

namespace tilert::detail {

/// Loads `kernel` on CUDA device `device` (see tilertKernelPrepare).
Status prepareKernel(tilertKernel_st &kernel, int32_t device);

/// Validates the arguments, loads the kernel on the tensors' device if needed
/// and launches it on `stream` (see tilertKernelLaunch). Nothing is launched
/// on any error.
Status launchKernel(tilertKernel_st &kernel, const DLTensor *const *tensors,
                    int32_t numTensors, const tilertScalar *scalars,
                    int32_t numScalars, CUstream stream);

/// Launches `kernel` with `args`, arguments that bindArguments accepted and
/// bound against metadata whose tensors, dims and scalars equal `kernel`'s
/// (its own, or a package's signature), and `scalars` (one per scalar
/// parameter): what launchKernel does after binding.
Status launchBoundKernel(tilertKernel_st &kernel, const BoundArgs &args,
                         const tilertScalar *scalars, CUstream stream);

} // namespace tilert::detail

#endif // TILERT_LIB_LAUNCH_H
