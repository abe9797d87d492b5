//===- Launch.h - Validated kernel launches ---------------------*- C++ -*-===//

#ifndef TILERT_LIB_LAUNCH_H
#define TILERT_LIB_LAUNCH_H

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

} // namespace tilert::detail

#endif // TILERT_LIB_LAUNCH_H
