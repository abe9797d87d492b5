//===- Tune.h - The benchmark phase of tuning -------------------*- C++ -*-===//
//
// tile-bench tune PKG [-o FILE] [--device N]... [--shape M=..,N=..]...
//                [--scalar NAME=VALUE]... [--warmup 10] [--reps 50]
//                [--time-limit 10] [--tolerance 2e-2] [--seed 1]
//                [--no-cache] [--flops EXPR]
//
// Runs every variant of a kernel package (written by `tilec-tune compile`)
// at every shape the package was compiled for, on every visible GPU (one
// worker thread per device), validates each against the package's default
// variant, times the valid ones as tile-bench times one kernel, and writes
// the package's tuning database (docs/tuning.md).
//
//===----------------------------------------------------------------------===//

#ifndef TILEBENCH_TUNE_H
#define TILEBENCH_TUNE_H

namespace tilebench {

/// Runs `tile-bench tune` with `argv[1] == "tune"`; returns the exit status.
int runTune(int argc, char **argv);

} // namespace tilebench

#endif // TILEBENCH_TUNE_H
