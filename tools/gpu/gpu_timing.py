"""The timing method of every GPU benchmark (docs/performance.md): `warmup`
untimed calls, then `reps` calls each between two CUDA events on the current
stream; the median in milliseconds and every time."""

import statistics

import torch


def time_ms(fn, warmup=10, reps=50):
    """Returns (median ms, [ms of every repetition]) of calling `fn`."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    stops = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for start, stop in zip(starts, stops):
        start.record()
        fn()
        stop.record()
    torch.cuda.synchronize()
    times = [start.elapsed_time(stop) for start, stop in zip(starts, stops)]
    return statistics.median(times), times
