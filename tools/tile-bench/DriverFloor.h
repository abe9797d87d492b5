//===- DriverFloor.h - The driver's own host time per launch ----*- C++ -*-===//
//
// What a launch costs the calling thread when nothing but the CUDA driver
// runs: `cuLaunchKernelEx` of an empty kernel with no parameters, one block
// of one warp, measured as HostOverhead.h measures tilert's launches. It is
// the floor under every launch through tilert, whose own work (argument
// checks, grid, parameter packing, the stream's context) is the difference.
//
//===----------------------------------------------------------------------===//

#ifndef TILEBENCH_DRIVERFLOOR_H
#define TILEBENCH_DRIVERFLOOR_H

#include "HostOverhead.h"

namespace tilebench {

/// Loads an empty kernel (PTX the driver compiles for the current context's
/// device) and measures its launches on `stream` with measureHostOverhead.
/// Throws BenchError on a CUDA error.
HostOverhead measureDriverFloor(const tilert::detail::DriverApi &api,
                                CUstream stream, int warmup, int rounds,
                                int launches);

} // namespace tilebench

#endif // TILEBENCH_DRIVERFLOOR_H
